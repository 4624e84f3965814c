package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.internal.WireFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The failure log's rate limit, on a fake clock: 10 lines a second per worker, then one summary. */
class JobFailuresTest {
    private final long[] now = {5_000_000_000L};
    private final List<Runnable> timer = new ArrayList<>();
    private final List<Long> delays = new ArrayList<>();
    private final JobFailures failures = new JobFailures("orders", () -> now[0], (task, ms) -> {
        timer.add(task);
        delays.add(ms);
    });
    private LogCapture log;

    @BeforeEach
    void capture() {
        log = LogCapture.of("io.bullpen.worker.JobFailures");
    }

    @AfterEach
    void release() {
        log.close();
    }

    private static Job<String> job(String id, int attemptsMade, int attempts) {
        Job<String> job = WireFormat.job(id, Map.of("name", "charge", "data", "\"x\"", "timestamp", "1",
                "opts", "{\"attempts\":" + attempts + "}"), io.bullpen.internal.JsonCodec.type(String.class));
        return WireFormat.withAttemptsMade(job, attemptsMade);
    }

    @Test
    void atMostTenLinesASecondThenOneLineCountingTheRest() {
        for (int i = 0; i < 25; i++) {
            failures.attemptFailed(job("j" + i, 0, 3), new IllegalStateException("down"), false);
        }
        assertThat(log.events()).hasSize(10).allSatisfy(e -> assertThat(e.getLevel()).isEqualTo(Level.WARN));
        assertThat(delays).as("one summary scheduled, 10 s on").containsExactly(10_000L);

        now[0] += 999_000_000L;
        failures.attemptFailed(job("late", 0, 3), new IllegalStateException("down"), false);
        assertThat(log.events()).hasSize(10);

        now[0] += 1_000_000L;   // a second after the window opened: ten more
        for (int i = 0; i < 12; i++) {
            failures.attemptFailed(job("k" + i, 0, 3), new IllegalStateException("down"), false);
        }
        assertThat(log.events()).hasSize(20);
        assertThat(timer).as("still the one summary").hasSize(1);

        timer.get(0).run();
        ILoggingEvent summary = log.events().get(20);
        assertThat(summary.getFormattedMessage()).startsWith("queue orders: 18 failures not logged in the last 10 s");
        assertThat(summary.getLevel()).isEqualTo(Level.WARN);

        // Counting starts anew: the next flood schedules the next summary.
        now[0] += 10_000_000_000L;
        for (int i = 0; i < 11; i++) {
            failures.attemptFailed(job("m" + i, 2, 3), new IllegalStateException("down"), true);
        }
        assertThat(timer).hasSize(2);
        timer.get(1).run();
        ILoggingEvent second = log.events().get(log.events().size() - 1);
        assertThat(second.getFormattedMessage()).startsWith("queue orders: 1 failures not logged in the last 10 s");
        assertThat(second.getLevel()).as("a final failure among them").isEqualTo(Level.ERROR);
    }

    @Test
    void aSummaryWithNothingToCountSaysNothing() {
        failures.summary();
        assertThat(log.events()).isEmpty();
    }

    @Test
    void anErrorIsLoggedWithItsStackTraceEvenWhenRetried() {
        failures.attemptFailed(job("j", 0, 3), new OutOfMemoryError("Java heap space"), false);
        assertThat(log.events()).singleElement().satisfies(e -> {
            assertThat(e.getLevel()).isEqualTo(Level.ERROR);
            assertThat(e.getThrowableProxy()).isNotNull();
            assertThat(e.getFormattedMessage()).contains("attempt 1 of 3", "will be retried",
                    "short of memory", "java.lang.OutOfMemoryError: Java heap space");
        });
    }

    @Test
    void aLoggerTurnedDownCountsNothing() {
        ch.qos.logback.classic.Logger logger =
                (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("io.bullpen.worker.JobFailures");
        logger.setLevel(Level.ERROR);
        try {
            for (int i = 0; i < 30; i++) {
                failures.attemptFailed(job("j" + i, 0, 3), new IllegalStateException("down"), false);
            }
            failures.attemptFailed(job("last", 2, 3), new IllegalStateException("down"), true);
        } finally {
            logger.setLevel(null);
        }
        assertThat(log.events()).singleElement().satisfies(e -> assertThat(e.getLevel()).isEqualTo(Level.ERROR));
        assertThat(timer).isEmpty();
    }
}
