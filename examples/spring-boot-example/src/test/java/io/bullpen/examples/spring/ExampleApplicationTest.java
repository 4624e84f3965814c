package io.bullpen.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.TestRedis;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.TestExecutionListener;
import org.springframework.test.context.TestExecutionListeners;

/**
 * The example application on a real Redis (the harness's: {@code REDIS_URL}, else a
 * {@code redis-server} it starts), over HTTP on a random port: jobs run through the annotated
 * method, Actuator shows the {@code bullpen} health and meters, and closing the context hands a
 * running job back at once. The tests share one context, in name order; the last one closes it.
 */
@BullpenTest
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "example.sample-orders=0", "example.pack-millis-per-item=50", "bullpen.prefix=" + ExampleApplicationTest.PREFIX,
        "bullpen.dashboard.port=0", "bullpen.worker.shutdown-timeout=1s"})
@DirtiesContext
@TestMethodOrder(MethodOrderer.MethodName.class)
@TestExecutionListeners(listeners = ExampleApplicationTest.CurrentTestContext.class,
        mergeMode = TestExecutionListeners.MergeMode.MERGE_WITH_DEFAULTS)
class ExampleApplicationTest {
    static final String PREFIX = "bp-example-test";
    private static volatile String redisUrl;

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    int port;
    @Autowired
    Queue<Order> orders;
    @Autowired
    ConfigurableApplicationContext context;

    @BeforeAll
    static void redis(TestRedis redis) {
        redis.assumeNotCluster("spring.data.redis.url names one server");
        redisUrl = redis.uri();
    }

    @DynamicPropertySource
    static void redisProperties(DynamicPropertyRegistry registry) {
        // Read when the context starts, after @BeforeAll has the harness's server.
        registry.add("spring.data.redis.url", () -> redisUrl);
    }

    @Test
    void a_anOrderPostedOverHttpIsPackedByTheWorkerMethod() throws Exception {
        HttpResponse<String> placed = send(HttpRequest.newBuilder(uri("/orders"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"id\":\"o-1\",\"items\":2}")));
        assertThat(placed.statusCode()).isEqualTo(202);
        String jobId = placed.body().replaceAll(".*\"jobId\":\"([^\"]+)\".*", "$1");

        await().atMost(Duration.ofSeconds(15)).until(() -> orders.getState(jobId) == JobState.COMPLETED);
        HttpResponse<String> read = send(HttpRequest.newBuilder(uri("/orders/" + jobId)));
        assertThat(read.body()).contains("\"state\":\"completed\"", "\"progress\":100", "\"result\":\"packed o-1\"");
    }

    @Test
    void b_healthIsUpWithTheBullpenComponent() throws Exception {
        HttpResponse<String> health = send(HttpRequest.newBuilder(uri("/actuator/health")));
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).startsWith("{\"status\":\"UP\"").contains("\"bullpen\":{\"status\":\"UP\"");
    }

    @Test
    void c_theQueueGaugesAreInActuatorsMetrics() throws Exception {
        HttpResponse<String> jobs = send(HttpRequest.newBuilder(uri("/actuator/metrics/bullpen.queue.jobs?tag=queue:orders")));
        assertThat(jobs.statusCode()).isEqualTo(200);
        assertThat(jobs.body()).contains("\"name\":\"bullpen.queue.jobs\"", "\"measurements\":[{\"statistic\":\"VALUE\"",
                "\"tag\":\"state\"");
    }

    @Test
    void d_closingTheContextHandsARunningJobBackAtOnce(BullpenTestContext ctx) {
        String jobId = orders.add("pack", new Order("big", 10_000)).id();   // 500 s of packing
        await().atMost(Duration.ofSeconds(15)).until(() -> orders.getState(jobId) == JobState.ACTIVE);

        // Closes the application context (the shutdown a SIGTERM starts) and drops it from Spring's
        // test cache, so the test framework does not use it afterwards.
        CurrentTestContext.get().markApplicationContextDirty(null);
        assertThat(context.isActive()).isFalse();

        // Back in wait now (read over the harness's client: the application's is shut down), not
        // left active until its lock expires and stall recovery finds it.
        Queue<Order> after = Queue.builder(ctx.redisson(), "orders", Order.class).prefix(PREFIX).build();
        assertThat(after.getState(jobId)).isEqualTo(JobState.WAITING);
        assertThat(after.getJob(jobId).orElseThrow().stalledCount()).isZero();
        ctx.assertInvariant(PREFIX, "orders");
    }

    /** Hands the test its Spring {@link TestContext}, to close the application context the framework's way. */
    static final class CurrentTestContext implements TestExecutionListener {
        private static final ThreadLocal<TestContext> CURRENT = new ThreadLocal<>();

        static TestContext get() {
            return CURRENT.get();
        }

        @Override
        public void beforeTestMethod(TestContext testContext) {
            CURRENT.set(testContext);
        }

        @Override
        public void afterTestMethod(TestContext testContext) {
            CURRENT.remove();
        }
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
