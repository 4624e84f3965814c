package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Backoff;
import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.RepeatedTest;

/**
 * Regression: a retry due within milliseconds ran only at the end of the worker's 5 s block,
 * because a marker pop that completed while the worker was busy was discarded.
 */
@BullpenTest
class WakeUpTest {
    @RepeatedTest(5)
    void shortBackoffRetriesRunOnTimeNotAtTheNextBlockTimeout(BullpenTestContext ctx) {
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        List<Long> starts = new CopyOnWriteArrayList<>();
        try (Worker<String, Object> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .concurrency(2)
                .processor(c -> {
                    starts.add(System.currentTimeMillis());
                    throw new IllegalStateException("flaky");
                }).build().start()) {
            Job<String> job = queue.add("flaky", "x", JobOptions.builder().attempts(8)
                    .backoff(Backoff.fixed(Duration.ofMillis(15))).build());

            await().atMost(Duration.ofSeconds(4)).until(() -> queue.getState(job.id()) == JobState.FAILED);
            for (int i = 1; i < starts.size(); i++) {
                assertThat(starts.get(i) - starts.get(i - 1)).as("gap before attempt %d", i + 1).isLessThan(500);
            }
        }
    }
}
