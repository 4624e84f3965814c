package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.RateLimit;
import io.bullpen.RateLimitedException;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.RedisKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The queue rate limit as workers live it: exact (booked starts, GCRA), woken at once when the
 * limit is lifted, and the manual limit a processor sets with {@link RateLimitedException}.
 */
@BullpenTest
class RateLimitWorkerTest {
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

    private List<Job<String>> addJobs(int n) {
        List<Job<String>> jobs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            jobs.add(queue.add("call", "job-" + i));
        }
        return jobs;
    }

    /** @return the most starts (processedOn) in any half-open window [t, t + windowMs) */
    private static int maxInWindow(List<Long> starts, long windowMs) {
        List<Long> sorted = starts.stream().sorted().toList();
        int max = 0;
        int j = 0;
        for (int i = 0; i < sorted.size(); i++) {
            while (sorted.get(i) - sorted.get(j) >= windowMs) {
                j++;
            }
            max = Math.max(max, i - j + 1);
        }
        return max;
    }

    private List<Long> processedOn(List<Job<String>> jobs) {
        return jobs.stream().map(j -> queue.getJob(j.id()).orElseThrow().processedOn().orElseThrow().toEpochMilli()).toList();
    }

    @Test
    void noWindowOfTheLimitHoldsMoreStartsThanItAllowsAcrossWorkers() {
        queue.setRateLimit(RateLimit.of(20, Duration.ofSeconds(1)));
        assertThat(queue.getRateLimit()).contains(RateLimit.of(20, Duration.ofSeconds(1)));
        List<Job<String>> jobs = addJobs(100);
        for (int i = 0; i < 4; i++) {
            start(builder().processor(c -> null).concurrency(10));
        }

        await().atMost(Duration.ofSeconds(20)).until(() -> queue.getJobCounts().completed() == 100);

        List<Long> starts = processedOn(jobs);
        assertThat(maxInWindow(starts, 1_000)).isLessThanOrEqualTo(20);
        // Smooth, not bunched: one start per 50 ms after the first.
        assertThat(maxInWindow(starts, 50)).isEqualTo(1);
        ctx.assertInvariant(queue.name());
    }

    @Test
    void aBurstAllowsThatManyMoreInAWindowAndNoMore() {
        queue.setRateLimit(RateLimit.of(20, Duration.ofSeconds(1)).burst(5));
        List<Job<String>> jobs = addJobs(60);
        for (int i = 0; i < 2; i++) {
            start(builder().processor(c -> null).concurrency(10));
        }

        await().atMost(Duration.ofSeconds(20)).until(() -> queue.getJobCounts().completed() == 60);

        assertThat(maxInWindow(processedOn(jobs), 1_000)).isBetween(21, 25);
    }

    @Test
    void anIdleLimitedWorkerWaitsWithoutCallsAndStartsAtOnceWhenTheLimitIsLifted() throws Exception {
        assumeTrue(ctx.redis().kind() != RedisKind.EXTERNAL, "counts commands on its own server");
        ctx.redis().assumeNotCluster("INFO commandstats of one server");
        queue.setRateLimit(RateLimit.of(1, Duration.ofMinutes(1)));
        List<Job<String>> jobs = addJobs(2);
        // Blocking waits of 1 s: the window below outlasts several, and none may end in a fetch.
        start(builder().processor(c -> null).concurrency(2).blockTimeout(Duration.ofSeconds(1)));
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.getState(jobs.get(0).id()) == JobState.COMPLETED);
        // Let the worker settle into its wait.
        await().pollDelay(Duration.ofMillis(300)).until(() -> true);

        Map<String, Long> t0 = RawRedis.commandCalls(ctx.redis().uri());
        await().pollDelay(Duration.ofMillis(3_500)).until(() -> true);
        Map<String, Long> t1 = RawRedis.commandCalls(ctx.redis().uri());
        // The worker's heartbeat (every 5 s) is the only script then: one ZSCORE each, none in a limited take.
        long heartbeats = t1.getOrDefault("zscore", 0L) - t0.getOrDefault("zscore", 0L);
        long scriptCalls = t1.getOrDefault("evalsha", 0L) - t0.getOrDefault("evalsha", 0L)
                + t1.getOrDefault("fcall", 0L) - t0.getOrDefault("fcall", 0L);
        assertThat(scriptCalls - heartbeats)
                .as("script calls while limited, besides the heartbeat").isZero();
        assertThat(t1.getOrDefault("bzpopmin", 0L) - t0.getOrDefault("bzpopmin", 0L)).as("blocking waits")
                .isGreaterThanOrEqualTo(2);
        assertThat(queue.getState(jobs.get(1).id())).isEqualTo(JobState.WAITING);

        queue.removeRateLimit();

        assertThat(queue.getRateLimit()).isEmpty();
        await().atMost(Duration.ofSeconds(2)).until(() -> queue.getState(jobs.get(1).id()) == JobState.COMPLETED);
    }

    @Test
    void aRaisedLimitWakesTheWorker() {
        queue.setRateLimit(RateLimit.of(1, Duration.ofMinutes(1)));
        List<Job<String>> jobs = addJobs(2);
        start(builder().processor(c -> null));
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.getState(jobs.get(0).id()) == JobState.COMPLETED);

        queue.setRateLimit(RateLimit.of(100, Duration.ofSeconds(1)));

        await().atMost(Duration.ofSeconds(2)).until(() -> queue.getState(jobs.get(1).id()) == JobState.COMPLETED);
    }

    @Test
    void aBookedJobThatNeverStartedIsGivenBackOnCloseWithoutAnAttempt() {
        // One start per 200 ms: of two jobs taken together, the second is booked 200 ms ahead.
        queue.setRateLimit(RateLimit.of(5, Duration.ofSeconds(1)));
        List<Job<String>> jobs = addJobs(2);
        Worker<String, Object>[] holder = new Worker[1];
        List<String> ran = new CopyOnWriteArrayList<>();
        holder[0] = start(builder().concurrency(2).processor(c -> {
            ran.add(c.job().id());
            // The processor may run before start() returns and the worker is in the holder: wait
            // for it without a poll delay (the booked start is only 200 ms away).
            new Thread(() -> {
                await().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1)).atMost(Duration.ofSeconds(5))
                        .until(() -> holder[0] != null);
                holder[0].close();
            }).start();
            return null;
        }));

        await().atMost(Duration.ofSeconds(5)).until(() -> !holder[0].isRunning() && holder[0].slots().free() == 2);

        assertThat(ran).containsExactly(jobs.get(0).id());
        Job<String> second = queue.getJob(jobs.get(1).id()).orElseThrow();
        assertThat(queue.getState(second.id())).isEqualTo(JobState.WAITING);
        assertThat(second.attemptsStarted()).isZero();
        assertThat(second.stalledCount()).isZero();
        holder[0].slots().checkInvariant(true);
    }

    @Test
    void aProcessorsRateLimitedExceptionPutsTheJobBackInFrontAndHoldsTheQueue() {
        AtomicInteger failures = new AtomicInteger();
        Map<String, List<Long>> startsById = new ConcurrentHashMap<>();
        AtomicInteger thrown = new AtomicInteger();
        List<Job<String>> jobs = addJobs(3);
        long[] limitedAt = new long[1];
        start(builder().concurrency(1).processor(c -> {
            startsById.computeIfAbsent(c.job().id(), k -> new CopyOnWriteArrayList<>()).add(System.currentTimeMillis());
            if (c.job().id().equals(jobs.get(0).id()) && thrown.getAndIncrement() == 0) {
                limitedAt[0] = System.currentTimeMillis();
                throw new RateLimitedException(Duration.ofSeconds(1));
            }
            return null;
        }).listener(new WorkerListener<>() {
            @Override
            public void onFailed(Job<String> job, Throwable error, boolean finalAttempt) {
                failures.incrementAndGet();
            }
        }));
        await().atMost(Duration.ofSeconds(5)).until(() -> limitedAt[0] > 0);
        // Delayed jobs keep being promoted while the queue is limited.
        Job<String> delayed = queue.add("later", "d", JobOptions.builder().delay(Duration.ofMillis(100)).build());
        await().atMost(Duration.ofMillis(900)).until(() -> queue.getState(delayed.id()) == JobState.WAITING);

        await().atMost(Duration.ofSeconds(10)).until(() -> queue.getJobCounts().completed() == 4);

        Job<String> first = queue.getJob(jobs.get(0).id()).orElseThrow();
        assertThat(first.attemptsMade()).isEqualTo(1);
        assertThat(first.attemptsStarted()).isEqualTo(1);
        assertThat(first.stalledCount()).isZero();
        assertThat(failures).hasValue(0);
        // Back in front: it ran again before the jobs behind it, and nothing started within the delay.
        long rerun = startsById.get(first.id()).get(1);
        assertThat(rerun).isGreaterThanOrEqualTo(limitedAt[0] + 1_000 - 5);
        for (Job<String> other : List.of(jobs.get(1), jobs.get(2))) {
            assertThat(startsById.get(other.id()).get(0)).isGreaterThanOrEqualTo(rerun);
        }
        ctx.assertInvariant(queue.name());
    }
}
