package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Queue;
import io.bullpen.WorkerInfo;
import io.bullpen.internal.KeyScheme;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/** Queue.getWorkers from the workers' heartbeats: who is listed, with what, and when they leave. */
@BullpenTest
class WorkerPresenceTest {
    private BullpenTestContext ctx;
    private Queue<String> queue;
    private final List<Worker<?, ?>> workers = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.ctx = ctx;
        this.queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
    }

    @AfterEach
    void tearDown() {
        release.countDown();
        workers.forEach(w -> w.close(Duration.ofSeconds(5)));
    }

    private Worker<String, Object> start(RedissonClient client, String name, int concurrency, Duration lock) {
        Worker<String, Object> w = Worker.builder(client, queue.name(), String.class)
                .name(name).concurrency(concurrency).lockDuration(lock)
                .processor(c -> {
                    release.await();
                    return null;
                }).build();
        workers.add(w);
        return w.start();
    }

    private WorkerInfo listed(String name) {
        return queue.getWorkers().stream().filter(w -> w.name().equals(name)).findFirst().orElse(null);
    }

    @Test
    void aStartedWorkerIsListedWithWhoAndWhereItIs() {
        start(ctx.redisson(), "w-a", 3, Duration.ofSeconds(30));

        await().atMost(Duration.ofSeconds(10)).until(() -> listed("w-a") != null);
        WorkerInfo info = listed("w-a");
        assertThat(info.pid()).isEqualTo(ProcessHandle.current().pid());
        assertThat(info.host()).isNotBlank();
        assertThat(info.concurrency()).isEqualTo(3);
        assertThat(info.running()).isZero();
        assertThat(info.paused()).isFalse();
        assertThat(info.started()).isBeforeOrEqualTo(info.lastSeen());
    }

    @Test
    void twoWorkersOnOneQueueAreBothListedWithTheirConcurrencyAndRunningJobs() {
        start(ctx.redisson(), "w-1", 2, Duration.ofSeconds(1));
        start(ctx.redisson(), "w-2", 3, Duration.ofSeconds(1));
        for (int i = 0; i < 5; i++) {
            queue.add("block", "j" + i);
        }

        // Heartbeats every 500 ms (lockDuration / 2) carry the running count.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(queue.getWorkers())
                .extracting(WorkerInfo::name, WorkerInfo::concurrency, WorkerInfo::running)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("w-1", 2, 2),
                        org.assertj.core.groups.Tuple.tuple("w-2", 3, 3)));
        release.countDown();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(queue.getWorkers())
                .extracting(WorkerInfo::running).containsExactly(0, 0));
    }

    /** Ten times: a heartbeat under way at close must not put the worker back after workerLeft. */
    @Test
    void aWorkerThatClosesLeavesTheListAtOnce() {
        for (int i = 0; i < 10; i++) {
            Worker<String, Object> w = start(ctx.redisson(), "closing-" + i, 1, Duration.ofMillis(200));
            String name = w.name();
            await().atMost(Duration.ofSeconds(10)).until(() -> listed(name) != null);

            w.close();

            assertThat(queue.getWorkers()).as("round %d", i).extracting(WorkerInfo::name).doesNotContain(name);
            assertThat(ctx.redisson().getScoredSortedSet(new KeyScheme("bp", queue.name()).workersSeen(),
                    StringCodec.INSTANCE).contains(name)).as("round %d", i).isFalse();
        }
    }

    @Test
    void aWorkerThatDiesDropsOffAfterThreeLockDurations() {
        RedissonClient doomed = ctx.redis().newClient();
        Duration lock = Duration.ofMillis(500);
        Worker<String, Object> w = start(doomed, "doomed", 1, lock);
        start(ctx.redisson(), "alive", 1, lock);
        await().atMost(Duration.ofSeconds(10)).until(() -> listed("doomed") != null && listed("alive") != null);

        // The process "dies": its connection goes, it never calls close().
        doomed.shutdown();
        WorkerInfo last = listed("doomed");
        Double expiry = ctx.redisson().getScoredSortedSet(new KeyScheme("bp", queue.name()).workersSeen(),
                StringCodec.INSTANCE).getScore("doomed");

        assertThat(expiry).as("expiry = lastSeen + 3 lock durations").isNotNull();
        assertThat(expiry.longValue()).isGreaterThanOrEqualTo(last.lastSeen().toEpochMilli() + 3 * lock.toMillis());
        await().atMost(Duration.ofSeconds(15)).until(() -> listed("doomed") == null);
        assertThat(listed("alive")).isNotNull();
        workers.remove(w);
        w.close(Duration.ZERO);
    }
}
