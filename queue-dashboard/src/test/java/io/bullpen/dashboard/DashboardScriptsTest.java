package io.bullpen.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The page's scripts as files (no browser, no Redis): small modules with small functions, every
 * module reachable from the page and servable, and none that builds HTML from text.
 */
class DashboardScriptsTest {
    /** The most lines a script may have. */
    static final int MAX_FILE_LINES = 400;
    /** The most lines a function may span (nested functions count towards the one around them). */
    static final int MAX_FUNCTION_LINES = 80;

    private static final Pattern IMPORT = Pattern.compile("^import\\s[^;]*?from\\s+'([^']+)';", Pattern.MULTILINE);
    /** How StaticFiles names a file it serves: one path segment, no folders. */
    private static final Pattern SERVABLE = Pattern.compile("\\./[A-Za-z0-9][A-Za-z0-9_-]*\\.js");
    private static final Pattern FUNCTION = Pattern.compile("\\bfunction\\b\\s*([A-Za-z0-9_$]*)");

    private static Path staticDir;
    /** File name -> text, for every .js file of the page. */
    private static final Map<String, String> SCRIPTS = new LinkedHashMap<>();

    @BeforeAll
    static void readScripts() throws IOException, URISyntaxException {
        URL root = DashboardScriptsTest.class.getClassLoader().getResource(StaticFiles.ROOT);
        assertThat(root).as("the static folder on the test classpath").isNotNull();
        staticDir = Path.of(root.toURI());
        try (Stream<Path> files = Files.list(staticDir)) {
            for (Path p : files.filter(p -> p.getFileName().toString().endsWith(".js")).sorted().toList()) {
                SCRIPTS.put(p.getFileName().toString(), Files.readString(p, StandardCharsets.UTF_8));
            }
        }
        assertThat(SCRIPTS).containsKey("app.js");
    }

    @Test
    void noScriptIsLongerThanFourHundredLines() {
        Map<String, Integer> tooLong = new LinkedHashMap<>();
        SCRIPTS.forEach((name, text) -> {
            int lines = text.split("\n", -1).length - (text.endsWith("\n") ? 1 : 0);
            if (lines > MAX_FILE_LINES) {
                tooLong.put(name, lines);
            }
        });
        assertThat(tooLong).as("scripts over %d lines: split them by page or part", MAX_FILE_LINES).isEmpty();
    }

    @Test
    void noFunctionIsLongerThanEightyLines() {
        List<String> tooLong = new ArrayList<>();
        SCRIPTS.forEach((name, text) -> {
            for (FunctionSpan f : functions(text)) {
                if (f.lines() > MAX_FUNCTION_LINES) {
                    tooLong.add(name + ":" + f.line() + " " + f.name() + " (" + f.lines() + " lines)");
                }
            }
        });
        assertThat(tooLong).isEmpty();
    }

    @Test
    void thePageLoadsAppJsAsAModule() throws IOException {
        String index = Files.readString(staticDir.resolve("index.html"), StandardCharsets.UTF_8);
        assertThat(index).contains("<script type=\"module\" src=\"app.js\"></script>");
        assertThat(Pattern.compile("<script(?![^>]*type=\"module\")").matcher(index).find())
                .as("every script of index.html is a module").isFalse();
    }

    /** Imports name files next to app.js (StaticFiles serves no folders), and every file is used. */
    @Test
    void everyImportIsAServableFileAndEveryScriptIsImported() {
        TreeSet<String> reached = new TreeSet<>();
        Deque<String> todo = new ArrayDeque<>(List.of("app.js"));
        while (!todo.isEmpty()) {
            String name = todo.pop();
            if (!reached.add(name)) {
                continue;
            }
            assertThat(SCRIPTS).as("imported module %s", name).containsKey(name);
            Matcher m = IMPORT.matcher(SCRIPTS.get(name));
            while (m.find()) {
                String spec = m.group(1);
                assertThat(spec).as("import in %s", name).matches(SERVABLE);
                todo.push(spec.substring(2));
            }
        }
        assertThat(reached).as("scripts reachable from app.js").isEqualTo(new TreeSet<>(SCRIPTS.keySet()));
    }

