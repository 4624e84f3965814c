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
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The queue's global concurrency across workers: never exceeded, freed by finishes and by expired leases. */
@BullpenTest
class GlobalConcurrencyWorkerTest {
    private BullpenTestContext ctx;
    private Queue<String> queue;
    private final List<Worker<?, ?>> workers = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.ctx = ctx;
        this.queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
    }

    @AfterEach
    void tearDown() {
        workers.forEach(w -> w.close(Duration.ofSeconds(5)));
    }

    private Worker<String, Object> start(Worker.Builder<String, Object> builder) {
        Worker<String, Object> w = builder.build();
        workers.add(w);
        return w.start();
    }

    private Worker.Builder<String, Object> builder() {
        return Worker.builder(ctx.redisson(), queue.name(), String.class);
    }

    @Test
    void neverMoreActiveThanTheGlobalConcurrencyAcrossWorkers() {
        queue.setGlobalConcurrency(5);
        assertThat(queue.getGlobalConcurrency()).hasValue(5);
        for (int i = 0; i < 200; i++) {
            queue.add("short", "j" + i);
        }
        AtomicInteger running = new AtomicInteger();
        AtomicInteger maxRunning = new AtomicInteger();
        AtomicLong maxActive = new AtomicLong();
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        sampler.scheduleAtFixedRate(() -> maxActive.accumulateAndGet(queue.getJobCounts().active(), Math::max),
                0, 10, TimeUnit.MILLISECONDS);
        try {
            for (int i = 0; i < 3; i++) {
                start(builder().concurrency(4).processor(c -> {
                    maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
                    try {
                        Thread.sleep(2);
                    } finally {
                        running.decrementAndGet();
                    }
                    return null;
                }));
            }

            await().atMost(Duration.ofSeconds(30)).until(() -> queue.getJobCounts().completed() == 200);
        } finally {
            sampler.shutdownNow();
        }

        assertThat(maxRunning.get()).as("processors running at once").isLessThanOrEqualTo(5);
        assertThat(maxActive.get()).as("active jobs sampled every 10 ms").isLessThanOrEqualTo(5);
        assertThat(maxRunning.get()).as("the cap is used, not just respected").isGreaterThan(1);
        ctx.assertInvariant(queue.name());
    }

    @Test
    void aCrashedWorkersSlotFreesWhenItsLeaseExpires() throws Exception {
        queue.setGlobalConcurrency(1);
        Job<String> stuck = queue.add("stuck", "a");
        CountDownLatch taken = new CountDownLatch(1);
        Worker<String, Object> crashing = start(builder().lockDuration(Duration.ofSeconds(1)).processor(c -> {
            taken.countDown();
            Thread.sleep(60_000);
            return null;
        }));
        assertThat(taken.await(5, TimeUnit.SECONDS)).isTrue();
        // Gone without finishing, as a crashed process: the lease is left to lapse.
        crashing.closeAsIfCrashed();
        Job<String> next = queue.add("next", "b");
        start(builder().processor(c -> null));

        await().atMost(Duration.ofSeconds(10)).until(() -> queue.getState(next.id()) == JobState.COMPLETED
                && queue.getState(stuck.id()) == JobState.COMPLETED);
        assertThat(queue.getJob(stuck.id()).orElseThrow().stalledCount()).isEqualTo(1);
    }

    @Test
    void removingTheCapWakesAnIdleWorkerAtOnce() {
        queue.setGlobalConcurrency(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger started = new AtomicInteger();
        Job<String> first = queue.add("first", "a");
        Job<String> second = queue.add("second", "b");
        // Two workers of one slot each; whichever takes the first job holds the only global slot.
        for (int i = 0; i < 2; i++) {
            start(builder().processor(c -> {
                started.incrementAndGet();
                if (c.job().id().equals(first.id())) {
                    release.await();
                }
                return null;
            }));
        }
        try {
            await().atMost(Duration.ofSeconds(5)).until(() -> started.get() == 1);
            await().pollDelay(Duration.ofMillis(200)).until(() -> true);
            assertThat(queue.getState(second.id())).isEqualTo(JobState.WAITING);

            queue.removeGlobalConcurrency();

            assertThat(queue.getGlobalConcurrency()).isEmpty();
            await().atMost(Duration.ofSeconds(2)).until(() -> queue.getState(second.id()) == JobState.COMPLETED);
            assertThat(queue.getState(first.id())).isEqualTo(JobState.ACTIVE);
        } finally {
            release.countDown();
        }
    }
}
