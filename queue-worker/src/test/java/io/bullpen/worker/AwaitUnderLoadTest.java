package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.JobOptions;
import io.bullpen.JobSpec;
import io.bullpen.Queue;
import io.bullpen.Retention;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

/**
 * Awaits never miss a result: 10,000 at once with removeOnComplete, and across killed
 * connections. Every future completes once, with its own job's value.
 */
@BullpenTest
class AwaitUnderLoadTest {
    private static final JobOptions GONE = JobOptions.builder().removeOnComplete(Retention.keepNone()).build();

    private Worker<Integer, Integer> worker(RedissonClient redisson, String queue) {
        return Worker.builder(redisson, queue, Integer.class).processor(ctx -> ctx.job().data() * 2)
                .concurrency(50).build().start();
    }

    /**
     * Adds {@code n} jobs (data 0..n-1; in bulk: 10,000 single adds at once would overrun the test
     * client's connection pool, which is not what is tested), then awaits all of them at once;
     * counts every completion of every future by its number.
     */
    private static List<CompletableFuture<Integer>> awaitAll(Queue<Integer> queue, int n, Map<Integer, AtomicInteger> completions) {
        List<String> ids = new ArrayList<>(n);
        for (int from = 0; from < n; from += 500) {
            List<JobSpec<Integer>> specs = new ArrayList<>();
            for (int i = from; i < Math.min(n, from + 500); i++) {
                specs.add(JobSpec.of("double", i, GONE));
            }
            queue.addBulk(specs).forEach(job -> ids.add(job.id()));
        }
        List<CompletableFuture<Integer>> futures = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int number = i;
            CompletableFuture<Integer> f = queue.awaitResult(ids.get(i), Integer.class, Duration.ofMinutes(2));
            f.whenComplete((r, e) -> completions.computeIfAbsent(number, x -> new AtomicInteger()).incrementAndGet());
            futures.add(f);
        }
        return futures;
    }

    private static void assertEachCompletedOnceWithItsValue(List<CompletableFuture<Integer>> futures,
                                                            Map<Integer, AtomicInteger> completions) {
        await().atMost(Duration.ofMinutes(2)).until(() -> futures.stream().allMatch(CompletableFuture::isDone));
        for (int i = 0; i < futures.size(); i++) {
            assertThat(futures.get(i)).as("await %d", i).isCompletedWithValue(i * 2);
        }
        assertThat(completions).hasSize(futures.size());
        assertThat(completions.values()).allSatisfy(c -> assertThat(c.get()).isEqualTo(1));
    }

    @Test
    void tenThousandConcurrentAwaitsWithRemoveOnCompleteEachCompleteOnce(BullpenTestContext ctx) {
        Queue<Integer> queue = Queue.builder(ctx.redisson(), ctx.queueName(), Integer.class).build();
        Map<Integer, AtomicInteger> completions = new ConcurrentHashMap<>();
        List<CompletableFuture<Integer>> futures = awaitAll(queue, 10_000, completions);
        try (Worker<Integer, Integer> w = worker(ctx.redisson(), queue.name())) {
            assertEachCompletedOnceWithItsValue(futures, completions);
        }
        assertThat(queue.getJobCounts().completed()).isZero();
    }

    @Test
    void connectionsKilledMidRunLoseNoResult(BullpenTestContext ctx) throws Exception {
        Queue<Integer> queue = Queue.builder(ctx.redisson(), ctx.queueName(), Integer.class).build();
        Map<Integer, AtomicInteger> completions = new ConcurrentHashMap<>();
        // Awaited before any worker runs: a removeOnComplete job that finished before its await is gone.
        List<CompletableFuture<Integer>> futures = awaitAll(queue, 2_000, completions);
        try (Worker<Integer, Integer> w = Worker.builder(ctx.redis().newClient(), queue.name(), Integer.class)
                .processor(c -> {
                    Thread.sleep(1);
                    return c.job().data() * 2;
                }).concurrency(10).build().start()) {
            // Every client connection (the awaiter's blocking read, the worker's, the producer's)
            // is killed several times while the jobs run.
            for (int round = 0; round < 5; round++) {
                int done = (int) futures.stream().filter(CompletableFuture::isDone).count();
                await().atMost(Duration.ofSeconds(30)).until(() ->
                        futures.stream().filter(CompletableFuture::isDone).count() > done || done == futures.size());
                RawRedis.call(ctx.redis().uri(), "CLIENT", "KILL", "TYPE", "normal");
            }
            assertEachCompletedOnceWithItsValue(futures, completions);
        }
    }
}
