package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bullpen.Job;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.RedisKind;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A worker that looks alive keeps consuming after Redis restarts or drops its connections. */
@BullpenTest
class WorkerResilienceTest {
    private static final Logger log = LoggerFactory.getLogger(WorkerResilienceTest.class);

    private final Map<String, Long> startedAt = new ConcurrentHashMap<>();

    private Worker<String, Object> startWorker(RedissonClient redisson, String queue) {
        return Worker.builder(redisson, queue, String.class)
                .processor(ctx -> {
                    startedAt.putIfAbsent(ctx.job().data(), System.currentTimeMillis());
                    return null;
                })
                .concurrency(4).build().start();
    }

    /** Adds a job as soon as Redis takes it and returns how long until a worker started it. */
    private long millisToStart(Queue<String> queue, String data) {
        long[] addedAt = new long[1];
        Job<String> job = await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() -> {
            Job<String> j = queue.add("after", data);
            addedAt[0] = System.currentTimeMillis();
            return j;
        }, j -> true);
        await().atMost(Duration.ofSeconds(5)).until(() -> startedAt.containsKey(data));
        assertThat(queue.getState(job.id())).isIn(JobState.ACTIVE, JobState.COMPLETED);
        return startedAt.get(data) - addedAt[0];
    }

    @Test
    void resumesAfterRedisRestarts(BullpenTestContext ctx) {
        assumeTrue(ctx.redis().kind() == RedisKind.PROCESS || ctx.redis().kind() == RedisKind.EMBEDDED,
                "needs a server the test can restart");
        RedissonClient client = ctx.redis().newClient();
        Queue<String> queue = Queue.builder(client, ctx.queueName(), String.class).build();
        try (Worker<String, Object> worker = startWorker(client, queue.name())) {
            queue.add("before", "before");
            await().atMost(Duration.ofSeconds(5)).until(() -> startedAt.containsKey("before"));

            ctx.redis().stop();
            ctx.redis().start();
            long restartedAt = System.currentTimeMillis();

            long toStart = millisToStart(queue, "after-restart");
            long sinceRestart = startedAt.get("after-restart") - restartedAt;
            log.info("after a Redis restart: job started {} ms after it was added ({} ms after Redis was back)", toStart,
                    sinceRestart);
            assertThat(sinceRestart).isLessThan(5_000);
            assertThat(worker.isRunning()).isTrue();

            ctx.redis().stop();
            ctx.redis().start();
            assertThat(millisToStart(queue, "after-second-restart")).isLessThan(5_000);
        }
    }

    @Test
    void resumesAfterItsConnectionsAreKilled(BullpenTestContext ctx) throws Exception {
        assumeTrue(ctx.redis().kind() != RedisKind.EXTERNAL, "kills every client of the server");
        ctx.redis().assumeNotCluster("CLIENT KILL goes to one node, not necessarily the one owning the queue");
        RedissonClient client = ctx.redis().newClient();
        Queue<String> queue = Queue.builder(client, ctx.queueName(), String.class).build();
        try (Worker<String, Object> worker = startWorker(client, queue.name())) {
            queue.add("before", "before");
            await().atMost(Duration.ofSeconds(5)).until(() -> startedAt.containsKey("before"));
            await().pollDelay(Duration.ofMillis(300)).until(() -> true);

            for (int round = 1; round <= 3; round++) {
                String killed = RawRedis.call(ctx.redis().uri(), "CLIENT", "KILL", "TYPE", "normal");
                long toStart = millisToStart(queue, "after-kill-" + round);
                log.info("after CLIENT KILL (round {}, reply {}): job started {} ms after it was added", round, killed, toStart);
                assertThat(toStart).isLessThan(5_000);
            }
            assertThat(worker.isRunning()).isTrue();
        }
    }
}
