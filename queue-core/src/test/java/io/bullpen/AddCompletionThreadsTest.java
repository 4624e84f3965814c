package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.bullpen.instrument.Instrumentation;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.Resp;
import io.bullpen.testing.TestRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Where an add's completion runs. A synchronous add finishes on the caller's thread, its
 * instrumentations included, so concurrent adds never queue behind one shared thread; the
 * futures of {@code addAsync}, {@code addAndAwait} and {@code awaitResult} complete on Bullpen's
 * own completion threads: never on Redisson's I/O threads, never on the common
 * {@code ForkJoinPool} (one thread on a 2-core machine).
 */
@BullpenTest
class AddCompletionThreadsTest {
    private static final Duration BOUND = Duration.ofSeconds(20);

    /** Records the thread of every instrumentation call of an add. */
    static final class ThreadRecorder implements Instrumentation {
        final List<Thread> added = new java.util.concurrent.CopyOnWriteArrayList<>();
        final List<Thread> ended = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public void jobAdded(String queue, String jobId, String jobName) {
            added.add(Thread.currentThread());
        }

        @Override
        public Adding addStarting(String queue, String jobName, int jobCount, boolean bulk, Map<String, String> headers) {
            return (jobIds, error) -> ended.add(Thread.currentThread());
        }
    }

    @Test
    void aSyncAddCallsItsInstrumentationsOnTheAddingThread(BullpenTestContext ctx) {
        ThreadRecorder recorder = new ThreadRecorder();
        Queue<Integer> queue = Queue.builder(ctx.redisson(), ctx.queueName(), Integer.class)
                .instrumentation(recorder).build();

        queue.add("a", 1);
        queue.addBulk(List.of(JobSpec.of("b", 2), JobSpec.of("c", 3)));

        assertThat(recorder.added).hasSize(3).containsOnly(Thread.currentThread());
        assertThat(recorder.ended).hasSize(2).containsOnly(Thread.currentThread());
    }

    @Test
    void addsAndAwaitsFinishWhileTheCommonPoolIsBusy(BullpenTestContext ctx) throws Exception {
        Queue<Integer> queue = Queue.builder(ctx.redisson(), ctx.queueName(), Integer.class)
                .instrumentation(new ThreadRecorder()).build();
        try (CommonPoolHeld held = CommonPoolHeld.hold()) {
            assertTimeoutPreemptively(BOUND, () -> {
                queue.add("sync", 1);
                queue.addAsync("async", 2, JobOptions.defaults()).get();
                String id = queue.add("never run", 3).id();
                CompletableFuture<Integer> await = queue.awaitResult(id, Integer.class, Duration.ofMillis(100));
                assertThat(await).failsWithin(BOUND).withThrowableOfType(java.util.concurrent.ExecutionException.class)
                        .withCauseInstanceOf(TimeoutException.class);
            }, "an add or an await waited for the common ForkJoinPool");
        }
        assertThat(queue.getJobCounts().waiting()).isEqualTo(3);
    }

    @Test
    void addAsyncCompletesOnNeitherRedissonsThreadsNorTheCommonPool(BullpenTestContext ctx, TestRedis redis)
            throws Exception {
        redis.assumeNotCluster("CLIENT PAUSE holds one node");
        Queue<Integer> plain = Queue.builder(ctx.redisson(), ctx.queueName(), Integer.class).build();
        Queue<Integer> instrumented = Queue.builder(ctx.redisson(), ctx.newQueueName(), Integer.class)
                .instrumentation(new ThreadRecorder()).build();
        instrumented.add("first", 0); // registered: the add below is one script call
        plain.add("owner", 0, JobOptions.builder().deduplication(Deduplication.of("d")).build());
        plain.setGroupMaxSize("full", 1);
        plain.add("in group", 0, JobOptions.builder().group("full").build());
        List<CompletableFuture<Thread>> threads = new ArrayList<>();
        // Redis holds the calls: every callback is in place before its add completes.
        pause(redis);
        try {
            threads.add(plain.addAsync("plain", 1, JobOptions.defaults()).thenApply(job -> Thread.currentThread()));
            threads.add(instrumented.addAsync("instrumented", 2, JobOptions.defaults())
                    .thenApply(job -> Thread.currentThread()));
            threads.add(plain.addAsync("deduplicated", 3, JobOptions.builder().deduplication(Deduplication.of("d")).build())
                    .thenApply(job -> Thread.currentThread()));
            threads.add(plain.addAsync("group full", 4, JobOptions.builder().group("full").build())
                    .handle((job, error) -> error != null ? Thread.currentThread() : null));
            threads.forEach(f -> assertThat(f).isNotDone());
        } finally {
            unpause(redis);
        }
        for (CompletableFuture<Thread> f : threads) {
            assertThat(f.get(BOUND.toSeconds(), TimeUnit.SECONDS)).satisfies(AddCompletionThreadsTest::isBullpensOwn);
        }
    }

