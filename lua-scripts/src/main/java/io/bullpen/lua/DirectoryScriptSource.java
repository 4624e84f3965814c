package io.bullpen.lua;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/** Reads scripts from a directory on disk. */
final class DirectoryScriptSource implements ScriptSource {

  private final Path root;

  DirectoryScriptSource(Path root) {
    this.root = root.toAbsolutePath().normalize();
  }

  @Override
  public Optional<String> read(String relativePath) {
    Path file = root.resolve(relativePath).normalize();
    // A path that climbs out of the root is not one of our files.
    if (!file.startsWith(root) || !Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      return Optional.of(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read script file " + file, e);
    }
  }

  @Override
  public Set<String> scriptNames() {
    Set<String> names = new TreeSet<>();
    try (Stream<Path> files = Files.list(root)) {
      files
          .filter(Files::isRegularFile)
          .map(f -> f.getFileName().toString())
          .filter(n -> n.endsWith(".lua"))
          .forEach(n -> names.add(n.substring(0, n.length() - ".lua".length())));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list scripts in " + root, e);
    }
    return Collections.unmodifiableSet(names);
  }

  @Override
  public String toString() {
    return "directory " + root;
  }
}
