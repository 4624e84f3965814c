package io.bullpen.lua;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClasspathScriptSourceTest {

  private static final String ROOT = ClasspathScriptSource.ROOT;

  @TempDir Path dir;

  @Test
  void readsAndListsScriptsInAJar() throws IOException {
    Path jar = jar(true);

    try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
      ScriptSource source = new ClasspathScriptSource(loader);

      assertThat(source.scriptNames()).containsExactly("a", "b");
      assertThat(source.read("a.lua")).hasValue("return 'a'\n");
      assertThat(source.read("includes/helper.lua")).hasValue("local function helper() end\n");
      assertThat(source.read("missing.lua")).isEmpty();
    }
  }

  @Test
  void cannotListAJarWithoutDirectoryEntries() throws IOException {
    Path jar = jar(false);

    try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
      ScriptSource source = new ClasspathScriptSource(loader);

      assertThat(source.read("a.lua")).hasValue("return 'a'\n");
      assertThatThrownBy(source::scriptNames).isInstanceOf(UnsupportedOperationException.class);
    }
  }

  @Test
  void listsScriptsInAClassesDirectory() throws IOException {
    new LuaTree(dir.resolve(ROOT)).script("x", "").include("helper", "");

    try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, null)) {
      assertThat(new ClasspathScriptSource(loader).scriptNames()).containsExactly("x");
    }
  }

  private Path jar(boolean withDirectoryEntries) throws IOException {
    Path jar = dir.resolve("scripts.jar");
    try (OutputStream out = Files.newOutputStream(jar);
        JarOutputStream zip = new JarOutputStream(out)) {
      if (withDirectoryEntries) {
        for (String d : new String[] {"io/", "io/bullpen/", "io/bullpen/lua/", ROOT, ROOT + "includes/"}) {
          zip.putNextEntry(new JarEntry(d));
          zip.closeEntry();
        }
      }
      put(zip, ROOT + "b.lua", "return 'b'\n");
      put(zip, ROOT + "a.lua", "return 'a'\n");
      put(zip, ROOT + "includes/helper.lua", "local function helper() end\n");
    }
    return jar;
  }

  private static void put(JarOutputStream zip, String name, String text) throws IOException {
    zip.putNextEntry(new JarEntry(name));
    zip.write(text.getBytes(StandardCharsets.UTF_8));
    zip.closeEntry();
  }
}
