package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.Retention;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Age retention holds even when no other job finishes: an idle worker's fetch runs the janitor. */
@BullpenTest
class RetentionJanitorTest {
    @Test
    void finishedJobsDisappearOnceOlderThanTheirRetentionAge(BullpenTestContext ctx) {
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        JobOptions keep1s = JobOptions.builder().attempts(1)
                .removeOnComplete(Retention.keepFor(Duration.ofSeconds(1)))
                .removeOnFail(Retention.keepFor(Duration.ofSeconds(1))).build();
        try (Worker<String, String> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .blockTimeout(Duration.ofSeconds(1))
                .processor(c -> {
                    if (c.job().data().equals("bad")) {
                        throw new IllegalArgumentException("bad");
                    }
                    return "ok";
                }).build().start()) {
            Job<String> good = queue.add("a", "good", keep1s);
            Job<String> bad = queue.add("b", "bad", keep1s);
            Job<String> kept = queue.add("c", "good");
            await().atMost(Duration.ofSeconds(5)).until(() -> queue.getState(good.id()) == JobState.COMPLETED
                    && queue.getState(bad.id()) == JobState.FAILED && queue.getState(kept.id()) == JobState.COMPLETED);

            await().atMost(Duration.ofSeconds(10)).until(() -> queue.getJob(good.id()).isEmpty() && queue.getJob(bad.id()).isEmpty());
            assertThat(queue.getJob(kept.id())).isPresent();
            ctx.assertInvariant(queue.name());
        }
    }
}
