package io.bullpen.lua;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
import java.lang.module.ModuleDescriptor.Opens;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The compiled module descriptor of lua-scripts: the catalog is queue-core's business only, and
 * the script folders are open, since a named module's resources are visible to a class loader
 * only in open packages (the catalog reads them through one).
 */
class ModuleDescriptorTest {

    @Test
    void exportsTheCatalogToQueueCoreOnlyAndOpensTheScriptFolders() throws IOException {
        ModuleDescriptor module = descriptor();

        assertThat(module.name()).isEqualTo("io.bullpen.lua");
        assertThat(module.exports()).hasSize(1);
        Exports catalog = module.exports().iterator().next();
        assertThat(catalog.source()).isEqualTo("io.bullpen.lua");
        assertThat(catalog.targets()).containsExactly("io.bullpen");
        assertThat(module.opens()).extracting(Opens::source)
                .containsExactlyInAnyOrder("io.bullpen.lua.scripts", "io.bullpen.lua.scripts.includes");
        assertThat(module.opens()).allMatch(o -> !o.isQualified());
    }

    @Test
    void everyScriptFolderIsOpen() throws Exception {
        Path scripts = classes().resolve("io/bullpen/lua/scripts");
        try (var dirs = Files.walk(scripts)) {
            assertThat(dirs.filter(Files::isDirectory)
                    .map(d -> classes().relativize(d).toString().replace('/', '.')))
                    .allMatch(pkg -> descriptor().opens().stream().anyMatch(o -> o.source().equals(pkg)));
        }
    }

    private static Path classes() {
        try {
            return Path.of(ScriptCatalog.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ModuleDescriptor descriptor() {
        Path file = classes().resolve("module-info.class");
        assertThat(file).as("module-info.class").exists();
        try (InputStream in = Files.newInputStream(file)) {
            return ModuleDescriptor.read(in);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
