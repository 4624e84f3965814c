package io.bullpen.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.JobCounts;
import io.bullpen.Queue;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.worker.Worker;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

@BullpenTest
class DemoMainTest {

    @Test
    void runsEveryExampleForTheDurationThenClosesAllWorkers(BullpenTestContext ctx) {
        DemoMain demo = new DemoMain(Duration.ofSeconds(1));
        Map<String, JobCounts> lastCounts;
        try (LogCapture demoLog = LogCapture.of(DemoMain.class);
             LogCapture commandLog = LogCapture.of(ExampleRunner.class)) {
            long start = System.nanoTime();

            int status = ExampleRunner.run("bullpen-demo", demo, "--redis", ctx.redis().uri(), "--duration", "3", "--port", "0");

            assertThat(status).isZero();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
            assertThat(demo.workers()).hasSize(8).noneMatch(Worker::isRunning);
            assertThat(commandLog.messages()).contains("Redis: " + ctx.redis().uri() + " (given with --redis)");
            assertThat(commandLog.messages()).anyMatch(m -> m.startsWith("Dashboard: http://127.0.0.1:")
                    && m.contains("token for actions"));
            assertThat(demoLog.messages()).anyMatch(m -> m.startsWith(CancelUnpaidOrderExample.QUEUE) && m.contains("delayed"));
            lastCounts = lastCounts(demoLog.messages());
        }
        // Something real happened on each queue (as its last counts line tells): orders wait to be
        // cancelled, notifications were tried, the first batch of tasks ran, the heartbeat
        // scheduler ran at once, and reports were added.
        JobCounts orders = lastCounts.get(CancelUnpaidOrderExample.QUEUE);
        JobCounts notifications = lastCounts.get(NotificationRetryExample.QUEUE);
        JobCounts tasks = lastCounts.get(PriorityExample.QUEUE);
        assertThat(lastCounts.get(NightlyReportExample.QUEUE).completed()).isPositive();
        assertThat(orders.delayed()).isPositive();
        assertThat(notifications.completed() + notifications.delayed() + notifications.failed()).isPositive();
        assertThat(tasks.completed()).isPositive();
        assertThat(lastCounts.get(QueueEventsExample.QUEUE).total()).isPositive();
        assertThat(lastCounts.get(RateLimitedApiExample.QUEUE).total()).isPositive();
        assertThat(lastCounts.get(MultiTenantExportExample.QUEUE).total()).isPositive();
    }

    @Test
    void everyExampleHasAQueueOfItsOwnSoNoWorkerTakesAnotherExamplesJobs(BullpenTestContext ctx) {
        DemoMain demo = new DemoMain(Duration.ofSeconds(1));
        try (LogCapture all = LogCapture.of("io.bullpen")) {
            int status = ExampleRunner.run("bullpen-demo", demo, "--redis", ctx.redis().uri(), "--duration", "4", "--port", "0");

            assertThat(status).isZero();
            assertThat(demo.queues()).extracting(Queue::name).containsExactlyInAnyOrder(
                    CancelUnpaidOrderExample.QUEUE, NotificationRetryExample.QUEUE, PriorityExample.QUEUE,
                    NightlyReportExample.QUEUE, QueueEventsExample.QUEUE, RateLimitedApiExample.QUEUE,
                    MultiTenantExportExample.QUEUE);
            // A worker given another example's job sees its fields as null ("ran null", "report
            // null done") or fails on them.
            assertThat(all.messages()).isNotEmpty().noneMatch(m -> m.contains("null"));
            // The generated token is long enough for the dashboard's own check.
            assertThat(all.messages()).noneMatch(m -> m.contains("token is only"));
        }
    }

    @Test
    void onARedisGivenWithDashDashRedisTheDemoRemovesItsQueuesWhenItStops(BullpenTestContext ctx) {
        int status = ExampleRunner.run("bullpen-demo", new DemoMain(Duration.ofSeconds(1)),
                "--redis", ctx.redis().uri(), "--duration", "2", "--port", "0");

        assertThat(status).isZero();
        assertThat(ctx.redisson().getKeys().getKeysByPattern("bp:{demo-*")).isEmpty();
        assertThat(Queue.listQueues(ctx.redisson())).noneMatch(name -> name.startsWith("demo-"));
    }

    @Test
    void theGeneratedDashboardTokenIs32UrlSafeCharacters() {
        String token = ExampleRunner.randomToken();

        assertThat(token).hasSize(32).matches("[A-Za-z0-9_-]+");
        assertThat(ExampleRunner.randomToken()).isNotEqualTo(token);
    }

    @Test
    void theDemoProcessExitsZeroAtTheEndOfDuration(BullpenTestContext ctx) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                DemoMain.class.getName(), "--redis", ctx.redis().uri(), "--duration", "2")
                .redirectErrorStream(true)
                .start();
        CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> readAll(process.getInputStream()));
        try {
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("the demo exited").isTrue();
            String out = output.get(5, TimeUnit.SECONDS);
            assertThat(process.exitValue()).as(out).isZero();
            assertThat(out).contains("running for 2s", "stopped");
            assertThat(out.lines().filter(l -> l.contains("worker ") && l.endsWith(" closed"))).as(out).hasSize(8);
        } finally {
            process.destroyForcibly();
        }
    }

    private static final Pattern COUNTS = Pattern.compile(
            "(\\S+)\\s+waiting\\s+(\\d+)\\s+prioritized\\s+(\\d+)\\s+delayed\\s+(\\d+)\\s+active\\s+(\\d+)"
                    + "\\s+completed\\s+(\\d+)\\s+failed\\s+(\\d+).*");

    /** The demo removed its queues on exit: read what its last counts line of each queue said. */
    private static Map<String, JobCounts> lastCounts(List<String> demoLog) {
        Map<String, JobCounts> last = new HashMap<>();
        for (String line : demoLog) {
            Matcher m = COUNTS.matcher(line);
            if (m.matches()) {
                last.put(m.group(1), new JobCounts(n(m, 2), n(m, 5), n(m, 4), n(m, 3), n(m, 6), n(m, 7),
                        line.endsWith("(paused)")));
            }
        }
        return last;
    }

    private static long n(Matcher m, int group) {
        return Long.parseLong(m.group(group));
    }

    private static String readAll(InputStream in) {
        try (in) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
