package io.bullpen.lua;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Reads scripts from class loader resources under {@value #ROOT}. Listing works for the two
 * layouts a class loader normally has: a directory (an IDE or Maven's {@code target/classes}) and a
 * jar whose directory entries are present (Maven's jar plugin writes them).
 */
final class ClasspathScriptSource implements ScriptSource {

  static final String ROOT = "io/bullpen/lua/scripts/";

  private final ClassLoader loader;

  ClasspathScriptSource(ClassLoader loader) {
    this.loader = loader;
  }

  @Override
  public Optional<String> read(String relativePath) {
    try (InputStream in = loader.getResourceAsStream(ROOT + relativePath)) {
      if (in == null) {
        return Optional.empty();
      }
      return Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read script resource " + ROOT + relativePath, e);
    }
  }

  @Override
  public Set<String> scriptNames() {
    List<URL> roots;
    try {
      roots = Collections.list(loader.getResources(ROOT));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot locate " + ROOT, e);
    }
    if (roots.isEmpty()) {
      // A jar without directory entries hides the folder; say so rather than answer "no scripts".
      throw new UnsupportedOperationException(
          "cannot list scripts: no resource directory " + ROOT + " on the class path");
    }
    Set<String> names = new TreeSet<>();
    for (URL url : roots) {
      switch (url.getProtocol()) {
        case "file" -> listDirectory(url, names);
        case "jar" -> listJar(url, names);
        default -> throw new UnsupportedOperationException(
            "cannot list scripts at " + url + "; use ScriptCatalog.directory(Path)");
      }
    }
    return Collections.unmodifiableSet(names);
  }

  private static void listDirectory(URL url, Set<String> names) {
    try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
      files.filter(Files::isRegularFile).forEach(f -> addScript(f.getFileName().toString(), names));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list scripts at " + url, e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException("bad resource URL " + url, e);
    }
  }

  private static void listJar(URL url, Set<String> names) {
    try {
      URLConnection connection = url.openConnection();
      if (!(connection instanceof JarURLConnection jarConnection)) {
        throw new UnsupportedOperationException("cannot list scripts at " + url);
      }
      // Uncached, so closing it cannot pull the jar out from under anyone else.
      jarConnection.setUseCaches(false);
      try (JarFile jar = jarConnection.getJarFile()) {
        String prefix = jarConnection.getEntryName();
        Enumeration<JarEntry> entries = jar.entries();
        while (entries.hasMoreElements()) {
          String entry = entries.nextElement().getName();
          if (entry.startsWith(prefix) && entry.indexOf('/', prefix.length()) < 0) {
            addScript(entry.substring(prefix.length()), names);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list scripts at " + url, e);
    }
  }

  private static void addScript(String fileName, Set<String> names) {
    if (fileName.endsWith(".lua")) {
      names.add(fileName.substring(0, fileName.length() - ".lua".length()));
    }
  }

  @Override
  public String toString() {
    return "classpath " + ROOT;
  }
}
