package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.instrument.Instrumentation;
import io.bullpen.internal.JobFields;
import io.bullpen.internal.KeyScheme;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RMap;
import org.redisson.client.codec.StringCodec;

/**
 * A close whose timeout ends with jobs still running hands them back to the queue at once, lock
 * checked, without charging a failed attempt or counting a stall; a crash leaves them to lock expiry.
 * Either re-run reports no wait to the instrumentation.
 */
@BullpenTest
class ForcedCloseTest {
    private BullpenTestContext ctx;
    private Queue<String> queue;
    private final CountDownLatch running = new CountDownLatch(1);
    private final WaitRecorder waits = new WaitRecorder();

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.ctx = ctx;
        queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
    }

    private Worker<String, String> startSlowWorker() throws InterruptedException {
        Worker<String, String> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .lockDuration(Duration.ofSeconds(30))
                .processor(c -> {
                    running.countDown();
                    Thread.sleep(30_000);
                    return "never";
                }).build().start();
        assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();
        return worker;
    }

    @Test
    void aJobStillRunningAtTheCloseTimeoutIsWaitingAgainAtOnce() throws Exception {
        Job<String> job = queue.add("x", "data", JobOptions.builder().attempts(1).build());
        Worker<String, String> first = startSlowWorker();

        first.close(Duration.ofMillis(100));

        // No waiting for the 30 s lock: the job is back in wait when close returns, its lock gone.
        assertThat(queue.getState(job.id())).isEqualTo(JobState.WAITING);
        assertThat(lock(job.id()).get()).isNull();
        try (Worker<String, String> second = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .instrumentation(waits).processor(c -> "done").build().start()) {
            await().atMost(Duration.ofSeconds(5)).until(() -> queue.getState(job.id()) == JobState.COMPLETED);
        }
        // The re-run's start is no wait: the time since the add holds the first run.
        await().atMost(Duration.ofSeconds(5)).until(() -> waits.started.size() == 1);
        assertThat(waits.started).containsExactly(Optional.empty());
        Job<String> done = queue.getJob(job.id()).orElseThrow();
        assertThat(done.returnValue(String.class)).contains("done");
        assertThat(done.attemptsMade()).isEqualTo(1);
        assertThat(done.attemptsStarted()).as("the cut-off start counts; only the second one made an attempt")
                .isEqualTo(2);
        assertThat(done.stalledCount()).isZero();
        ctx.assertInvariant(queue.name());
    }

    @Test
    void aJobWhoseLockAnotherWorkerHoldsIsNotHandedBack() throws Exception {
        Job<String> job = queue.add("x", "data", JobOptions.builder().attempts(1).build());
        Worker<String, String> first = startSlowWorker();
        // As if the lock had lapsed and another worker had taken the job meanwhile.
        lock(job.id()).set("another-worker:1");

        first.close(Duration.ZERO);

        assertThat(queue.getState(job.id())).isEqualTo(JobState.ACTIVE);
        assertThat(lock(job.id()).get()).isEqualTo("another-worker:1");
    }

    @Test
    void aCrashLeavesTheRunningJobToLockExpiry() throws Exception {
        Job<String> job = queue.add("x", "data", JobOptions.builder().attempts(1).build());
        Worker<String, String> first = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .lockDuration(Duration.ofMillis(800))
                .processor(c -> {
                    running.countDown();
                    Thread.sleep(10_000);
                    return "never";
                }).build().start();
        assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();

        first.closeAsIfCrashed();

        assertThat(queue.getState(job.id())).isEqualTo(JobState.ACTIVE);
        try (Worker<String, String> second = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .instrumentation(waits).processor(c -> "done").build().start()) {
            await().atMost(Duration.ofSeconds(5)).until(() -> queue.getState(job.id()) == JobState.COMPLETED);
        }
        // The re-run's start is no wait: the time since the add holds the first run.
        await().atMost(Duration.ofSeconds(5)).until(() -> waits.started.size() == 1);
        assertThat(waits.started).containsExactly(Optional.empty());
        Job<String> done = queue.getJob(job.id()).orElseThrow();
        assertThat(done.attemptsMade()).isEqualTo(1);
        assertThat(done.attemptsStarted()).isEqualTo(2);
        assertThat(done.stalledCount()).isEqualTo(1);
        ctx.assertInvariant(queue.name());
    }

    /** Records the wait each start reports (the {@code bullpen.job.wait} timer's input). */
    private static final class WaitRecorder implements Instrumentation {
        final List<Optional<Duration>> started = new CopyOnWriteArrayList<>();

        @Override
        public void jobStarted(String queue, Job<?> job, Optional<Duration> waited) {
            started.add(waited);
        }
    }

    /** The job's lock: field lock of its hash. */
    private LockField lock(String jobId) {
        RMap<String, String> hash = ctx.redisson().getMap(new KeyScheme(KeyScheme.DEFAULT_PREFIX, queue.name()).job(jobId),
                StringCodec.INSTANCE);
        return new LockField(hash);
    }

    private record LockField(RMap<String, String> hash) {
        String get() {
            return hash.get(JobFields.LOCK);
        }

        void set(String token) {
            hash.put(JobFields.LOCK, token);
        }
    }
}
