package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Queue;
import io.bullpen.QueueEvents;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.Resp;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The workers and events listeners of one application client share one small blocking client:
 * a worker adds its own threads (fetch, timer, its pool of {@code concurrency}) and one
 * connection (its blocking wait), never a Redisson client with I/O threads of its own.
 * Measured for 1, 10 and 50 workers, then 10 {@link QueueEvents} on top.
 */
@BullpenTest
class SharedBlockingClientTest {
    private static final Logger log = LoggerFactory.getLogger(SharedBlockingClientTest.class);
    private static final int CONCURRENCY = 2;
    /** A worker's threads besides its pool: fetch, timer and events (the last only with listeners). */
    private static final int K = 3;

    private final Set<String> started = ConcurrentHashMap.newKeySet();

    record Figures(int workers, int threads, int redissonThreads, int connections) {
    }

    @Test
    void workersAndListenersOfOneClientShareItsBlockingClient(BullpenTestContext ctx) throws Exception {
        ctx.redis().assumeNotCluster("counts the connections of one server");
        RedissonClient app = ctx.redis().newClient();
        warmUp(app);
        Set<String> groupsBefore = redissonGroups();
        List<Worker<String, Object>> workers = new ArrayList<>();
        List<QueueEvents> listeners = new ArrayList<>();
        List<Figures> table = new ArrayList<>();
        Set<String> sharedGroups = new java.util.HashSet<>();
        try {
            for (int target : new int[] {1, 10, 50}) {
                while (workers.size() < target) {
                    workers.add(startWorkerAndRunAJob(ctx, app, workers.size()));
                }
                table.add(measure(ctx, workers.size()));
                if (target == 1) {
                    sharedGroups.addAll(redissonGroups());
                    sharedGroups.removeAll(groupsBefore);
                }
            }
            for (int i = 0; i < 10; i++) {
                listeners.add(QueueEvents.builder(app, ctx.queueName() + "-" + i).build().start());
            }
            Figures withListeners = measure(ctx, workers.size());
            StringBuilder text = new StringBuilder("| workers | threads | Redisson threads | Redis connections |\n");
            for (Figures f : table) {
                text.append(String.format("| %d | %d | %d | %d |%n", f.workers, f.threads, f.redissonThreads, f.connections));
            }
            text.append(String.format("| %d + 10 QueueEvents | %d | %d | %d |%n", withListeners.workers,
                    withListeners.threads, withListeners.redissonThreads, withListeners.connections));
            log.info("threads and connections of one application client (concurrency {}):\n{}", CONCURRENCY, text);

            Figures one = table.get(0);
            for (Figures f : table.subList(1, table.size())) {
                assertThat(f.threads - one.threads).as("threads added by %d more workers: %s", f.workers - 1, text)
                        .isLessThanOrEqualTo((f.workers - 1) * (CONCURRENCY + K));
                // The shared client's second executor thread starts on demand; nothing grows per worker.
                assertThat(f.redissonThreads).as("Redisson threads: %s", text).isLessThanOrEqualTo(one.redissonThreads + 1);
                // One blocking wait each; Redisson may open one more for a command racing a wait.
                assertThat(f.connections - one.connections).as("connections added: %s", text)
                        .isLessThanOrEqualTo(f.workers - 1 + 2);
            }
            Figures fifty = table.get(table.size() - 1);
            assertThat(fifty.redissonThreads).as("Redisson threads: %s", text).isEqualTo(table.get(1).redissonThreads);
            assertThat(withListeners.redissonThreads).as("Redisson threads with listeners: %s", text)
                    .isEqualTo(fifty.redissonThreads);
            assertThat(withListeners.threads - fifty.threads).as("one reader thread per listener: %s", text)
                    .isLessThanOrEqualTo(10);
            assertThat(withListeners.connections - fifty.connections).as("one blocking read per listener: %s", text)
                    .isLessThanOrEqualTo(10 + 2);
        } finally {
            listeners.forEach(QueueEvents::close);
            workers.forEach(w -> w.close(Duration.ZERO));
        }
        assertThat(sharedGroups).as("the shared client's thread groups").isNotEmpty();
        await("the shared client is shut down with its last user").atMost(Duration.ofSeconds(10))
                .until(() -> java.util.Collections.disjoint(redissonGroups(), sharedGroups));
    }

    private Worker<String, Object> startWorkerAndRunAJob(BullpenTestContext ctx, RedissonClient app, int n) {
        String queue = ctx.queueName() + "-" + n;
        Worker<String, Object> worker = Worker.builder(app, queue, String.class).concurrency(CONCURRENCY)
                .processor(c -> {
                    started.add(c.job().data());
                    return null;
                }).build().start();
        Queue<String> q = Queue.builder(app, queue, String.class).build();
        for (int i = 0; i < CONCURRENCY; i++) {
            q.add("job", queue + "/" + i);
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> started.contains(queue + "/" + (CONCURRENCY - 1))
                && q.getJobCounts().active() == 0);
        return worker;
    }

    private static Figures measure(BullpenTestContext ctx, int workers) throws IOException, InterruptedException {
        // Idle workers block on their markers; let the last ones get there.
        TimeUnit.MILLISECONDS.sleep(500);
        java.util.Map<String, Long> byPrefix = new java.util.TreeMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            byPrefix.merge(t.getName().replaceAll("-\\d+$", ""), 1L, Long::sum);
        }
        log.info("threads with {} workers: {}", workers, byPrefix);
        return new Figures(workers, Thread.getAllStackTraces().size(), redissonThreads(), connections(ctx));
    }

    /** Redisson's thread groups by name without the thread number: one Redisson client makes its own. */
    private static Set<String> redissonGroups() {
        Set<String> groups = new java.util.HashSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("redisson")) {
                groups.add(t.getName().replaceAll("-\\d+$", ""));
            }
        }
        return groups;
    }

    private static int redissonThreads() {
        return (int) Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("redisson")).count();
    }

    /**
     * Opens the application client's whole pool, so its own I/O threads (one per connection up to
     * its netty thread count) exist before the first measurement and do not count as the workers'.
     */
    private static void warmUp(RedissonClient app) {
        List<java.util.concurrent.CompletableFuture<?>> calls = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            calls.add(app.getBucket("warm-up-" + i).setAsync("x").toCompletableFuture());
        }
        calls.forEach(java.util.concurrent.CompletableFuture::join);
    }

    /** Connections Redis counts, without the one asking. */
    private static int connections(BullpenTestContext ctx) throws IOException {
        String list = Resp.text(ctx.redis().host(), ctx.redis().port(), "CLIENT", "LIST");
        return (int) list.lines().filter(l -> !l.isBlank()).count() - 1;
    }
}
