package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobSpec;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.internal.WireFormat;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Take-ahead: a worker with short jobs takes jobs beyond its free slots and holds them;
 * every job still runs once, long jobs are not hoarded, close hands the held jobs back at once, a
 * crash leaves them to be recovered without a stall, and a limit is never exceeded by them.
 */
@BullpenTest
class TakeAheadWorkerTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    private BullpenTestContext ctx;
    private Queue<Integer> queue;
    private final List<Worker<?, ?>> workers = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.ctx = ctx;
        this.queue = Queue.builder(ctx.redisson(), ctx.queueName(), Integer.class).build();
    }

    @AfterEach
    void tearDown() {
        workers.forEach(w -> w.close(Duration.ofSeconds(5)));
    }

    private Worker.Builder<Integer, Object> builder() {
        return Worker.builder(ctx.redisson(), queue.name(), Integer.class);
    }

    private Worker<Integer, ?> start(Worker.Builder<Integer, ?> builder) {
        Worker<Integer, ?> w = builder.build();
        workers.add(w);
        return w.start();
    }

    private List<Job<Integer>> add(int from, int count) {
        return queue.addBulk(IntStream.range(from, from + count).mapToObj(i -> JobSpec.of("n", i)).toList());
    }

    @Test
    void aNegativeTakeAheadIsRefusedNamingTheValue() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> builder().takeAhead(-3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-3");
        assertThat(new TakeAhead(1, TakeAhead.DEFAULT).cap()).isEqualTo(200);
        assertThat(new TakeAhead(100, TakeAhead.DEFAULT).cap()).isEqualTo(200);
        assertThat(new TakeAhead(4, TakeAhead.DEFAULT).cap()).isEqualTo(200);
        assertThat(new TakeAhead(4, 7).cap()).isEqualTo(7);
    }

    @Test
    void manyShortJobsAreAllProcessedExactlyOnce() {
        Map<Integer, AtomicInteger> runs = new ConcurrentHashMap<>();
        AtomicInteger maxBuffered = new AtomicInteger();
        Worker<?, ?>[] ws = new Worker[2];
        for (int i = 0; i < 2; i++) {
            ws[i] = start(builder().concurrency(4).processor(c -> {
                runs.computeIfAbsent(c.job().data(), k -> new AtomicInteger()).incrementAndGet();
                maxBuffered.accumulateAndGet(ws[0].buffered() + (ws[1] == null ? 0 : ws[1].buffered()), Math::max);
                return c.job().data();
            }));
        }
        int n = 3_000;
        for (int i = 0; i < n; i += 500) {
            add(i, 500);
        }

        await().atMost(WAIT).until(() -> queue.getJobCounts().completed() == n);

        assertThat(runs).hasSize(n);
        assertThat(runs.values()).allSatisfy(r -> assertThat(r.get()).isEqualTo(1));
        assertThat(maxBuffered.get()).as("jobs were taken ahead").isPositive();
        assertThat(queue.getJobCounts().active()).isZero();
        for (Job<Integer> job : queue.getJobs(JobState.COMPLETED, 0, 200)) {
            assertThat(WireFormat.fields(job).get("ahd")).isNotEqualTo("1");
            assertThat(job.attemptsStarted()).isEqualTo(1);
            assertThat(job.processedOn().orElseThrow()).isBeforeOrEqualTo(job.finishedOn().orElseThrow());
        }
    }

    @Test
    void tenMillisecondJobsSpreadOverTwoWorkers() {
        AtomicInteger[] ran = {new AtomicInteger(), new AtomicInteger()};
        for (int i = 0; i < 2; i++) {
            AtomicInteger mine = ran[i];
            start(builder().concurrency(10).processor(c -> {
                mine.incrementAndGet();
                Thread.sleep(10);
                return 0;
            }));
        }
        int n = 600;
        add(0, n);

        await().atMost(WAIT).until(() -> queue.getJobCounts().completed() == n);

        assertThat(ran[0].get() + ran[1].get()).isEqualTo(n);
        assertThat(ran[0].get()).as("worker 1's share of %d", n).isBetween(n * 30 / 100, n * 70 / 100);
        assertThat(ran[1].get()).as("worker 2's share of %d", n).isBetween(n * 30 / 100, n * 70 / 100);
    }

    /** Runs short jobs until the worker has learned to take ahead, then holds one job running and some buffered. */
    private List<Job<Integer>> holdSomeBuffered(Worker<Integer, ?> w) {
        add(0, 300);
        await().atMost(WAIT).until(() -> queue.getJobCounts().completed() == 300);
        List<Job<Integer>> held = add(1_000, 8);
        await().atMost(WAIT).until(() -> w.buffered() > 0 && w.activeCount() == 1);
        return held;
    }

    private static boolean blocks(JobContext<Integer> c) {
        return c.job().data() >= 1_000;
    }

    @Test
    void closeHandsTheBufferedJobsBackAtOnceWithoutUsingTheirStart() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Worker<Integer, ?> w = start(builder().concurrency(1).takeAhead(5).processor(c -> {
            if (blocks(c)) {
                release.await();
            }
            return 0;
        }));
        List<Job<Integer>> held = holdSomeBuffered(w);
        String running = held.get(0).id();
        int buffered = w.buffered();

        Thread closer = new Thread(() -> w.close(Duration.ofSeconds(30)));
        closer.start();
        try {
            // Close waits for the running job, but the buffered ones are back in wait at once.
            await().atMost(WAIT).until(() -> held.stream().skip(1).allMatch(j -> queue.getState(j.id()) == JobState.WAITING));
            assertThat(queue.getState(running)).isEqualTo(JobState.ACTIVE);
            for (Job<Integer> j : held.subList(1, held.size())) {
                Job<Integer> now = queue.getJob(j.id()).orElseThrow();
                assertThat(now.attemptsStarted()).isZero();
                assertThat(now.stalledCount()).isZero();
                assertThat(WireFormat.fields(now)).doesNotContainKey("ahd");
            }
            assertThat(buffered).isBetween(1, 5);
        } finally {
            release.countDown();
            closer.join(30_000);
        }
        assertThat(queue.getState(running)).isEqualTo(JobState.COMPLETED);
    }

    @Test
    void aCrashWithBufferedJobsLeavesThemToBeRecoveredWithoutAStall() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Worker<Integer, ?> w = start(builder().concurrency(1).takeAhead(5).lockDuration(Duration.ofSeconds(3))
                .processor(c -> {
                    if (blocks(c)) {
                        release.await();
                    }
                    return 0;
                }));
        List<Job<Integer>> held = holdSomeBuffered(w);
        String running = held.get(0).id();
        List<String> buffered = new ArrayList<>();
        for (Job<Integer> j : held.subList(1, held.size())) {
            if (queue.getState(j.id()) == JobState.ACTIVE) {
                buffered.add(j.id());
            }
        }
        assertThat(buffered).isNotEmpty();

        w.closeAsIfCrashed();
        release.countDown();
        assertThat(queue.getState(running)).isEqualTo(JobState.ACTIVE);
        assertThat(buffered).allSatisfy(id -> assertThat(queue.getState(id)).isEqualTo(JobState.ACTIVE));
        start(builder().concurrency(2).processor(c -> 0));

        await().atMost(WAIT).until(() -> held.stream().allMatch(j -> queue.getState(j.id()) == JobState.COMPLETED));
        assertThat(queue.getJob(running).orElseThrow().stalledCount()).as("it ran: a stall counts").isEqualTo(1);
        for (String id : buffered) {
            Job<Integer> job = queue.getJob(id).orElseThrow();
            assertThat(job.stalledCount()).as("job %s never ran before the crash", id).isZero();
            assertThat(job.attemptsStarted()).isEqualTo(1);
        }
    }

    @Test
    void underAGlobalConcurrencyNothingIsTakenAheadAndTheLimitHolds() {
        queue.setGlobalConcurrency(3);
        AtomicLong maxActive = new AtomicLong();
        AtomicInteger markedAhead = new AtomicInteger();
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        sampler.scheduleAtFixedRate(() -> maxActive.accumulateAndGet(queue.getJobCounts().active(), Math::max),
                0, 5, TimeUnit.MILLISECONDS);
        try {
            for (int i = 0; i < 2; i++) {
                start(builder().concurrency(3).takeAhead(50).processor(c -> {
                    if (WireFormat.fields(c.job()).containsKey("ahd")) {
                        markedAhead.incrementAndGet();
                    }
                    return 0;
                }));
            }
            add(0, 300);
            await().atMost(WAIT).until(() -> queue.getJobCounts().completed() == 300);
        } finally {
            sampler.shutdownNow();
        }
        assertThat(maxActive.get()).isBetween(1L, 3L);
        assertThat(markedAhead.get()).isZero();
        assertThat(workers).allSatisfy(w -> assertThat(((Worker<?, ?>) w).buffered()).isZero());
    }
}
