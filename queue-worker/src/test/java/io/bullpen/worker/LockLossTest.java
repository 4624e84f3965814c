package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.redisson.client.codec.StringCodec;

/** A worker that loses a job's lock is told, its attempt is cancelled and its late result rejected. */
@BullpenTest
class LockLossTest {
    @Test
    void lostLockIsDetectedAndTheLateResultRejected(BullpenTestContext ctx) throws Exception {
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        CountDownLatch firstAttemptRunning = new CountDownLatch(1);
        AtomicBoolean sawCancelled = new AtomicBoolean();
        AtomicInteger attempts = new AtomicInteger();
        List<String> lockLost = new CopyOnWriteArrayList<>();
        try (Worker<String, String> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .lockDuration(Duration.ofMillis(600))
                .processor(c -> {
                    int attempt = attempts.incrementAndGet();
                    if (attempt == 1) {
                        firstAttemptRunning.countDown();
                        try {
                            Thread.sleep(10_000);
                        } catch (InterruptedException e) {
                            sawCancelled.set(c.isCancelled());
                        }
                        return "late result of attempt 1";
                    }
                    return "result of attempt " + attempt;
                })
                .listener(new WorkerListener<>() {
                    @Override
                    public void onLockLost(Job<String> job) {
                        lockLost.add(job.id());
                    }
                })
                .build().start()) {
            Job<String> job = queue.add("x", "data");
            assertThat(firstAttemptRunning.await(5, TimeUnit.SECONDS)).isTrue();

            // The lease runs out (as if the worker had been paused past it): on Redis's clock, which
            // judges leases, score 1 is long past.
            ctx.redisson().<String>getScoredSortedSet("bp:{" + queue.name() + "}:leases", StringCodec.INSTANCE)
                    .addIfExists(1, job.id());

            await().atMost(Duration.ofSeconds(5)).until(() -> lockLost.contains(job.id()));
            await().atMost(Duration.ofSeconds(10)).until(() -> queue.getState(job.id()) == JobState.COMPLETED);
            Job<String> done = queue.getJob(job.id()).orElseThrow();
            assertThat(sawCancelled).isTrue();
            assertThat(lockLost).containsExactly(job.id());
            assertThat(done.returnValue(String.class)).contains("result of attempt 2");
            assertThat(done.attemptsStarted()).isEqualTo(2);
            assertThat(done.stalledCount()).isEqualTo(1);
            assertThat(done.attemptsMade()).isEqualTo(1);
            ctx.assertInvariant(queue.name());
        }
    }
}
