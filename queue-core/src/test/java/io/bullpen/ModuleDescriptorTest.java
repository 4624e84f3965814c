package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The compiled module descriptor of queue-core: users see {@code io.bullpen},
 * {@code io.bullpen.events} and {@code io.bullpen.instrument}; {@code io.bullpen.internal} reaches
 * Bullpen's own modules only, so a
 * modular application cannot import it (tests run on the class path and never see this).
 */
class ModuleDescriptorTest {

    @Test
    void exportsTheApiToEveryoneAndTheInternalsToBullpensOwnModulesOnly() throws IOException {
        ModuleDescriptor module = descriptor();

        assertThat(module.name()).isEqualTo("io.bullpen");
        Map<String, Set<String>> exports = module.exports().stream()
                .collect(Collectors.toMap(Exports::source, Exports::targets));
        assertThat(exports).containsOnlyKeys("io.bullpen", "io.bullpen.events", "io.bullpen.flow", "io.bullpen.instrument",
                "io.bullpen.internal");
        assertThat(exports.get("io.bullpen.flow")).as("unqualified").isEmpty();
        assertThat(exports.get("io.bullpen")).as("unqualified").isEmpty();
        assertThat(exports.get("io.bullpen.events")).as("unqualified").isEmpty();
        assertThat(exports.get("io.bullpen.instrument")).as("unqualified").isEmpty();
        assertThat(exports.get("io.bullpen.internal"))
                .containsExactlyInAnyOrder("io.bullpen.worker", "io.bullpen.dashboard", "io.bullpen.client");
        assertThat(module.opens()).as("nothing is open to reflection").isEmpty();
    }

    @Test
    void aModuleThatUsesTheApiReadsRedissonAndJacksonThroughIt() throws IOException {
        Set<String> transitive = descriptor().requires().stream()
                .filter(r -> r.modifiers().contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE))
                .map(ModuleDescriptor.Requires::name)
                .collect(Collectors.toSet());

        // Queue.builder takes a RedissonClient, and a Jackson TypeReference for generic data.
        assertThat(transitive).containsExactlyInAnyOrder("redisson", "com.fasterxml.jackson.databind");
    }

    /** target/classes/module-info.class, next to the compiled Queue. */
    private static ModuleDescriptor descriptor() throws IOException {
        Path classes;
        try {
            classes = Path.of(Queue.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        Path file = Files.isDirectory(classes) ? classes.resolve("module-info.class") : null;
        assertThat(file).as("queue-core's compiled classes").isNotNull();
        assertThat(file).as("module-info.class").exists();
        try (InputStream in = Files.newInputStream(file)) {
            return ModuleDescriptor.read(in);
        }
    }
}
