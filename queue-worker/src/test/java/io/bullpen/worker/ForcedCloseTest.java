package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A forced close does not charge the running jobs an attempt: their locks lapse and they run again. */
@BullpenTest
class ForcedCloseTest {
    @Test
    void interruptedJobsAreRecoveredNotFailed(BullpenTestContext ctx) throws Exception {
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        CountDownLatch running = new CountDownLatch(1);
        Job<String> job = queue.add("x", "data", JobOptions.builder().attempts(1).build());
        Worker<String, String> first = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .lockDuration(Duration.ofMillis(800))
                .processor(c -> {
                    running.countDown();
                    Thread.sleep(10_000);
                    return "never";
                }).build().start();
        assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();

        first.close(Duration.ZERO);

        assertThat(queue.getState(job.id())).isEqualTo(JobState.ACTIVE);
        try (Worker<String, String> second = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .processor(c -> "done").build().start()) {
            await().atMost(Duration.ofSeconds(5)).until(() -> queue.getState(job.id()) == JobState.COMPLETED);
        }
        Job<String> done = queue.getJob(job.id()).orElseThrow();
        assertThat(done.attemptsMade()).isEqualTo(1);
        assertThat(done.attemptsStarted()).isEqualTo(2);
        assertThat(done.stalledCount()).isEqualTo(1);
        ctx.assertInvariant(queue.name());
    }
}
