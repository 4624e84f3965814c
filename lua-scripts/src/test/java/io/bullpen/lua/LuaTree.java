package io.bullpen.lua;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes a throwaway script tree laid out like src/main/lua. */
final class LuaTree {

  /** What the catalog puts after the header of {@link #header(String)}: its one key, by name. */
  static final String KEY_TABLE = "local KEY = {key = KEYS[1]} -- generated from the header's KEYS\n";

  private final Path root;

  LuaTree(Path root) {
    this.root = root;
  }

  /** A script with a complete header declaring one key, followed by {@code body}. */
  LuaTree script(String name, String body) {
    return file(name + ".lua", header(name) + body);
  }

  /** An include file with its one-block header, followed by {@code body}. */
  LuaTree include(String name, String body) {
    return file("includes/" + name + ".lua", "--[[ " + name + ": fixture include ]]\n" + body);
  }

  LuaTree file(String relativePath, String text) {
    Path file = root.resolve(relativePath);
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }

  ScriptCatalog catalog() {
    return ScriptCatalog.directory(root);
  }

  static String header(String name) {
    return """
        --[[
          %s: fixture script.
          KEYS:
            1 key   STRING
          ARGV:
            none
          Returns:
            nil
          Events:
            none
        ]]
        """.formatted(name);
  }
}