    /** Values reach the page as text (dom.js); nothing parses a string as HTML or code. */
    @Test
    void noScriptBuildsHtmlOrCodeFromText() {
        Pattern html = Pattern.compile("innerHTML|outerHTML|insertAdjacentHTML|document\\.write|createContextualFragment"
                + "|DOMParser|\\beval\\s*\\(|new\\s+Function\\b|setTimeout\\s*\\(\\s*['\"]");
        List<String> found = new ArrayList<>();
        SCRIPTS.forEach((name, text) -> {
            Matcher m = html.matcher(stripComments(text));
            while (m.find()) {
                found.add(name + ": " + m.group());
            }
        });
        assertThat(found).isEmpty();
    }

    /**
     * Only dom.js makes elements and text nodes; only api.js sends requests (posts actions, sends
     * the token header with reads too, opens the event stream as a streaming fetch), live.js reads
     * the stream; no EventSource (it cannot send the token header).
     */
    @Test
    void onlyDomJsBuildsNodesAndOnlyApiJsTalksToTheServer() {
        List<String> found = new ArrayList<>();
        SCRIPTS.forEach((name, text) -> {
            String code = blankStringsAndComments(text);
            if (!name.equals("dom.js") && Pattern.compile("\\bcreate(Element|ElementNS|TextNode)\\b").matcher(code).find()) {
                found.add(name + " creates nodes itself");
            }
            if (!name.equals("api.js") && Pattern.compile("\\b(fetch|XMLHttpRequest)\\b").matcher(code).find()) {
                found.add(name + " sends requests itself");
            }
            if (!name.equals("live.js") && code.contains("getReader")) {
                found.add(name + " reads an event stream");
            }
            if (Pattern.compile("\\bEventSource\\s*\\(|new\\s+EventSource\\b").matcher(code).find()) {
                found.add(name + " opens an EventSource, which cannot send the token header");
            }
        });
        assertThat(found).isEmpty();
        assertThat(SCRIPTS.get("api.js")).contains("method: 'POST'", "'X-Bullpen-Token': t",
                "headers['X-Bullpen-Token'] = token", "headers: authHeaders('text/event-stream')");
    }

    /**
     * The limits and groups modules: on the queue page (and the limits on the overview), group
     * actions only through api.js's runAction (the token, the confirmation of success) and only
     * when the dashboard has actions, and the one vocabulary in their labels.
     */
    @Test
    void theLimitsAndGroupsModulesAreWiredInAndGroupActionsNeedTheToken() {
        assertThat(imports("page-queue.js")).contains("./queue-limits.js", "./queue-groups.js");
        assertThat(imports("page-overview.js")).contains("./queue-limits.js");
        String groups = SCRIPTS.get("queue-groups.js");
        assertThat(imports("queue-groups.js")).contains("./dom.js", "./api.js");
        assertThat(groups).contains("runAction({", "api.groupAction(", "state.config.actions ?");
        assertThat(SCRIPTS.get("api.js")).contains("groupAction: function (q, g, action)", "enc(g)");
        assertThat(stringLiterals(groups)).contains("waiting", "active", "paused", "No groups.", "default");
    }

    /** The workers card: on the queue page, built through dom.js, reading api.js's workers path; "no workers" on both pages. */
    @Test
    void theWorkersModuleIsWiredInAndTheNoWorkersBadgeIsOnBothPages() {
        assertThat(imports("page-queue.js")).contains("./queue-workers.js");
        assertThat(imports("queue-workers.js")).contains("./dom.js", "./api.js");
        assertThat(SCRIPTS.get("queue-workers.js")).contains("api.workers(page.q)");
        assertThat(SCRIPTS.get("api.js")).contains("workers: function (q)", "'/workers'");
        assertThat(stringLiterals(SCRIPTS.get("queue-workers.js"))).contains("Workers", "Host", "PID", "Concurrency",
                "active", "paused", "Started", "Last seen", "No live workers.");
        assertThat(SCRIPTS.get("page-overview.js")).contains("noWorkersBadge(name)", "lacksWorkers(qs)");
        assertThat(SCRIPTS.get("page-queue.js")).contains("noWorkersBadge(q)", "lacksWorkers(s)");
        assertThat(stringLiterals(SCRIPTS.get("ui.js"))).contains("no workers");
    }

