package io.bullpen.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.bullpen.examples.QueueEventsExample.Part;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

@BullpenTest
class QueueEventsExampleTest {

    @Test
    void theMonitorLogsEachReportsProgressAndResult(BullpenTestContext ctx) {
        try (LogCapture logs = LogCapture.of(QueueEventsExample.class);
             QueueEventsExample example = new QueueEventsExample(Part.ALL, Duration.ofMillis(300), Duration.ofMillis(20), 0)) {
            example.start(ctx.redisson());

            await().atMost(Duration.ofSeconds(10)).until(() -> example.seen("completed") >= 2);
            assertThat(logs.messages()).anyMatch(m -> m.matches("\\[monitor] report \\d+ at 100%"))
                    .anyMatch(m -> m.matches("\\[monitor] report \\d+ done: report-\\d+\\.pdf: Sales, week \\d+, \\d+ pages"));
            assertThat(example.seen("added")).isGreaterThanOrEqualTo(2);
            assertThat(example.seen("progress")).isGreaterThanOrEqualTo(8);
            example.close();
            assertThat(example.events().isRunning()).isFalse();
            assertThat(logs.messages()).anyMatch(m -> m.startsWith("[monitor] stopped; a monitor built with .lastEventId(\""));
        }
        ctx.assertInvariant(QueueEventsExample.QUEUE);
    }

    @Test
    void failedAttemptsShowAsRetryingThenFailed(BullpenTestContext ctx) {
        try (LogCapture logs = LogCapture.of(QueueEventsExample.class);
             QueueEventsExample example = new QueueEventsExample(Part.ALL, Duration.ofHours(1), Duration.ofMillis(5), 1)) {
            example.start(ctx.redisson());   // one report at once, failing every attempt

            await().atMost(Duration.ofSeconds(10)).until(() -> example.seen("failed") == 1);
            assertThat(example.seen("retrying")).isEqualTo(1);
            assertThat(logs.messages())
                    .anyMatch(m -> m.matches("\\[monitor] report \\d+ attempt 1 failed \\(the chart service timed out\\); retry in 1s"))
                    .anyMatch(m -> m.matches("\\[monitor] report \\d+ failed for good after 2 attempts: the chart service timed out"));
        }
    }

    /** The point of the example: the monitor in another JVM sees this one's jobs. */
    @Test
    void aMonitorProcessSeesTheJobsOfThisProcess(BullpenTestContext ctx) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process monitor = new ProcessBuilder(java.toString(), "-D" + QueueEventsExample.PART_PROPERTY + "=monitor",
                "-cp", System.getProperty("java.class.path"), QueueEventsExample.class.getName(),
                "--redis", ctx.redis().uri(), "--duration", "30")
                .redirectErrorStream(true)
                .start();
        List<String> output = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> reading = CompletableFuture.runAsync(() -> readLines(monitor, output));
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> output.stream().anyMatch(l -> l.contains("[monitor] listening")));
            try (QueueEventsExample jobs = new QueueEventsExample(Part.JOBS, Duration.ofMillis(300), Duration.ofMillis(20), 0)) {
                jobs.start(ctx.redisson());
                await().atMost(Duration.ofSeconds(15)).until(() -> output.stream().anyMatch(l -> l.contains("[monitor] report")
                        && l.contains(" done: report-")));
                assertThat(jobs.events()).as("no listener in the jobs process").isNull();
            }
            assertThat(output).anyMatch(l -> l.contains("[monitor] report") && l.contains(" at 50%"));
            // SIGTERM, and the runner closes the monitor; Process.destroy() would also close our end of its output.
            monitor.toHandle().destroy();
            assertThat(monitor.waitFor(15, TimeUnit.SECONDS)).as("the monitor exited").isTrue();
            reading.get(5, TimeUnit.SECONDS);
        } finally {
            monitor.destroyForcibly();
        }
        assertThat(output).as(String.join("\n", output)).anyMatch(l -> l.contains("[monitor] stopped; a monitor built with"));
    }

    @Test
    void thePartPropertyNamesABadValue() {
        assertThat(Part.parse(null)).isEqualTo(Part.ALL);
        assertThat(Part.parse("Monitor")).isEqualTo(Part.MONITOR);
        assertThatThrownBy(() -> Part.parse("both")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bullpen.example.part must be all, jobs or monitor but was \"both\"");
    }

    private static void readLines(Process process, List<String> into) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                into.add(line);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
