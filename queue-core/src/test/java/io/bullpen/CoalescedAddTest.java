package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.RedisKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.redisson.api.redisnode.RedisNode;
import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisNodes;

/**
 * Single adds from many threads to one queue share script calls (per client, prefix and queue,
 * whichever Queue object they use), and each caller still gets its own job or its own exception,
 * as if the adds had run one after another.
 */
@BullpenTest
class CoalescedAddTest {
    record Item(int thread, int seq) {
    }

    private static final int THREADS = 16;

    /** Runs body(thread) on THREADS threads started together; returns what each threw, if anything. */
    private static List<Throwable> onThreads(IntFunction<Runnable> body) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            Runnable r = body.apply(t);
            Thread th = new Thread(() -> {
                try {
                    start.await();
                    r.run();
                } catch (Throwable e) {
                    errors.add(e);
                }
            }, "adder-" + t);
            th.start();
            threads.add(th);
        }
        start.countDown();
        for (Thread th : threads) {
            th.join(120_000);
        }
        return errors;
    }

    private static long evalShaCalls(BullpenTestContext ctx) {
        RedisNode node = ctx.redisson().getRedisNodes(RedisNodes.SINGLE).getInstance();
        Map<String, String> stats = node.info(RedisNode.InfoSection.COMMANDSTATS);
        // The add runs as a function (FCALL) on Redis 7+, by EVALSHA before.
        long calls = 0;
        for (String command : new String[] {"cmdstat_evalsha", "cmdstat_fcall"}) {
            String v = stats.get(command);
            calls += v == null ? 0 : Long.parseLong(v.replaceAll("^calls=(\\d+),.*$", "$1"));
        }
        return calls;
    }

    @Test
    void aLoneAddIsOneScriptCall(BullpenTestContext ctx) {
        ctx.redis().assumeNotCluster("INFO commandstats of one server");
        Queue<Item> q = Queue.builder(ctx.redisson(), ctx.queueName(), Item.class).build();
        q.add("warm", new Item(0, 0));
        long before = evalShaCalls(ctx);

        q.add("one", new Item(0, 1));

        assertThat(evalShaCalls(ctx) - before).isEqualTo(1);
    }

    @Test
    void concurrentAddsShareCallsEachGetsItsOwnJobAndEachThreadsOrderIsKept(BullpenTestContext ctx) throws Exception {
        ctx.redis().assumeNotCluster("INFO commandstats of one server");
        // Two Queue objects for one queue share a lane: half the threads use each.
        Queue<Item> a = Queue.builder(ctx.redisson(), ctx.queueName(), Item.class).build();
        Queue<Item> b = Queue.builder(ctx.redisson(), ctx.queueName(), Item.class).build();
        a.add("warm", new Item(-1, 0));
        int perThread = 100;
        Map<Integer, List<Job<Item>>> byThread = new ConcurrentHashMap<>();
        long before = evalShaCalls(ctx);

        List<Throwable> errors = onThreads(t -> () -> {
            Queue<Item> q = t % 2 == 0 ? a : b;
            List<Job<Item>> mine = new ArrayList<>();
            for (int i = 0; i < perThread; i++) {
                if (i % 10 == 9) {
                    mine.add(q.addAsync("async", new Item(t, i), JobOptions.defaults()).join());
                } else {
                    mine.add(q.add("sync", new Item(t, i)));
                }
            }
            byThread.put(t, mine);
        });

        assertThat(errors).isEmpty();
        long calls = evalShaCalls(ctx) - before;
        assertThat(calls).as("script calls for %d adds", THREADS * perThread).isLessThan(THREADS * perThread);
        List<String> allIds = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            List<Job<Item>> mine = byThread.get(t);
            long previous = 0;
            for (int i = 0; i < perThread; i++) {
                Job<Item> job = mine.get(i);
                assertThat(job.data()).isEqualTo(new Item(t, i));
                // Automatic ids count up in the order the adds ran in Redis.
                long id = Long.parseLong(job.id());
                assertThat(id).isGreaterThan(previous);
                previous = id;
                allIds.add(job.id());
                assertThat(a.getJob(job.id()).orElseThrow().data()).isEqualTo(new Item(t, i));
            }
        }
        assertThat(allIds).doesNotHaveDuplicates();
        assertThat(a.getJobCounts().waiting()).isEqualTo(THREADS * perThread + 1);
        ctx.assertInvariant(ctx.queueName());
    }

    @Test
    void aCrowdOfMixedAddsGetsAnAnswerPerJob(BullpenTestContext ctx) throws Exception {
        Queue<Item> q = Queue.builder(ctx.redisson(), ctx.queueName(), Item.class).build();
        q.setGroupMaxSize("small", 4);
        Map<Integer, Job<Item>> customs = new ConcurrentHashMap<>();
        Map<Integer, Job<Item>> dedups = new ConcurrentHashMap<>();
        Map<Integer, Object> grouped = new ConcurrentHashMap<>();
        Map<Integer, Job<Item>> plains = new ConcurrentHashMap<>();

        List<Throwable> errors = onThreads(t -> () -> {
            customs.put(t, q.add("custom", new Item(t, 0), JobOptions.builder().jobId("shared").build()));
            dedups.put(t, q.add("dedup", new Item(t, 1), JobOptions.builder().deduplication(Deduplication.of("d")).build()));
            try {
                grouped.put(t, q.add("grouped", new Item(t, 2), JobOptions.builder().group("small").build()));
            } catch (GroupFullException e) {
                grouped.put(t, e);
            }
            plains.put(t, q.add("plain", new Item(t, 3)));
        });

        assertThat(errors).isEmpty();
        // One custom id: the first add wins, every other caller gets that job.
        Item winner = q.getJob("shared").orElseThrow().data();
        assertThat(customs.values()).allSatisfy(j -> {
            assertThat(j.id()).isEqualTo("shared");
            assertThat(j.data()).isEqualTo(winner);
        });
        // One deduplication id: one job added, the others answered with it.
        List<Job<Item>> owners = dedups.values().stream().filter(j -> !j.isDeduplicated()).toList();
        assertThat(owners).hasSize(1);
        assertThat(dedups.values()).allSatisfy(j -> assertThat(j.id()).isEqualTo(owners.get(0).id()));
        // A group of max size 4: four adds succeed, the others fail alone.
        assertThat(grouped.values().stream().filter(o -> o instanceof Job<?>)).hasSize(4);
        assertThat(grouped.values().stream().filter(o -> o instanceof GroupFullException)).hasSize(THREADS - 4);
        // The plain adds of the same calls are unharmed.
        assertThat(plains).hasSize(THREADS);
        for (Map.Entry<Integer, Job<Item>> e : plains.entrySet()) {
            assertThat(q.getJob(e.getValue().id()).orElseThrow().data()).isEqualTo(new Item(e.getKey(), 3));
        }
        ctx.assertInvariant(ctx.queueName());
    }

    @Test
    void withRedisDownEachCallerGetsAnException(BullpenTestContext ctx) throws Exception {
        assumeTrue(ctx.redis().kind() == RedisKind.PROCESS || ctx.redis().kind() == RedisKind.EMBEDDED, "stops the server");
        RedissonClient client = ctx.redis().newClient();
        try {
            Queue<Item> q = Queue.builder(client, ctx.queueName(), Item.class).build();
            q.add("warm", new Item(0, 0));
            ctx.redis().stop();
            Map<Integer, Throwable> thrown = new HashMap<>();
            List<CompletableFuture<Job<Item>>> asyncs = new CopyOnWriteArrayList<>();

            List<Throwable> errors = onThreads(t -> () -> {
                if (t % 2 == 0) {
                    q.add("down", new Item(t, 0));
                } else {
                    asyncs.add(q.addAsync("down", new Item(t, 0), JobOptions.defaults()));
                }
            });

            assertThat(errors).hasSize(THREADS / 2).allSatisfy(e -> assertThat(e).isInstanceOf(QueueUnavailableException.class));
            assertThat(asyncs).hasSize(THREADS / 2).allSatisfy(f -> assertThat(f).failsWithin(java.time.Duration.ofSeconds(30))
                    .withThrowableThat().havingCause().isInstanceOf(QueueUnavailableException.class));
            assertThat(thrown).isEmpty();
        } finally {
            client.shutdown();
        }
    }
}
