package io.bullpen.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.Queue;
import io.bullpen.worker.Worker;
import io.bullpen.worker.WorkerListener;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker's call that is under way when its connection drops goes again on the new connection
 * as soon as it is up, instead of waiting out Redisson's response timeout (3 s).
 *
 * <p>Redis holds the call: {@code CLIENT PAUSE <ms> WRITE} blocks scripts, so the fetch or finish
 * the worker sends meanwhile waits on the server; then {@code CLIENT KILL TYPE normal} drops
 * every client connection (the paused call is dropped unrun). The call must land right after the
 * pause ends.
 */
class CallsAcrossADroppedConnectionTest extends ChaosRedisTest {
    private static final Logger log = LoggerFactory.getLogger(CallsAcrossADroppedConnectionTest.class);
    private static final long PAUSE_MS = 1_000;
    /** After the pause ends: a resend at the reconnect lands at once; waiting out the timeout takes 2 s more. */
    private static final long LIMIT_AFTER_PAUSE_MS = 500;

    @Test
    void aFinishUnderWayWhenTheConnectionDropsLandsWhenItIsBack() throws Exception {
        String name = ChaosSupport.queueName("finish-drop");
        RedissonClient producer = redis.newClient();
        RedissonClient workerClient = defaultClient();
        Queue<String> queue = Queue.builder(producer, name, String.class).build();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(1);
        AtomicLong completedAt = new AtomicLong();
        AtomicInteger lockLost = new AtomicInteger();
        try (Worker<String, String> worker = Worker.builder(workerClient, name, String.class).<String>processor(c -> {
            running.countDown();
            release.await();
            return "done";
        }).listener(new WorkerListener<>() {
            @Override
            public void onCompleted(Job<String> job, String result) {
                completedAt.set(System.nanoTime());
            }

            @Override
            public void onLockLost(Job<String> job) {
                lockLost.incrementAndGet();
            }
        }).build().start()) {
            queue.add("held", "x");
            assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
            redis.call("CLIENT", "PAUSE", Long.toString(PAUSE_MS), "WRITE");
            long pauseEnds = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PAUSE_MS);
            release.countDown(); // the finish goes out and waits on the paused server
            TimeUnit.MILLISECONDS.sleep(200); // the scenario: the drop comes while the finish waits
            redis.call("CLIENT", "KILL", "TYPE", "normal");
            await("the job completes").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(5))
                    .until(() -> completedAt.get() != 0);
            long afterPause = TimeUnit.NANOSECONDS.toMillis(completedAt.get() - pauseEnds);
            log.info("finish under way across a dropped connection: completed {} ms after the pause ended", afterPause);
            assertThat(afterPause).as("ms from the end of the pause to the completion").isLessThanOrEqualTo(LIMIT_AFTER_PAUSE_MS);
            assertThat(lockLost).hasValue(0);
            assertThat(queue.getJobCounts().completed()).isEqualTo(1);
        } finally {
            workerClient.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }

    @Test
    void aFetchUnderWayWhenTheConnectionDropsTakesTheJobWhenItIsBack() throws Exception {
        String name = ChaosSupport.queueName("fetch-drop");
        RedissonClient producer = redis.newClient();
        RedissonClient workerClient = defaultClient();
        Queue<String> queue = Queue.builder(producer, name, String.class).build();
        ConcurrentHashMap<String, Long> startedAt = new ConcurrentHashMap<>();
        try (Worker<String, Object> worker = Worker.builder(workerClient, name, String.class).processor(c -> {
            startedAt.putIfAbsent(c.job().data(), System.nanoTime());
            return null;
        }).build().start()) {
            queue.add("warm-up", "warm-up");
            await().atMost(Duration.ofSeconds(10)).until(() -> startedAt.containsKey("warm-up"));
            // Due in 400 ms: the idle worker fetches then, while the server is paused.
            queue.add("due", "due", JobOptions.builder().delay(Duration.ofMillis(400)).build());
            TimeUnit.MILLISECONDS.sleep(100);
            redis.call("CLIENT", "PAUSE", Long.toString(PAUSE_MS), "WRITE");
            long pauseEnds = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PAUSE_MS);
            TimeUnit.MILLISECONDS.sleep(500); // the scenario: the drop comes while the fetch waits
            redis.call("CLIENT", "KILL", "TYPE", "normal");
            await("the job starts").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(5))
                    .until(() -> startedAt.containsKey("due"));
            long afterPause = TimeUnit.NANOSECONDS.toMillis(startedAt.get("due") - pauseEnds);
            log.info("fetch under way across a dropped connection: the job started {} ms after the pause ended", afterPause);
            assertThat(afterPause).as("ms from the end of the pause to the start").isLessThanOrEqualTo(LIMIT_AFTER_PAUSE_MS);
        } finally {
            workerClient.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }

    /** What a user builds: Redisson's defaults (3 s response timeout). */
    private static RedissonClient defaultClient() {
        Config config = new Config();
        config.useSingleServer().setAddress(redis.uri());
        return Redisson.create(config);
    }
}
