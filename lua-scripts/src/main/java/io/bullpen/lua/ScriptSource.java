package io.bullpen.lua;

import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;

/**
 * Where script text comes from: files addressed by a path relative to the script root, such as
 * {@code addJob.lua} or {@code includes/emitEvent.lua}.
 */
public interface ScriptSource {

  /**
   * Reads one file as UTF-8.
   *
   * @param relativePath path below the script root, with {@code /} separators
   * @return the file's text, or empty when there is no such file
   * @throws java.io.UncheckedIOException when the file exists but cannot be read
   */
  Optional<String> read(String relativePath);

  /**
   * Names (without {@code .lua}) of the scripts directly in the root, excluding {@code includes/}.
   *
   * @return the script names, sorted
   * @throws UnsupportedOperationException when this source cannot enumerate its files
   */
  Set<String> scriptNames();

  /**
   * The scripts shipped in this library's jar, under {@code io/bullpen/lua/scripts/}.
   *
   * @return a source reading through this library's class loader
   */
  static ScriptSource classpath() {
    return new ClasspathScriptSource(ScriptSource.class.getClassLoader());
  }

  /**
   * The scripts in a directory, such as {@code src/main/lua} during development and lint.
   *
   * @param dir the script root; {@code includes/} is below it
   * @return a source reading files from {@code dir}
   */
  static ScriptSource directory(Path dir) {
    return new DirectoryScriptSource(dir);
  }
}
