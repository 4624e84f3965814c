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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

@BullpenTest
class DemoMainTest {

    @Test
    void runsEveryExampleForTheDurationThenClosesAllWorkers(BullpenTestContext ctx) {
        DemoMain demo = new DemoMain(Duration.ofSeconds(1));
        try (LogCapture demoLog = LogCapture.of(DemoMain.class);
             LogCapture commandLog = LogCapture.of(ExampleRunner.class)) {
            long start = System.nanoTime();

            int status = ExampleRunner.run("bullpen-demo", demo, "--redis", ctx.redis().uri(), "--duration", "3", "--port", "0");

            assertThat(status).isZero();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
            assertThat(demo.workers()).hasSize(5).noneMatch(Worker::isRunning);
            assertThat(commandLog.messages()).contains("Redis: " + ctx.redis().uri() + " (given with --redis)");
            assertThat(commandLog.messages()).anyMatch(m -> m.startsWith("Dashboard: http://127.0.0.1:")
                    && m.contains("token for actions"));
            assertThat(demoLog.messages()).anyMatch(m -> m.startsWith(CancelUnpaidOrderExample.QUEUE) && m.contains("delayed"));
        }
        // Something real happened on each queue: orders wait to be cancelled, notifications were
        // tried, the first batch of tasks ran.
        JobCounts orders = counts(ctx, CancelUnpaidOrderExample.QUEUE);
        JobCounts notifications = counts(ctx, NotificationRetryExample.QUEUE);
        JobCounts tasks = counts(ctx, PriorityExample.QUEUE);
        // The heartbeat scheduler runs at once, then every 10 s.
        assertThat(counts(ctx, NightlyReportExample.QUEUE).completed()).isPositive();
        assertThat(orders.delayed()).isPositive();
        assertThat(notifications.completed() + notifications.delayed() + notifications.failed()).isPositive();
        assertThat(tasks.completed()).isPositive();
        assertThat(orders.active() + notifications.active() + tasks.active()).isZero();
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
            assertThat(out.lines().filter(l -> l.contains("worker ") && l.endsWith(" closed"))).as(out).hasSize(5);
        } finally {
            process.destroyForcibly();
        }
    }

    /** The demo's own client is shut down by now: read through the test's. */
    private static JobCounts counts(BullpenTestContext ctx, String queue) {
        return Queue.builder(ctx.redisson(), queue, Object.class).build().getJobCounts();
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
