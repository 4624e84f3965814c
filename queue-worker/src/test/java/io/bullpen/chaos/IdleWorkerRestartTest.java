package io.bullpen.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Queue;
import io.bullpen.worker.Worker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An idle worker resumes at once when Redis comes back: redis-server is killed (SIGKILL) while the
 * worker waits for work, stays down 1.25-3 s, is started again on the same port, and a job is
 * added as soon as an add succeeds. The job must start within 0.5 s of its add, every time.
 *
 * <p>The worker runs on a client with Redisson's default settings (what a user builds), the
 * producer on a client of its own. The default build runs three restarts; the {@code chaos}
 * profile runs twenty.
 */
class IdleWorkerRestartTest extends ChaosRedisTest {
    private static final Logger log = LoggerFactory.getLogger(IdleWorkerRestartTest.class);
    private static final long LIMIT_MS = 500;

    private final Map<String, Long> startedAt = new ConcurrentHashMap<>();

    @Test
    void aJobAddedAfterRedisWasDownForSecondsStartsWithinHalfASecond() throws Exception {
        restarts(new long[] {1_250, 2_000, 3_000});
    }

    @Test
    @Tag("chaos")
    void twentyRestartsOfAnIdleWorkersRedis() throws Exception {
        long[] downs = new long[20];
        for (int i = 0; i < downs.length; i++) {
            downs[i] = 1_250 + (1_750L * i) / (downs.length - 1);
        }
        restarts(downs);
    }

    private void restarts(long[] downMillis) throws Exception {
        String name = ChaosSupport.queueName("idle-restart");
        RedissonClient producer = redis.newClient();
        Config config = new Config();
        config.useSingleServer().setAddress(redis.uri());
        RedissonClient workerClient = Redisson.create(config);
        Queue<String> queue = Queue.builder(producer, name, String.class).build();
        List<String> report = new ArrayList<>();
        long worst = 0;
        try (Worker<String, Object> worker = Worker.builder(workerClient, name, String.class).concurrency(2)
                .processor(c -> {
                    startedAt.putIfAbsent(c.job().data(), System.nanoTime());
                    return null;
                }).build().start()) {
            addWhenPossible(queue, "warm-up");
            await().atMost(Duration.ofSeconds(10)).until(() -> startedAt.containsKey("warm-up"));
            for (int round = 0; round < downMillis.length; round++) {
                awaitIdle(queue);
                redis.crash();
                TimeUnit.MILLISECONDS.sleep(downMillis[round]); // the fault: Redis stays down this long
                redis.restart();
                String data = "round-" + round;
                long addedAt = addWhenPossible(queue, data);
                await("round " + round + " job starts").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(2))
                        .until(() -> startedAt.containsKey(data));
                long latency = TimeUnit.NANOSECONDS.toMillis(startedAt.get(data) - addedAt);
                worst = Math.max(worst, latency);
                report.add(String.format("restart %d: down %d ms, started %d ms after its add", round, downMillis[round],
                        latency));
            }
        } finally {
            workerClient.shutdown(0, 2, TimeUnit.SECONDS);
        }
        log.info("idle worker, {} restarts (SIGKILL, down 1.25-3 s): worst add->start {} ms\n{}", downMillis.length,
                worst, String.join("\n", report));
        assertThat(worst).as("every job starts within %d ms of its add: %s", LIMIT_MS, report)
                .isLessThanOrEqualTo(LIMIT_MS);
    }

    /** The worker has finished its job and waits for the next one. */
    private static void awaitIdle(Queue<String> queue) throws InterruptedException {
        await("the job completed").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(2))
                .until(() -> queue.getJobCounts().active() == 0 && queue.getJobCounts().waiting() == 0);
        // The worker looks at the queue once more after its job, then blocks: let it get there.
        TimeUnit.MILLISECONDS.sleep(300);
    }

    /** Adds the job (retrying while the producer's client reconnects); returns when Redis had it. */
    private static long addWhenPossible(Queue<String> queue, String data) {
        return await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(5)).ignoreExceptions().until(() -> {
            queue.add("after-restart", data);
            return System.nanoTime();
        }, t -> true);
    }
}
