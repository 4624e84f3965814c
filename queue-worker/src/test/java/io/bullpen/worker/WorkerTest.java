package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.bullpen.Backoff;
import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.UnrecoverableJobException;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

@BullpenTest
class WorkerTest {
    record Order(String id) {
    }

    private BullpenTestContext ctx;
    private RedissonClient redisson;
    private Queue<Order> queue;
    private final List<Worker<?, ?>> workers = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.ctx = ctx;
        this.redisson = ctx.redisson();
        this.queue = Queue.builder(redisson, ctx.queueName(), Order.class).build();
    }

    @AfterEach
    void tearDown() {
        workers.forEach(w -> w.close(Duration.ofSeconds(5)));
    }

    private <R> Worker<Order, R> start(Worker.Builder<Order, R> builder) {
        Worker<Order, R> w = builder.build();
        workers.add(w);
        return w.start();
    }

    private Worker.Builder<Order, Object> builder() {
        return Worker.builder(redisson, queue.name(), Order.class);
    }

    @Test
    void processesJobsAndStoresTheirResults() {
        List<String> completed = new CopyOnWriteArrayList<>();
        start(builder().processor(ctx -> "cancelled " + ctx.job().data().id()).listener(new WorkerListener<>() {
            @Override
            public void onCompleted(Job<Order> job, String result) {
                completed.add(result);
            }
        }));

        Job<Order> job = queue.add("cancel", new Order("A-1"));

        await().atMost(Duration.ofSeconds(5)).until(() -> queue.getState(job.id()) == JobState.COMPLETED);
        Job<Order> done = queue.getJob(job.id()).orElseThrow();
        assertThat(done.returnValue(String.class)).contains("cancelled A-1");
        assertThat(done.attemptsMade()).isEqualTo(1);
        assertThat(done.attemptsStarted()).isEqualTo(1);
        assertThat(done.processedBy()).as("an unnamed worker stores no processedBy, as in BullMQ").isEmpty();
        assertThat(done.finishedOn()).isPresent();
        assertThat(completed).containsExactly("cancelled A-1");
        ctx.assertInvariant(queue.name());
    }

    @Test
    void aNamedWorkerIsStoredAsProcessedBy() {
        // The name is set before processor(...), which returns a builder of another type.
        start(builder().name("billing-1").processor(ctx -> "ok"));

        Job<Order> job = queue.add("charge", new Order("A-2"));

        await().atMost(Duration.ofSeconds(5)).until(() -> queue.getState(job.id()) == JobState.COMPLETED);
        assertThat(queue.getJob(job.id()).orElseThrow().processedBy()).contains("billing-1");
    }

    @Test
    void failedAttemptsAreRetriedWithBackoffThenFail() {
        AtomicInteger calls = new AtomicInteger();
        List<Boolean> finals = new CopyOnWriteArrayList<>();
        start(builder().processor(ctx -> {
            calls.incrementAndGet();
            throw new IllegalStateException("payment service down");
        }).listener(new WorkerListener<>() {
            @Override
            public void onFailed(Job<Order> job, Throwable error, boolean finalFailure) {
                finals.add(finalFailure);
            }
        }));

        Job<Order> job = queue.add("charge", new Order("A"), JobOptions.builder().attempts(3)
                .backoff(Backoff.fixed(Duration.ofMillis(200))).build());

        await().atMost(Duration.ofSeconds(10)).until(() -> queue.getState(job.id()) == JobState.FAILED);
        Job<Order> failed = queue.getJob(job.id()).orElseThrow();
        assertThat(calls).hasValue(3);
        assertThat(failed.attemptsMade()).isEqualTo(3);
        assertThat(failed.failedReason()).contains("payment service down");
        assertThat(failed.stacktrace()).hasSize(3).allSatisfy(t -> assertThat(t).contains("IllegalStateException"));
        assertThat(finals).containsExactly(false, false, true);
        // Retries waited for the backoff: at least 2 x 200 ms between the first start and the end.
        assertThat(failed.finishedOn().orElseThrow().toEpochMilli() - failed.timestamp().toEpochMilli()).isGreaterThanOrEqualTo(400);
    }

    @Test
    void unrecoverableErrorFailsAtOnce() {
        AtomicInteger calls = new AtomicInteger();
        start(builder().processor(ctx -> {
            calls.incrementAndGet();
            throw new UnrecoverableJobException("order does not exist");
        }));

        Job<Order> job = queue.add("charge", new Order("A"), JobOptions.builder().attempts(5).build());

        await().atMost(Duration.ofSeconds(5)).until(() -> queue.getState(job.id()) == JobState.FAILED);
        assertThat(calls).hasValue(1);
        assertThat(queue.getJob(job.id()).orElseThrow().failedReason()).contains("order does not exist");
    }

    @Test
    void timeoutInterruptsTheProcessorAndRetries() {
        AtomicInteger interrupted = new AtomicInteger();
        start(builder().processor(ctx -> {
            try {
                Thread.sleep(10_000);
            } catch (InterruptedException e) {
                interrupted.incrementAndGet();
                throw e;
            }
            return null;
        }));

        Job<Order> job = queue.add("slow", new Order("A"), JobOptions.builder().attempts(2)
                .timeout(Duration.ofMillis(200)).build());

        await().atMost(Duration.ofSeconds(5)).until(() -> queue.getState(job.id()) == JobState.FAILED);
        assertThat(interrupted).hasValue(2);
        assertThat(queue.getJob(job.id()).orElseThrow().failedReason()).contains("timed out after 200ms");
    }

    @Test
    void progressAndLogsAreStored() {
        start(builder().processor(ctx -> {
            ctx.log("checking payment");
            ctx.updateProgress(50);
            assertThat(ctx.fencingToken()).isPositive();
            assertThat(ctx.isCancelled()).isFalse();
            return null;
        }));

        Job<Order> job = queue.add("x", new Order("A"));

        await().atMost(Duration.ofSeconds(5)).until(() -> queue.getState(job.id()) == JobState.COMPLETED);
        Job<Order> done = queue.getJob(job.id()).orElseThrow();
        assertThat(done.progress(Integer.class)).contains(50);
        assertThat(ctx.snapshot(queue.name()).logs(job.id())).containsExactly("checking payment");
    }

    @Test
    void neverRunsMoreThanConcurrencyJobsAtOnce() {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        start(builder().concurrency(4).processor(ctx -> {
            int now = running.incrementAndGet();
            peak.accumulateAndGet(now, Math::max);
            Thread.sleep(20);
            running.decrementAndGet();
            return null;
        }));

        for (int i = 0; i < 40; i++) {
            queue.add("n", new Order("o" + i));
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> queue.getJobCounts().completed() == 40);
        assertThat(peak.get()).isEqualTo(4);
        ctx.assertInvariant(queue.name());
    }

    @Test
    void prioritizedJobsRunLowestFirstAfterPlainOnes() throws Exception {
        List<String> order = new CopyOnWriteArrayList<>();
        queue.add("p3", new Order("p3"), JobOptions.builder().priority(3).build());
        queue.add("p1", new Order("p1"), JobOptions.builder().priority(1).build());
        queue.add("plain", new Order("plain"));
        CountDownLatch done = new CountDownLatch(3);

        start(builder().processor(ctx -> {
            order.add(ctx.job().name());
            done.countDown();
            return null;
        }));

        assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(order).containsExactly("plain", "p1", "p3");
    }

    @Test
    void closeWaitsForRunningJobs() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        Worker<Order, Object> worker = start(builder().processor(ctx -> {
            started.countDown();
            Thread.sleep(300);
            return "late";
        }));
        Job<Order> job = queue.add("x", new Order("A"));
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();

        worker.close(Duration.ofSeconds(5));

        assertThat(queue.getState(job.id())).isEqualTo(JobState.COMPLETED);
        assertThat(worker.isRunning()).isFalse();
        assertThatThrownBy(worker::start).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aThrowingListenerNeverAffectsTheJob() {
        start(builder().processor(ctx -> "ok").listener(new WorkerListener<>() {
            @Override
            public void onActive(Job<Order> job) {
                throw new RuntimeException("listener bug");
            }

            @Override
            public void onCompleted(Job<Order> job, String result) {
                throw new RuntimeException("listener bug");
            }
        }));

        Job<Order> job = queue.add("x", new Order("A"));

        await().atMost(Duration.ofSeconds(5)).until(() -> queue.getState(job.id()) == JobState.COMPLETED);
    }

    @Test
    void delayedJobStartsCloseToItsDueTime() {
        List<Long> lateness = new CopyOnWriteArrayList<>();
        start(builder().processor(ctx -> {
            Job<Order> j = ctx.job();
            lateness.add(System.currentTimeMillis() - (j.timestamp().toEpochMilli() + j.delay().toMillis()));
            return null;
        }));
        // Let the worker go idle (blocked on the marker) first.
        await().pollDelay(Duration.ofMillis(300)).until(() -> true);

        queue.add("later", new Order("A"), JobOptions.builder().delay(Duration.ofMillis(700)).build());

        await().atMost(Duration.ofSeconds(5)).until(() -> lateness.size() == 1);
        // Without the worker's own timer it would start at the marker wait's timeout (seconds
        // late); the bound leaves room for a loaded CI machine's scheduling, not for that.
        assertThat(lateness.get(0)).isBetween(0L, 250L);
    }

    @Test
    void processorIsRequired() {
        assertThatThrownBy(() -> builder().build()).isInstanceOf(IllegalStateException.class).hasMessageContaining("processor");
        assertThatThrownBy(() -> builder().concurrency(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0");
    }
}
