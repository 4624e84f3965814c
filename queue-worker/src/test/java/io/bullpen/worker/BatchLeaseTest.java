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
import org.junit.jupiter.api.Test;

/** A job waiting in a forming batch keeps its lock: it is renewed like a running job's. */
@BullpenTest
class BatchLeaseTest {
    @Test
    void aLoneJobWaitingLongerThanItsLockForItsBatchIsNeitherStalledNorRunTwice(BullpenTestContext ctx) {
        Queue<Integer> queue = Queue.builder(ctx.redisson(), ctx.queueName(), Integer.class).build();
        List<String> ran = new CopyOnWriteArrayList<>();
        List<String> stalled = new CopyOnWriteArrayList<>();
        try (Worker<Integer, Object> worker = Worker.builder(ctx.redisson(), queue.name(), Integer.class)
                .lockDuration(Duration.ofMillis(500))
                .stalledInterval(Duration.ofMillis(200))
                .listener(new WorkerListener<Integer, Object>() {
                    @Override
                    public void onStalled(String jobId) {
                        stalled.add(jobId);
                    }
                })
                .batchProcessor((JobBatch<Integer, Object> batch) -> {
                    batch.jobs().forEach(j -> ran.add(j.job().id()));
                    return null;
                })
                .batch(JobBatchOptions.of(10).minSize(10).maxWait(Duration.ofMillis(2_000)))
                .build().start()) {
            Job<Integer> job = queue.add("row", 1);
            await().atMost(Duration.ofSeconds(20)).until(() -> queue.getState(job.id()) == JobState.COMPLETED);
            assertThat(ran).containsExactly(job.id());
            assertThat(stalled).isEmpty();
            Job<Integer> done = queue.getJob(job.id()).orElseThrow();
            assertThat(done.attemptsStarted()).isEqualTo(1);
            assertThat(done.stalledCount()).isZero();
        }
    }
}
