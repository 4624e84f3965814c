package io.bullpen.dashboard;

import static io.bullpen.dashboard.Dashboards.start;
import static io.bullpen.dashboard.Http.get;
import static io.bullpen.dashboard.Http.raw;
import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.dashboard.Http.Reply;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The page's files: served with their content types; nothing outside their folder, ever. */
@BullpenTest
class StaticFilesTest {
    @TempDir
    Path dir;

    /** A dashboard serving {@code dir/web/} (index.html, app.js, app.css, logo.svg, notes.xyz, sub/inner.js); {@code dir/secret.txt} lies outside. */
    private Dashboard dashboard(BullpenTestContext ctx) throws IOException {
        Path web = Files.createDirectories(dir.resolve("web"));
        Files.writeString(web.resolve("index.html"), "<!doctype html><title>Bullpen</title>");
        Files.writeString(web.resolve("app.js"), "console.log('hi');");
        Files.writeString(web.resolve("app.css"), "body { color: black; }");
        Files.writeString(web.resolve("logo.svg"), "<svg xmlns=\"http://www.w3.org/2000/svg\"/>");
        Files.writeString(web.resolve("notes.xyz"), "unknown type");
        Files.writeString(Files.createDirectories(web.resolve("sub")).resolve("inner.js"), "NESTED-CONTENT");
        Files.writeString(dir.resolve("secret.txt"), "TOP-SECRET-CONTENT");
        ClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, null);
        return start(Dashboard.builder(ctx.redisson()).staticFiles(new StaticFiles(loader, "web/")));
    }

    @Test
    void servesThePageWithContentTypesAndSecurityHeaders(BullpenTestContext ctx) throws IOException {
        try (Dashboard d = dashboard(ctx)) {
            Reply index = get(d, "/");
            assertThat(index.status()).isEqualTo(200);
            assertThat(index.body()).isEqualTo("<!doctype html><title>Bullpen</title>");
            assertThat(index.header("Content-Type")).isEqualTo("text/html; charset=utf-8");
            assertThat(index.header("Content-Security-Policy")).isEqualTo(Responses.CSP);
            assertThat(index.header("X-Frame-Options")).isEqualTo("DENY");
            assertThat(index.header("Referrer-Policy")).isEqualTo("no-referrer");
            assertThat(index.header("X-Content-Type-Options")).isEqualTo("nosniff");

            assertThat(get(d, "/index.html").body()).isEqualTo(index.body());
            assertThat(get(d, "/app.js").header("Content-Type")).isEqualTo("text/javascript; charset=utf-8");
            assertThat(get(d, "/app.js").body()).isEqualTo("console.log('hi');");
            assertThat(get(d, "/app.css").header("Content-Type")).isEqualTo("text/css; charset=utf-8");
            assertThat(get(d, "/logo.svg").header("Content-Type")).isEqualTo("image/svg+xml");
            assertThat(get(d, "/app.js?v=2").status()).isEqualTo(200);
        }
    }

    /** Module scripts are refused by the browser unless served as JavaScript; each carries the same CSP. */
    @Test
    void servesEveryScriptOfTheRealPageAsJavaScriptWithTheSecurityHeaders(BullpenTestContext ctx) throws Exception {
        Path real = Path.of(StaticFiles.class.getClassLoader().getResource(StaticFiles.ROOT).toURI());
        List<String> scripts;
        try (Stream<Path> files = Files.list(real)) {
            scripts = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".js")).sorted().toList();
        }
        assertThat(scripts).contains("app.js", "dom.js", "api.js", "router.js", "page-overview.js", "page-queue.js", "page-job.js");
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()))) {
            for (String name : scripts) {
                Reply r = get(d, "/" + name);
                assertThat(r.status()).as(name).isEqualTo(200);
                assertThat(r.header("Content-Type")).as(name).isEqualTo("text/javascript; charset=utf-8");
                assertThat(r.header("Content-Security-Policy")).as(name).isEqualTo(Responses.CSP);
                assertThat(r.header("X-Content-Type-Options")).as(name).isEqualTo("nosniff");
                assertThat(r.body()).as(name).isEqualTo(Files.readString(real.resolve(name)));
            }
        }
    }

    /** ("//secret.txt" parses as an authority and an empty path: the JDK server itself answers 404.) */
    @ParameterizedTest
    @ValueSource(strings = {"/missing.js", "/notes.xyz", "/sub/inner.js", "/web/app.js", "/.htaccess", "/app.js/",
            "/../secret.txt", "/%2e%2e/secret.txt", "/%2e%2e%2fsecret.txt", "/..%2fsecret.txt", "/..%5csecret.txt",
            "/%2E%2E/", "/..", "/%2e%2e", "/./app.js", "/sub%2finner.js", "/app.js%00.css", "//secret.txt"})
    void anythingElseIs404(String path, BullpenTestContext ctx) throws IOException {
        try (Dashboard d = dashboard(ctx)) {
            Reply r = raw(d, "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1");
            assertThat(r.status()).as(path).isEqualTo(404);
            assertThat(r.body()).doesNotContain("TOP-SECRET-CONTENT", "NESTED-CONTENT", "unknown type");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"/../pom.xml", "/%2e%2e/", "/%2e%2e%2fDashboard.class", "/%2e%2e%2f%2e%2e%2fdashboard%2fDashboard.class",
            "/..%2f..%2f..%2f..%2fMETA-INF%2fMANIFEST.MF"})
    void theRealClasspathCannotBeReadOutsideTheStaticFolder(String path, BullpenTestContext ctx) {
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()))) {
            Reply r = raw(d, "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1");
            assertThat(r.status()).as(path).isEqualTo(404);
        }
    }
}
