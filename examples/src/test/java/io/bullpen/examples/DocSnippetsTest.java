package io.bullpen.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code ```java} block of README.md and of every page under docs/ compiles as written,
 * against the published modules
 * (this module's test class path has queue-core, queue-worker, queue-dashboard, bullpen, queue-testing, bullpen-micrometer,
 * and bullpen-spring-boot-autoconfigure with Spring for the Spring Boot snippets).
 * The rules the pages state for their snippets (docs/getting-started.md), which this test applies:
 * <ul>
 *   <li>Each snippet carries its own imports, explicit ones (a wildcard {@code java.util.*} would
 *       clash with {@code io.bullpen.Queue}).</li>
 *   <li>It may use the names the pages introduce, and no others:
 *       {@code redisson} (a {@code RedissonClient}), {@code config} (a Redisson {@code Config}),
 *       {@code orders} (a {@code Queue<Order>}), {@code log} (an SLF4J {@code Logger}) and the data
 *       class {@code Order}, a {@code record Order(String id)}. See {@link #CONTEXT}.</li>
 *   <li>A line holding only {@code ...} stands for the reader's code and is left out.</li>
 *   <li>A snippet that starts with a class declaration or an annotation (a test class) is compiled
 *       as a file of its own; any other is compiled as the body of a method that may throw, where
 *       a {@code record} is a local one.</li>
 * </ul>
 * A failure names the file, its line and the compiler's message. Deprecated API fails too: the
 * documentation should not teach it.
 */
class DocSnippetsTest {
    /** What the pages say their snippets may assume (docs/getting-started.md); nothing more. */
    private static final String CONTEXT = """
            package readme;

            import io.bullpen.Queue;
            import org.redisson.api.RedissonClient;
            import org.redisson.config.Config;
            import org.slf4j.Logger;

            abstract class ReadmeContext {
                protected RedissonClient redisson;
                protected Config config;
                protected Queue<Order> orders;
                protected Logger log;
            }

            record Order(String id) {
            }
            """;
    private static final Pattern IMPORT = Pattern.compile("\\s*import\\s+(static\\s+)?[\\w.]+(\\.\\*)?\\s*;\\s*(//.*)?");
    /** A leading record is a local one (a snippet's data type); a class or annotation starts a file. */
    private static final Pattern TYPE_START = Pattern.compile("\\s*(@\\w+.*|((public|abstract|final)\\s+)*(class|interface|enum)\\s+\\w+.*)");

    @Test
    void everyJavaSnippetInTheDocumentationCompiles(@TempDir Path out) throws IOException {
        Path root = DocFiles.root();
        List<Snippet> snippets = new ArrayList<>();
        for (Path page : DocFiles.pages(root)) {
            snippets.addAll(snippets(root.relativize(page).toString().replace('\\', '/'),
                    Files.readAllLines(page, StandardCharsets.UTF_8)));
        }
        // A parsing slip must not pass by compiling nothing.
        assertThat(snippets.size()).as("java blocks found in README.md and docs/").isGreaterThanOrEqualTo(30);

        List<String> problems = new ArrayList<>();
        for (Snippet s : snippets) {
            s.imports().stream().filter(i -> i.text().matches("\\s*import\\s+[\\w.]+\\.\\*\\s*;.*"))
                    .forEach(i -> problems.add(s.file() + ":" + i.pageLine() + ": a wildcard import; name each class"));
        }
        problems.addAll(compile(snippets, out));

        assertThat(problems).as("snippets that do not compile as written").isEmpty();
    }

    /** One {@code ```java} block: its lines, each with its line number in its file. */
    record Line(int pageLine, String text) {
    }

    record Snippet(String file, int firstLine, List<Line> imports, List<Line> body) {
        boolean isTypeDeclaration() {
            return body.stream().map(Line::text).filter(t -> !t.isBlank() && !t.trim().startsWith("//"))
                    .findFirst().map(t -> TYPE_START.matcher(t).matches()).orElse(false);
        }

        String className() {
            return "Snippet_" + file.replaceAll("[^A-Za-z0-9]", "_") + "_" + firstLine;
        }

        /**
         * The compilation unit, and for each of its lines the line of its page it came from (0 for the
         * lines this test adds).
         */
        Unit unit() {
            List<String> lines = new ArrayList<>();
            List<Integer> origin = new ArrayList<>();
            add(lines, origin, "package readme;", 0);
            imports.forEach(i -> add(lines, origin, i.text(), i.pageLine()));
            boolean type = isTypeDeclaration();
            if (!type) {
                add(lines, origin, "class " + className() + " extends ReadmeContext {", 0);
                add(lines, origin, "void snippet() throws Exception {", 0);
            }
            body.forEach(l -> add(lines, origin, l.text(), l.pageLine()));
            if (!type) {
                add(lines, origin, "}}", 0);
            }
            return new Unit(className(), String.join("\n", lines) + "\n", origin);
        }

        private static void add(List<String> lines, List<Integer> origin, String text, int pageLine) {
            lines.add(text);
            origin.add(pageLine);
        }
    }

    record Unit(String name, String source, List<Integer> origin) {
        int pageLine(long unitLine) {
            return unitLine >= 1 && unitLine <= origin.size() ? origin.get((int) unitLine - 1) : 0;
        }
    }

    static List<Snippet> snippets(String file, List<String> page) {
        List<Snippet> snippets = new ArrayList<>();
        for (int i = 0; i < page.size(); i++) {
            if (!page.get(i).trim().equals("```java")) {
                continue;
            }
            List<Line> imports = new ArrayList<>();
            List<Line> body = new ArrayList<>();
            int first = i + 2;
            for (i++; i < page.size() && !page.get(i).trim().equals("```"); i++) {
                Line line = new Line(i + 1, page.get(i));
                if (IMPORT.matcher(line.text()).matches()) {
                    imports.add(line);
                } else if (!line.text().trim().equals("...")) {
                    body.add(line);
                }
            }
            snippets.add(new Snippet(file, first, imports, body));
        }
        return snippets;
    }

    private static List<String> compile(List<Snippet> snippets, Path out) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        List<Unit> units = snippets.stream().map(Snippet::unit).toList();
        List<String> fileOf = snippets.stream().map(Snippet::file).toList();
        List<JavaFileObject> files = new ArrayList<>();
        files.add(source("ReadmeContext", CONTEXT));
        units.forEach(u -> files.add(source(u.name(), u.source())));
        List<String> options = List.of("-classpath", testClassPath(), "-d", out.toString(), "-proc:none",
                "-Xlint:deprecation,removal", "-Xmaxerrs", "1000", "-Xmaxwarns", "1000");
        try (StandardJavaFileManager files0 = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            javac.getTask(null, files0, diagnostics, options, null, files).call();
        }
        List<String> problems = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            boolean deprecated = d.getCode() != null && (d.getCode().contains("deprecat") || d.getCode().contains("removal"));
            if (d.getKind() != Diagnostic.Kind.ERROR && !deprecated) {
                continue;
            }
            String where = d.getSource() == null ? "?" : d.getSource().getName();
            int index = -1;
            for (int u = 0; u < units.size(); u++) {
                if (where.endsWith("/" + units.get(u).name() + ".java")) {
                    index = u;
                }
            }
            int line = index < 0 ? 0 : units.get(index).pageLine(d.getLineNumber());
            String file = index < 0 ? "?" : fileOf.get(index);
            problems.add(file + ":" + (line > 0 ? line : "?") + ": " + d.getMessage(Locale.ROOT)
                    + (line > 0 ? "" : "\n  in " + where + " line " + d.getLineNumber()));
        }
        return problems;
    }

    private static JavaFileObject source(String className, String code) {
        return new SimpleJavaFileObject(URI.create("string:///readme/" + className + ".java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return code;
            }
        };
    }

    /** Surefire runs tests from a manifest-only jar; it names the real class path in this property. */
    private static String testClassPath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }
}