    @Test
    void awaitsCompleteOnNeitherRedissonsThreadsNorTheCommonPool(BullpenTestContext ctx) throws Exception {
        Queue<Integer> queue = Queue.builder(ctx.redisson(), ctx.queueName(), Integer.class).build();
        CompletableFuture<Thread> completed = queue.addAndAwait("work", 1, JobOptions.defaults(), Integer.class,
                Duration.ofSeconds(30)).thenApply(result -> Thread.currentThread());
        Queue<Integer> idle = Queue.builder(ctx.redisson(), ctx.newQueueName(), Integer.class).build();
        CompletableFuture<Thread> timedOut = idle.awaitResult(idle.add("never run", 2).id(), Integer.class,
                Duration.ofMillis(100)).handle((result, error) -> Thread.currentThread());
        JobDriver driver = new JobDriver(ctx.redisson(), ctx.queueName());
        AtomicReference<RawJob> taken = new AtomicReference<>();
        await().atMost(BOUND).until(() -> {
            taken.set(driver.take());
            return taken.get() != null;
        });
        driver.complete(taken.get(), "7");

        assertThat(completed.get(BOUND.toSeconds(), TimeUnit.SECONDS)).satisfies(AddCompletionThreadsTest::isBullpensOwn);
        assertThat(timedOut.get(BOUND.toSeconds(), TimeUnit.SECONDS)).satisfies(AddCompletionThreadsTest::isBullpensOwn);
    }

    @Test
    void sixteenThreadsAddingAtOnceShareAtMostThreeScriptCallsAndNoneWaitsForAnother(BullpenTestContext ctx, TestRedis redis)
            throws Exception {
        redis.assumeNotCluster("CLIENT PAUSE holds one node");
        int producers = 16;
        Queue<Integer> queue = Queue.builder(ctx.redisson(), ctx.queueName(), Integer.class)
                .instrumentation(new ThreadRecorder()).build();
        queue.add("first", 0); // registered: every later add is one script call
        List<CompletableFuture<Job<Integer>>> adds = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        pause(redis);
        long callsBefore;
        try {
            callsBefore = scriptCalls(redis);
            for (int i = 0; i < producers; i++) {
                int n = i;
                CompletableFuture<Job<Integer>> add = new CompletableFuture<>();
                Thread t = new Thread(() -> {
                    try {
                        add.complete(queue.add("p" + n, n));
                    } catch (RuntimeException e) {
                        add.completeExceptionally(e);
                    }
                }, "producer-" + i);
                t.start();
                adds.add(add);
                threads.add(t);
            }
            // The lane's two calls reached Redis and wait there; the other adds wait for them, each
            // on its own thread (none runs another's work), to go together in the next call.
            await().atMost(BOUND).until(() -> pausedScriptCalls(redis) == 2
                    && threads.stream().allMatch(t -> t.getState() == Thread.State.WAITING));
        } finally {
            unpause(redis);
        }
        CompletableFuture.allOf(adds.toArray(CompletableFuture[]::new)).get(BOUND.toSeconds(), TimeUnit.SECONDS);
        // Two calls in flight, then one call for every add that waited (none if the second call
        // happened to take them all).
        assertThat(scriptCalls(redis) - callsBefore).isBetween(2L, 3L);
        assertThat(queue.getJobCounts().waiting()).isEqualTo(producers + 1);
        assertThat(adds).extracting(f -> f.join().data()).containsExactlyInAnyOrderElementsOf(
                java.util.stream.IntStream.range(0, producers).boxed().toList());
    }

    /** Script calls Redis has run, EVALSHA and FCALL (INFO commandstats). */
    private static long scriptCalls(TestRedis redis) throws Exception {
        String stats = Resp.text(redis.host(), redis.port(), "INFO", "commandstats");
        return Arrays.stream(stats.split("\r?\n"))
                .filter(line -> line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_fcall:"))
                .mapToLong(line -> Long.parseLong(line.replaceAll("^cmdstat_[a-z]+:calls=(\\d+),.*$", "$1")))
                .sum();
    }

    private static void isBullpensOwn(Thread t) {
        assertThat(t.getName()).as("thread %s", t).doesNotStartWith("redisson-");
        assertThat(t.getClass().getName()).as("thread %s", t).doesNotStartWith("io.netty");
        assertThat(t instanceof ForkJoinWorkerThread w && w.getPool() == ForkJoinPool.commonPool())
                .as("thread %s is a common pool worker", t).isFalse();
    }

    private static void pause(TestRedis redis) throws Exception {
        Resp.call(redis.host(), redis.port(), "CLIENT", "PAUSE", "30000", "WRITE");
    }

    private static void unpause(TestRedis redis) throws Exception {
        Resp.call(redis.host(), redis.port(), "CLIENT", "UNPAUSE");
    }

    /** Clients blocked by CLIENT PAUSE in a script call (EVALSHA, or FCALL on Redis 7+). */
    private static long pausedScriptCalls(TestRedis redis) throws Exception {
        String list = Resp.text(redis.host(), redis.port(), "CLIENT", "LIST");
        return Arrays.stream(list.split("\n"))
                .filter(line -> (line.contains(" cmd=evalsha ") || line.contains(" cmd=fcall ")) && line.contains(" flags=b "))
                .count();
    }

    /** Every worker of the common pool blocked until closed. */
    private static final class CommonPoolHeld implements AutoCloseable {
        private final CountDownLatch release = new CountDownLatch(1);

        static CommonPoolHeld hold() throws InterruptedException {
            CommonPoolHeld held = new CommonPoolHeld();
            int workers = ForkJoinPool.getCommonPoolParallelism();
            CountDownLatch running = new CountDownLatch(workers);
            for (int i = 0; i < workers; i++) {
                ForkJoinPool.commonPool().execute(() -> {
                    running.countDown();
                    try {
                        held.release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            }
            assertThat(running.await(BOUND.toSeconds(), TimeUnit.SECONDS)).as("common pool workers started").isTrue();
            return held;
        }

        @Override
        public void close() {
            release.countDown();
        }
    }
}
