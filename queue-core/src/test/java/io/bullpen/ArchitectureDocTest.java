package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/ARCHITECTURE.md keeps up with the code: it names every script and every job state, so a
 * new script or state cannot go undocumented (surefire runs with the module as working directory).
 */
class ArchitectureDocTest {

    private static final Path ROOT = Path.of("..");
    private static final Path SCRIPTS = ROOT.resolve("lua-scripts/src/main/lua");

    private static String doc() throws IOException {
        return Files.readString(ROOT.resolve("docs/ARCHITECTURE.md"));
    }

    @Test
    void listsEveryScriptInTheScriptTable() throws IOException {
        List<String> scripts;
        try (Stream<Path> files = Files.list(SCRIPTS)) {
            scripts = files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".lua"))
                    .map(n -> n.substring(0, n.length() - ".lua".length())).sorted().toList();
        }
        assertThat(scripts).as("scripts in %s", SCRIPTS).isNotEmpty();
        String doc = doc();
        assertThat(scripts).allSatisfy(name -> assertThat(doc)
                .as("docs/ARCHITECTURE.md has a script table row for %s.lua", name)
                .contains("| `" + name + "` |"));
    }

    @Test
    void namesEveryJobStateWithItsKey() throws IOException {
        String doc = doc();
        for (JobState state : JobState.values()) {
            assertThat(doc).as("docs/ARCHITECTURE.md names JobState %s", state).contains("`" + state.name() + "`");
            if (state != JobState.UNKNOWN) {
                assertThat(doc).as("docs/ARCHITECTURE.md names key %s", state.key()).contains("| `" + state.key() + "` |");
            }
        }
    }
}
