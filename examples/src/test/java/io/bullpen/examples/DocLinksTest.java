package io.bullpen.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every link of README.md and docs/ leads somewhere: a relative link to a file that exists (from a
 * page under docs/, a file under docs/, as {@code mkdocs build --strict} requires), a link to this
 * repository on GitHub ({@link #REPO}) to a path that exists here, and every {@code #anchor} to a
 * heading of its page. Anchors are computed as MkDocs (Python-Markdown's toc) makes them, and a
 * linked heading must get the same anchor on GitHub, so a link works on the site and on the
 * repository page alike. MkDocs does not check anchors; this test does.
 */
class DocLinksTest {
    static final String REPO = "https://github.com/bullpen-io/bullpen/";
    private static final Pattern LINK = Pattern.compile("!?\\[(?:[^\\]\\[]|\\[[^\\]]*\\])*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*?)\\s*#*\\s*$");

    @Test
    void everyLinkAndAnchorResolves() throws IOException {
        Path root = DocFiles.root();
        List<String> problems = new ArrayList<>();
        int links = 0;
        for (Path page : DocFiles.pages(root)) {
            List<String> lines = Files.readAllLines(page, StandardCharsets.UTF_8);
            boolean fenced = false;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.trim().startsWith("```")) {
                    fenced = !fenced;
                    continue;
                }
                if (fenced) {
                    continue;
                }
                Matcher m = LINK.matcher(withoutInlineCode(line));
                while (m.find()) {
                    links++;
                    String problem = check(root, page, m.group(1));
                    if (problem != null) {
                        problems.add(root.relativize(page) + ":" + (i + 1) + ": " + m.group(1) + ": " + problem);
                    }
                }
            }
        }
        assertThat(links).as("links found").isGreaterThan(50);
        assertThat(problems).as("broken links").isEmpty();
    }

    @Test
    void anchorsFollowMkDocsRules() {
        assertThat(mkdocsSlug("2. Key layout")).isEqualTo("2-key-layout");
        assertThat(mkdocsSlug("When the service says \"slow down\": `RateLimitedException`"))
                .isEqualTo("when-the-service-says-slow-down-ratelimitedexception");
        assertThat(mkdocsSlug("Metrics (Micrometer)")).isEqualTo("metrics-micrometer");
        assertThat(mkdocsSlug("A - B")).isEqualTo("a-b");
        assertThat(githubSlug("A - B")).isEqualTo("a---b");
    }

    private static String check(Path root, Path page, String target) throws IOException {
        if (target.startsWith("mailto:")) {
            return null;
        }
        String path = target;
        String anchor = null;
        int hash = target.indexOf('#');
        if (hash >= 0) {
            path = target.substring(0, hash);
            anchor = target.substring(hash + 1);
        }
        Path file;
        if (path.startsWith("http://") || path.startsWith("https://")) {
            if (!path.startsWith(REPO)) {
                return null;   // another site: not checked here
            }
            Matcher m = Pattern.compile("(blob|tree)/main/(.*)").matcher(path.substring(REPO.length()));
            if (!m.matches()) {
                return null;   // the repository's other pages (issues, releases)
            }
            file = root.resolve(m.group(2));
        } else if (path.isEmpty()) {
            file = page;
        } else {
            file = page.getParent().resolve(path).normalize();
            Path docs = root.resolve("docs");
            if (page.startsWith(docs) && !file.startsWith(docs)) {
                return "a page under docs/ links outside docs/ (mkdocs --strict rejects it): use " + REPO + "blob/main/...";
            }
        }
        if (!Files.exists(file)) {
            return "no such file " + root.relativize(file);
        }
        if (anchor == null || anchor.isEmpty()) {
            return null;
        }
        if (!file.toString().endsWith(".md")) {
            return "an anchor into a file that is not Markdown";
        }
        Map<String, String> anchors = anchors(file);
        if (!anchors.containsKey(anchor)) {
            return "no heading with anchor #" + anchor + " in " + root.relativize(file);
        }
        String github = anchors.get(anchor);
        if (!github.equals(anchor)) {
            return "the heading's anchor is #" + anchor + " on the site but #" + github + " on GitHub: reword the heading";
        }
        return null;
    }

    /** MkDocs anchor -> GitHub anchor of every heading of a page. */
    static Map<String, String> anchors(Path file) throws IOException {
        Map<String, String> anchors = new HashMap<>();
        Set<String> seenMkdocs = new LinkedHashSet<>();
        Map<String, Integer> seenGithub = new HashMap<>();
        boolean fenced = false;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.trim().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            Matcher m = HEADING.matcher(line);
            if (fenced || !m.matches()) {
                continue;
            }
            String text = m.group(2);
            String mk = mkdocsSlug(text);
            String unique = mk;
            for (int n = 1; seenMkdocs.contains(unique); n++) {
                unique = mk + "_" + n;
            }
            seenMkdocs.add(unique);
            String gh = githubSlug(text);
            int count = seenGithub.merge(gh, 1, Integer::sum);
            anchors.put(unique, count == 1 ? gh : gh + "-" + (count - 1));
        }
        return anchors;
    }

    /** The heading as rendered text: code spans, links and emphasis reduced to their text. */
    private static String plain(String heading) {
        return heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replace("`", "").replaceAll("(\\*\\*|\\*)", "");
    }

    /** Python-Markdown's toc slugify (MkDocs 1.4): ASCII only, drop what is not a word, space or hyphen, collapse runs. */
    static String mkdocsSlug(String heading) {
        String ascii = Normalizer.normalize(plain(heading), Normalizer.Form.NFKD).replaceAll("[^\\p{ASCII}]", "");
        String value = ascii.replaceAll("[^\\w\\s-]", "").strip().toLowerCase(Locale.ROOT);
        return value.replaceAll("[-\\s]+", "-");
    }

    /** GitHub's anchors: lower case, drop punctuation but hyphens, each space a hyphen (no collapsing). */
    static String githubSlug(String heading) {
        String value = plain(heading).strip().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}_\\- ]", "");
        return value.replace(' ', '-');
    }

    private static String withoutInlineCode(String line) {
        return line.replaceAll("`[^`]*`", "``");
    }
}