    /** Labels use the words of JobState and the events (waiting, active, paused), never a synonym. */
    @Test
    void labelsUseTheOneVocabulary() {
        Pattern synonyms = Pattern.compile("(?i)\\b(queued|running|in progress|pending|suspended|halted|processing)\\b");
        List<String> found = new ArrayList<>();
        SCRIPTS.forEach((name, text) -> stringLiterals(text).stream()
                .filter(literal -> synonyms.matcher(literal).find())
                .forEach(literal -> found.add(name + ": '" + literal + "'")));
        assertThat(found).isEmpty();
    }

    private static List<String> imports(String script) {
        List<String> specs = new ArrayList<>();
        Matcher m = IMPORT.matcher(SCRIPTS.get(script));
        while (m.find()) {
            specs.add(m.group(1));
        }
        return specs;
    }

    /** The single-quoted string literals of a script's code (the scripts quote strings with '). */
    private static List<String> stringLiterals(String source) {
        List<String> literals = new ArrayList<>();
        Matcher m = Pattern.compile("'((?:[^'\\\\\\n]|\\\\.)*)'").matcher(stripComments(source));
        while (m.find()) {
            literals.add(m.group(1));
        }
        return literals;
    }

    /** A function keyword's body: the line it starts on, and how many lines to its closing brace. */
    record FunctionSpan(String name, int line, int lines) {
    }

    /** Every {@code function} in code (not in strings or comments) with the span of its braces. */
    static List<FunctionSpan> functions(String source) {
        String code = blankStringsAndComments(source);
        List<FunctionSpan> spans = new ArrayList<>();
        Matcher m = FUNCTION.matcher(code);
        while (m.find()) {
            int open = code.indexOf('{', m.end());
            int close = matchingBrace(code, open);
            int first = lineOf(code, m.start());
            spans.add(new FunctionSpan(m.group(1).isEmpty() ? "(anonymous)" : m.group(1), first,
                    lineOf(code, close) - first + 1));
        }
        return spans;
    }

    private static int matchingBrace(String code, int open) {
        int depth = 0;
        for (int i = open; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return i;
            }
        }
        throw new AssertionError("unbalanced braces after offset " + open);
    }

    private static int lineOf(String text, int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    private static String stripComments(String source) {
        return source.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("(?m)^\\s*//.*$", " ");
    }

    /**
     * The source with string, template and comment contents replaced by spaces (newlines kept), so
     * braces inside them do not count. The scripts use no regular expression literals.
     */
    static String blankStringsAndComments(String s) {
        StringBuilder out = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            int end;
            if (c == '/' && i + 1 < s.length() && s.charAt(i + 1) == '/') {
                end = s.indexOf('\n', i);
                end = end < 0 ? s.length() : end;
            } else if (c == '/' && i + 1 < s.length() && s.charAt(i + 1) == '*') {
                end = s.indexOf("*/", i + 2) + 2;
            } else if (c == '\'' || c == '"' || c == '`') {
                end = i + 1;
                while (end < s.length() && s.charAt(end) != c) {
                    end += s.charAt(end) == '\\' ? 2 : 1;
                }
                end++;
            } else {
                out.append(c);
                i++;
                continue;
            }
            for (int k = i; k < end; k++) {
                out.append(s.charAt(k) == '\n' ? '\n' : ' ');
            }
            i = end;
        }
        return out.toString();
    }
}
