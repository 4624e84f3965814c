package io.bullpen.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The documentation a user reads: README.md and every Markdown page under docs/ (the guide, the
 * performance page, the ADRs), less the raw benchmark logs in docs/bench.
 */
final class DocFiles {
    private DocFiles() {
    }

    /** The repository's root: the first directory above the working directory with README.md and examples/. */
    static Path root() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve("README.md")) && Files.exists(dir.resolve("examples"))) {
                return dir;
            }
        }
        throw new IllegalStateException("README.md not found above " + Path.of("").toAbsolutePath());
    }

    /** README.md, then docs/**&#47;*.md in path order. */
    static List<Path> pages(Path root) throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(root.resolve("README.md"));
        Path docs = root.resolve("docs");
        try (Stream<Path> files = Files.walk(docs)) {
            files.filter(f -> f.toString().endsWith(".md"))
                    .filter(f -> !docs.relativize(f).startsWith("bench"))
                    .sorted()
                    .forEach(pages::add);
        }
        return pages;
    }
}
