package io.bullpen.dashboard;

import static io.bullpen.dashboard.ApiReadTest.assertError;
import static io.bullpen.dashboard.Dashboards.start;
import static io.bullpen.dashboard.Http.TOKEN;
import static io.bullpen.dashboard.Http.get;
import static io.bullpen.dashboard.Http.post;
import static io.bullpen.dashboard.Http.raw;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.bullpen.Queue;
import io.bullpen.dashboard.Http.Reply;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.net.http.HttpRequest;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Loopback by default, hostile job content, headers, Host checks, body limits. */
@BullpenTest
class SecurityTest {
    static final String SCRIPT = "<script>alert(1)</script>";
    static final String IMG = "\"><img src=x onerror=alert(1)>";

    record Payload(String note, String html) {
    }

    @Test
    void listensOnLoopbackOnlyByDefault(BullpenTestContext ctx) throws IOException {
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()))) {
            assertThat(d.url()).matches("http://127\\.0\\.0\\.1:\\d+/");
            InetSocketAddress bound = d.address();
            assertThat(bound.getAddress().isLoopbackAddress()).isTrue();
            assertThat(get(d, "/api/config").status()).isEqualTo(200);
            for (InetAddress other : nonLoopbackAddresses()) {
                assertThatThrownBy(() -> new Socket(other, bound.getPort()).close())
                        .as("connect via " + other).isInstanceOf(ConnectException.class);
            }
        }
    }

    @Test
    void withTokenForReadsEveryApiReadNeedsTheTokenInItsHeaderAndThePageItselfDoesNot(BullpenTestContext ctx) {
        String name = ctx.queueName();
        Queue<Payload> q = Queue.builder(ctx.redisson(), name, Payload.class).build();
        String id = q.add("secret", new Payload(SCRIPT, IMG)).id();
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()).token(TOKEN).tokenForReads(true))) {
            for (String path : List.of("/api/config", "/api/queues", "/api/queues/" + name, "/api/queues/" + name
                    + "/jobs?state=waiting", "/api/queues/" + name + "/search?state=waiting&name=secret",
                    "/api/queues/" + name + "/jobs/" + id, "/api/queues/" + name + "/jobs/" + id
                    + "/children", "/api/queues/" + name + "/limits",
                    "/api/queues/" + name + "/groups", "/api/queues/" + name + "/workers", "/api/limits", "/api/events")) {
                assertError(get(d, path), 401, "missing X-Bullpen-Token header");
                assertError(read(d, path, "wrong"), 401, "wrong token");
                assertThat(read(d, path + (path.contains("?") ? "&" : "?") + "token=" + TOKEN, null).status())
                        .as("a token in the URL is not read").isEqualTo(401);
            }
            Reply job = read(d, "/api/queues/" + name + "/jobs/" + id, TOKEN);
            assertThat(job.status()).isEqualTo(200);
            assertThat(job.json().get("name").asText()).isEqualTo("secret");
            assertThat(read(d, "/api/queues", TOKEN).body()).contains(name);
            // The page and its scripts load without it: the page asks for the token.
            assertThat(get(d, "/").status()).isEqualTo(200);
            assertThat(get(d, "/app.js").status()).isEqualTo(200);
        }
    }

    @Test
    void withTokenForReadsAndNoTokenConfiguredEveryReadIsRefusedSayingWhy(BullpenTestContext ctx) {
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()).tokenForReads(true))) {
            assertError(get(d, "/api/queues"), 401, "none configured");
            assertError(read(d, "/api/queues", "anything"), 401, "none configured");
        }
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()).token(TOKEN).tokenForReads(false))) {
            assertThat(get(d, "/api/queues").status()).as("reads open by default on loopback").isEqualTo(200);
        }
    }

    private static Reply read(Dashboard d, String path, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(Http.uri(d, path)).GET();
        if (token != null) {
            b.header("X-Bullpen-Token", token);
        }
        if (path.startsWith("/api/events")) {
            // The stream never ends: a refused read is answered at once, an accepted one is not read here.
            b.timeout(java.time.Duration.ofSeconds(2));
        }
        return Http.send(b);
    }

    @Test
    void hostileJobContentComesBackAsEscapedJson(BullpenTestContext ctx) {
        String name = ctx.queueName();
        Queue<Payload> q = Queue.builder(ctx.redisson(), name, Payload.class).build();
        String id = q.add(SCRIPT + IMG, new Payload(SCRIPT, IMG)).id();
        TestJobs jobs = new TestJobs(ctx.redisson(), name);
        TestJobs.Taken taken = jobs.take();
        jobs.log(id, SCRIPT);
        jobs.progress(id, "\"" + IMG.replace("\"", "\\\"") + "\"");
        jobs.fail(taken, IMG + SCRIPT, SCRIPT);

        try (Dashboard d = start(Dashboard.builder(ctx.redisson()).queues(name))) {
            Reply list = get(d, "/api/queues/" + name + "/jobs?state=failed");
            Reply detail = get(d, "/api/queues/" + name + "/jobs/" + id);
            for (Reply r : List.of(list, detail)) {
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.header("Content-Type")).isEqualTo("application/json; charset=utf-8");
                assertThat(r.header("X-Content-Type-Options")).isEqualTo("nosniff");
                assertThat(r.body()).doesNotContain("<", ">", "&").contains("\\u003Cscript\\u003E");
            }
            JsonNode summary = list.json().get("jobs").get(0);
            assertThat(summary.get("name").asText()).isEqualTo(SCRIPT + IMG);
            assertThat(summary.get("failedReason").asText()).isEqualTo(IMG + SCRIPT);

            JsonNode job = detail.json();
            assertThat(job.get("name").asText()).isEqualTo(SCRIPT + IMG);
            assertThat(job.get("failedReason").asText()).isEqualTo(IMG + SCRIPT);
            assertThat(job.get("stacktrace").get(0).asText()).isEqualTo(SCRIPT);
            assertThat(job.get("logs").get(0).asText()).isEqualTo(SCRIPT);
            JsonNode data = Http.JSON.readTree(job.get("data").asText());
            assertThat(data.get("note").asText()).isEqualTo(SCRIPT);
            assertThat(data.get("html").asText()).isEqualTo(IMG);
            assertThat(Http.JSON.readTree(job.get("progress").asText()).asText()).isEqualTo(IMG);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void everyResponseCarriesTheSecurityHeaders(BullpenTestContext ctx) {
        String name = ctx.queueName();
        Queue.builder(ctx.redisson(), name, Payload.class).build().add("a", new Payload("n", "h"));
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()).token(TOKEN))) {
            List<Reply> replies = List.of(
                    get(d, "/api/config"),
                    get(d, "/api/queues"),
                    get(d, "/api/queues/" + name),
                    get(d, "/api/queues/" + name + "/jobs?state=bogus"),
                    get(d, "/api/nothing"),
                    get(d, "/"),
                    post(d, "/api/queues/" + name + "/pause", null),
                    post(d, "/api/queues/" + name + "/jobs/1/promote"),
                    raw(d, "GET /api/config HTTP/1.1\r\nHost: evil.example"));
            assertThat(replies).extracting(Reply::status).containsExactly(200, 200, 200, 400, 404,
                    replies.get(5).status(), 401, 409, 403);
            for (Reply r : replies) {
                assertThat(r.header("Content-Security-Policy")).isEqualTo(
                        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                                + "connect-src 'self'; frame-ancestors 'none'");
                assertThat(r.header("X-Content-Type-Options")).isEqualTo("nosniff");
                assertThat(r.header("X-Frame-Options")).isEqualTo("DENY");
                assertThat(r.header("Referrer-Policy")).isEqualTo("no-referrer");
                assertThat(r.header("Access-Control-Allow-Origin")).isNull();
            }
        }
    }

    @Test
    void onLoopbackOnlyLoopbackHostNamesAreAnswered(BullpenTestContext ctx) {
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()))) {
            for (String host : List.of("127.0.0.1", "127.0.0.1:9999", "localhost", "LOCALHOST:8080", "[::1]:8080",
                    "dash.localhost:1")) {
                assertThat(raw(d, "GET /api/config HTTP/1.1\r\nHost: " + host).status()).as(host).isEqualTo(200);
            }
            for (String host : List.of("evil.example", "evil.example:8080", "127.0.0.1.evil.example", "localhost.evil.example",
                    "10.0.0.1")) {
                assertError(raw(d, "GET /api/config HTTP/1.1\r\nHost: " + host), 403, "is not allowed");
            }
        }
    }

    @Test
    void onOtherAddressesEveryHostNameIsAnswered() throws IOException {
        AllowedHosts hosts = new AllowedHosts(InetAddress.getByName("0.0.0.0"));
        assertThat(hosts.test("dashboard.example.com")).isTrue();
        assertThat(new AllowedHosts(InetAddress.getByName("10.1.2.3")).test("10.1.2.3:8080")).isTrue();
        assertThat(new AllowedHosts(InetAddress.getByName("::1")).test("evil.example")).isFalse();
    }

    @Test
    void requestsWithALargeBodyAre413AndChangeNothing(BullpenTestContext ctx) {
        String name = ctx.queueName();
        Queue<Payload> q = Queue.builder(ctx.redisson(), name, Payload.class).build();
        q.add("a", new Payload("n", "h"));
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()).token(TOKEN))) {
            String big = "x".repeat(Router.MAX_BODY_BYTES + 1);
            HttpRequest.Builder sized = HttpRequest.newBuilder(Http.uri(d, "/api/queues/" + name + "/pause"))
                    .header("X-Bullpen-Token", TOKEN).POST(HttpRequest.BodyPublishers.ofString(big));
            assertError(Http.send(sized), 413, "request body too large");
            HttpRequest.Builder chunked = HttpRequest.newBuilder(Http.uri(d, "/api/queues/" + name + "/pause"))
                    .header("X-Bullpen-Token", TOKEN)
                    .POST(HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofString(big)));
            assertError(Http.send(chunked), 413, "request body too large");
            assertThat(q.isPaused()).isFalse();

            HttpRequest.Builder small = HttpRequest.newBuilder(Http.uri(d, "/api/queues/" + name + "/pause"))
                    .header("X-Bullpen-Token", TOKEN).POST(HttpRequest.BodyPublishers.ofString("{}"));
            assertThat(Http.send(small).status()).isEqualTo(200);
            assertThat(q.isPaused()).isTrue();
        }
    }

    private static List<InetAddress> nonLoopbackAddresses() throws SocketException {
        return Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
                .filter(ni -> {
                    try {
                        return ni.isUp() && !ni.isLoopback();
                    } catch (SocketException e) {
                        return false;
                    }
                })
                .flatMap(ni -> Collections.list(ni.getInetAddresses()).stream())
                .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress())
                .toList();
    }
}
