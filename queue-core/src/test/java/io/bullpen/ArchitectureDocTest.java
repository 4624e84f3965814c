package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import io.bullpen.lua.ScriptCatalog;
import io.bullpen.lua.ScriptHeader;
import org.junit.jupiter.api.Test;

/**
 * docs/ARCHITECTURE.md keeps up with the code: it names every script and every job state, so a
 * new script or state cannot go undocumented, and its script table's KEYS column and the ARGV it
 * names agree with the scripts' parsed headers (surefire runs with the module as working
 * directory).
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

    /**
     * The script table's rows, script name to its cells (KEYS, what it does, events), in the
     * order of the table.
     */
    private static Map<String, String[]> scriptRows(String doc) {
        Map<String, String[]> rows = new LinkedHashMap<>();
        Matcher row = Pattern.compile("(?m)^\\| `(\\w+)` \\| (.*)$").matcher(doc);
        while (row.find()) {
            String[] cells = row.group(2).split(" \\| ");
            if (cells.length == 3 && cells[2].endsWith(" |")) {
                cells[2] = cells[2].substring(0, cells[2].length() - 2);
                rows.put(row.group(1), cells);
            }
        }
        return rows;
    }

    /**
     * The key names a KEYS cell lists, in order: comma-separated names, each possibly followed
     * by a note in parentheses; "same keys as X" stands for X's list.
     */
    private static List<String> keyNames(String cell, Map<String, String[]> rows) {
        if (cell.startsWith("same keys as ")) {
            return keyNames(rows.get(cell.substring("same keys as ".length()).trim())[0], rows);
        }
        StringBuilder bare = new StringBuilder();
        int depth = 0;
        for (char c : cell.toCharArray()) {
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (depth == 0) {
                bare.append(c);
            }
        }
        return Arrays.stream(bare.toString().split(",")).map(String::trim).filter(n -> !n.isEmpty()).toList();
    }

    @Test
    void scriptTableKeysMatchTheScriptHeaders() throws IOException {
        String doc = doc();
        Map<String, String[]> rows = scriptRows(doc);
        ScriptCatalog catalog = ScriptCatalog.classpath();
        assertThat(rows.keySet()).as("script table rows").containsExactlyInAnyOrderElementsOf(catalog.names());
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, String[]> row : rows.entrySet()) {
            List<String> header = catalog.get(row.getKey()).header().keys().stream()
                    .map(ScriptHeader.Entry::name).toList();
            List<String> table = keyNames(row.getValue()[0], rows);
            if (!table.equals(header)) {
                wrong.add(row.getKey() + ": table " + table + ", header " + header);
            }
        }
        assertThat(wrong).as("script table KEYS that differ from the script's header").isEmpty();
    }

    @Test
    void argvTheScriptTableNamesIsInTheScriptHeaders() throws IOException {
        String doc = doc();
        ScriptCatalog catalog = ScriptCatalog.classpath();
        Pattern named = Pattern.compile("ARGV (?:(\\d+) )?`(\\w+)`");
        List<String> wrong = new ArrayList<>();
        int seen = 0;
        for (Map.Entry<String, String[]> row : scriptRows(doc).entrySet()) {
            List<ScriptHeader.Entry> argv = catalog.get(row.getKey()).header().argv();
            Matcher m = named.matcher(row.getValue()[1]);
            while (m.find()) {
                seen++;
                String name = m.group(2);
                Integer index = m.group(1) == null ? null : Integer.valueOf(m.group(1));
                boolean found = argv.stream().anyMatch(e -> e.name().equals(name)
                        && (index == null || e.index() == index));
                if (!found) {
                    wrong.add(row.getKey() + ": ARGV " + (index == null ? "" : index + " ") + name);
                }
            }
        }
        assertThat(seen).as("ARGV references in the script table").isPositive();
        assertThat(wrong).as("ARGV the script table names that the script's header does not have").isEmpty();
    }

    @Test
    void pointsOnlyIntoTheRepository() throws IOException {
        String doc = doc();
        assertThat(doc).as("docs/ARCHITECTURE.md names no path outside the repository")
                .doesNotContain("/work/").doesNotContain("/home/").doesNotContain("/tmp/").doesNotContain("docs/design/");
        Matcher link = Pattern.compile("\\]\\(([^)#:]+)(#[^)]*)?\\)").matcher(doc);
        while (link.find()) {
            assertThat(ROOT.resolve("docs").resolve(link.group(1)))
                    .as("docs/ARCHITECTURE.md links to %s", link.group(1)).exists();
        }
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
