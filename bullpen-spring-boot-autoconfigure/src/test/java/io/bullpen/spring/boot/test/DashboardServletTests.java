package io.bullpen.spring.boot.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.bullpen.Queue;
import io.bullpen.dashboard.Dashboard;
import io.bullpen.dashboard.DashboardHandler;
import io.bullpen.spring.boot.test.app.DemoApplication;
import io.bullpen.spring.boot.test.app.DemoApplication.Report;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.ResolvableType;

/**
 * {@code bullpen.dashboard.path}: the dashboard under the application's servlet web server (a
 * real Tomcat on a free port), on the main server and on the management server's own port; its
 * reads need the token unless bullpen.dashboard.public-read (Spring Security: see
 * DashboardSecurityTest in the auto-configuration module). Each starter whose Boot line brings a
 * servlet server subclasses it.
 */
@BullpenTest
public abstract class DashboardServletTests {
    private static final String TOKEN = "a-long-enough-test-token";
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void onTheMainServerThePageTheApiActionsAndEventsWork(BullpenTestContext ctx) throws Exception {
        ctx.redis().assumeNotCluster("spring.data.redis.host/port name one server");
        try (ConfigurableApplicationContext app = start(ctx)) {
            assertThat(app.getBeanProvider(Dashboard.class).getIfAvailable()).as("no dashboard on its own port").isNull();
            assertThat(app.getBean(DashboardHandler.class)).isNotNull();
            String base = "http://localhost:" + app.getEnvironment().getProperty("local.server.port") + "/bullpen";

            HttpResponse<String> bare = http.send(get(base).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(bare.statusCode()).isEqualTo(302);
            assertThat(bare.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).endsWith("/bullpen/"));

            HttpResponse<String> page = http.send(get(base + "/").build(), HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
            assertThat(page.headers().firstValue("Content-Security-Policy")).isPresent();
            assertThat(page.body()).contains("src=\"app.js\"");
            assertThat(http.send(get(base + "/app.js").build(), HttpResponse.BodyHandlers.ofString()).statusCode())
                    .isEqualTo(200);

            // Reads need the token too: the page loads without it and asks for it.
            HttpResponse<String> anonymous = http.send(get(base + "/api/queues").build(), HttpResponse.BodyHandlers.ofString());
            assertThat(anonymous.statusCode()).isEqualTo(401);
            assertThat(anonymous.body()).contains("X-Bullpen-Token").doesNotContain("reports");
            assertThat(http.send(get(base + "/api/queues").header("X-Bullpen-Token", "wrong").build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(401);
            assertThat(http.send(get(base + "/api/events").build(), HttpResponse.BodyHandlers.ofString()).statusCode())
                    .isEqualTo(401);
            HttpResponse<String> queues = http.send(read(base + "/api/queues").build(), HttpResponse.BodyHandlers.ofString());
            assertThat(queues.statusCode()).isEqualTo(200);
            assertThat(queues.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
            assertThat(queues.body()).contains("\"name\":\"reports\"");

            @SuppressWarnings("unchecked")
            Queue<Report> reports = (Queue<Report>) app.getBeanProvider(
                    ResolvableType.forClassWithGenerics(Queue.class, Report.class)).getObject();
            HttpResponse<String> refused = http.send(post(base + "/api/queues/reports/pause").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).isEqualTo(401);
            assertThat(refused.body()).contains("X-Bullpen-Token");
            assertThat(http.send(post(base + "/api/queues/reports/pause").header("X-Bullpen-Token", "wrong").build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(401);
            assertThat(reports.isPaused()).isFalse();
            HttpResponse<String> paused = http.send(post(base + "/api/queues/reports/pause")
                    .header("X-Bullpen-Token", TOKEN).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(paused.statusCode()).isEqualTo(200);
            assertThat(paused.body()).isEqualTo("{\"ok\":true}");
            assertThat(reports.isPaused()).isTrue();

            // The event stream outlives the servlet call (async): its first frame carries the counts.
            HttpResponse<InputStream> events = http.send(read(base + "/api/events").build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            assertThat(events.statusCode()).isEqualTo(200);
            assertThat(events.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(events.body(), StandardCharsets.UTF_8))) {
                assertThat(lines.readLine()).isEqualTo("event: counts");
                assertThat(lines.readLine()).startsWith("data: ").contains("\"reports\"");
            }
        }
    }

    @Test
    void readOnlyHasNoActionRoutes(BullpenTestContext ctx) throws Exception {
        ctx.redis().assumeNotCluster("spring.data.redis.host/port name one server");
        try (ConfigurableApplicationContext app = start(ctx, "bullpen.dashboard.read-only=true")) {
            String base = "http://localhost:" + app.getEnvironment().getProperty("local.server.port") + "/bullpen";
            assertThat(http.send(post(base + "/api/queues/reports/pause").header("X-Bullpen-Token", TOKEN).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);
        }
    }

    @Test
    void withTheManagementServerOnItsOwnPortTheDashboardIsServedThere(BullpenTestContext ctx) throws Exception {
        ctx.redis().assumeNotCluster("spring.data.redis.host/port name one server");
        try (ConfigurableApplicationContext app = start(ctx, "management.server.port=0")) {
            String management = "http://localhost:" + app.getEnvironment().getProperty("local.management.port") + "/bullpen";
            String main = "http://localhost:" + app.getEnvironment().getProperty("local.server.port") + "/bullpen";
            assertThat(http.send(get(management + "/api/queues").build(), HttpResponse.BodyHandlers.ofString()).statusCode())
                    .isEqualTo(401);
            HttpResponse<String> queues = http.send(read(management + "/api/queues").build(), HttpResponse.BodyHandlers.ofString());
            assertThat(queues.statusCode()).isEqualTo(200);
            assertThat(queues.body()).contains("\"name\":\"reports\"");
            assertThat(http.send(get(management + "/").build(), HttpResponse.BodyHandlers.ofString()).body())
                    .contains("src=\"app.js\"");
            assertThat(http.send(post(management + "/api/queues/reports/pause").build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(401);
            assertThat(http.send(post(management + "/api/queues/reports/resume").header("X-Bullpen-Token", TOKEN).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
            assertThat(http.send(read(main + "/api/queues").build(), HttpResponse.BodyHandlers.ofString()).statusCode())
                    .as("not on the main server").isEqualTo(404);
        }
    }

    @Test
    void withoutATokenEveryReadIsRefusedNamingTheWaysToOpenItAndAWarnSaysSo(BullpenTestContext ctx) throws Exception {
        ctx.redis().assumeNotCluster("spring.data.redis.host/port name one server");
        List<String> warnings = new ArrayList<>();
        try (ConfigurableApplicationContext app = start(ctx, warnings, "bullpen.dashboard.token=")) {
            String base = "http://localhost:" + app.getEnvironment().getProperty("local.server.port") + "/bullpen";
            HttpResponse<String> refused = http.send(get(base + "/api/queues").build(), HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).isEqualTo(401);
            assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
            assertThat(refused.body()).startsWith("{\"error\":").contains("bullpen.dashboard.token", "SecurityFilterChain",
                    "bullpen.dashboard.public-read=true").doesNotContain("reports");
            assertThat(http.send(read(base + "/api/queues/reports/jobs?state=waiting").build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(401);
            assertThat(http.send(get(base + "/").build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
            synchronized (warnings) {
                assertThat(warnings).anySatisfy(w -> assertThat(w).contains("401", "bullpen.dashboard.public-read"));
            }
        }
    }

    @Test
    void publicReadOpensTheReadsButNotTheActions(BullpenTestContext ctx) throws Exception {
        ctx.redis().assumeNotCluster("spring.data.redis.host/port name one server");
        try (ConfigurableApplicationContext app = start(ctx, "bullpen.dashboard.public-read=true")) {
            String base = "http://localhost:" + app.getEnvironment().getProperty("local.server.port") + "/bullpen";
            HttpResponse<String> queues = http.send(get(base + "/api/queues").build(), HttpResponse.BodyHandlers.ofString());
            assertThat(queues.statusCode()).isEqualTo(200);
            assertThat(queues.body()).contains("\"name\":\"reports\"");
            assertThat(http.send(post(base + "/api/queues/reports/pause").build(), HttpResponse.BodyHandlers.ofString())
                    .statusCode()).isEqualTo(401);
        }
    }

    @Test
    void aPathThatIsNotPlainSegmentsFailsTheContextNamingTheProperty(BullpenTestContext ctx) {
        ctx.redis().assumeNotCluster("spring.data.redis.host/port name one server");
        assertThatThrownBy(() -> start(ctx, "bullpen.dashboard.path=/bull pen").close())
                .rootCause().hasMessageContaining("bullpen.dashboard.path").hasMessageContaining("/bull pen");
    }

    private static HttpRequest.Builder get(String url) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET();
    }

    /** A read with the token in its header. */
    private static HttpRequest.Builder read(String url) {
        return get(url).header("X-Bullpen-Token", TOKEN);
    }

    private static HttpRequest.Builder post(String url) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.noBody());
    }

    private ConfigurableApplicationContext start(BullpenTestContext ctx, String... more) {
        return start(ctx, new ArrayList<>(), more);
    }

    /** Starts the demo application; the WARN lines of the dashboard's read access go to {@code warnings}. */
    private ConfigurableApplicationContext start(BullpenTestContext ctx, List<String> warnings, String... more) {
        // Attached once the application's logging system is set up (it resets the appenders).
        ApplicationListener<ApplicationPreparedEvent> capture = event -> {
            Logger logger = (Logger) LoggerFactory.getLogger(
                    "io.bullpen.spring.boot.autoconfigure.dashboard.DashboardReadAccess");
            AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
                @Override
                protected void append(ILoggingEvent e) {
                    if (e.getLevel() == Level.WARN) {
                        synchronized (warnings) {
                            warnings.add(e.getFormattedMessage());
                        }
                    }
                }
            };
            appender.start();
            logger.addAppender(appender);
        };
        return new SpringApplicationBuilder(DemoApplication.class)
                .web(WebApplicationType.SERVLET)
                .listeners(capture)
                .properties("spring.data.redis.host=" + ctx.redis().host(), "spring.data.redis.port=" + ctx.redis().port(),
                        "server.port=0", "bullpen.dashboard.enabled=true", "bullpen.dashboard.path=/bullpen",
                        "bullpen.dashboard.token=" + TOKEN)
                .properties(more)
                .run();
    }
}
