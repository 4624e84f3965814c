package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Queue;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.RedisKind;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** An idle worker blocks on Redis: it does not poll and holds few connections. */
@BullpenTest
class WorkerIdleTest {
    private static final Logger log = LoggerFactory.getLogger(WorkerIdleTest.class);

    @Test
    void idleWorkerIssuesNoCommandsForASecondAndAtMostFourRoundTripsPerTenSecondsBesidesItsHeartbeat(BullpenTestContext ctx) throws Exception {
        // Counting commands needs a server nobody else uses.
        assumeTrue(ctx.redis().kind() != RedisKind.EXTERNAL, "needs its own server");
        ctx.redis().assumeNotCluster("INFO commandstats and connected_clients are counted on one server");
        String uri = ctx.redis().uri();
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        int clientsBefore = RawRedis.connectedClients(uri);
        try (Worker<String, Object> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .processor(c -> null).concurrency(8).build().start()) {
            // Let it reach its first blocking wait and send its first heartbeat (the next is 5 s later).
            await().pollDelay(Duration.ofMillis(300)).until(() -> true);
            int opened = RawRedis.connectedClients(uri) - clientsBefore;
            // Counted after the connections: this read goes through the test's own client.
            await().atMost(Duration.ofSeconds(10)).until(() -> !queue.getWorkers().isEmpty());

            Map<String, Long> t0 = RawRedis.commandCalls(uri);
            await().pollDelay(Duration.ofSeconds(1)).until(() -> true);
            Map<String, Long> t1 = RawRedis.commandCalls(uri);
            await().pollDelay(Duration.ofMillis(9_000)).until(() -> true);
            Map<String, Long> t10 = RawRedis.commandCalls(uri);

            // Commandstats also counts commands run inside scripts; round trips are what clients send.
            long roundTrips = calls(t0, t10, "evalsha") + calls(t0, t10, "fcall") + calls(t0, t10, "eval")
                    + calls(t0, t10, "bzpopmin");
            log.info("idle worker: {} connection(s) of its own; {} commands in 1 s; in 10 s {} round trips, {} commands "
                    + "in all ({})", opened, RawRedis.workCalls(t0, t1), roundTrips, RawRedis.workCalls(t0, t10), diff(t0, t10));
            // The blocking wait's connection, and the pool's for scripts: at start the first fetch, the
            // background FUNCTION LOAD of its library (the client's first call of the script), the first
            // heartbeat and the maxmemory-policy check go out together, so the pool may open one for each.
            assertThat(opened).isLessThanOrEqualTo(5);
            assertThat(RawRedis.workCalls(t0, t1)).isZero();
            // Besides the heartbeat (workerHeartbeat, every 5 s; exactly one ZSCORE each, and no other
            // script of an idle worker runs ZSCORE): at most 4 for the wait.
            long heartbeats = calls(t0, t10, "zscore");
            assertThat(heartbeats).as("heartbeats in 10 s").isBetween(1L, 3L);
            assertThat(roundTrips - heartbeats).isLessThanOrEqualTo(4);
            // The heartbeat script's own commands: TIME, ZSCORE, HGET, HSET, ZADD (and its ZRANGE), and
            // its look for flow work (LLEN of the outbox, and ZRANGEBYSCOREs), so that no worker polls for it.
            long heartbeat = calls(t0, t10, "time") + heartbeats + calls(t0, t10, "hget") + calls(t0, t10, "hset")
                    + calls(t0, t10, "zadd") + calls(t0, t10, "llen");
            assertThat(RawRedis.workCalls(t0, t10) - roundTrips - heartbeat).as("no command outside a script or the wait")
                    .isLessThanOrEqualTo(calls(t0, t10, "zrange") + calls(t0, t10, "zrangebyscore")
                            + calls(t0, t10, "hmget") + calls(t0, t10, "rpop") + calls(t0, t10, "zpopmin"));
            assertThat(worker.isRunning()).isTrue();
        }
    }

    private static long calls(Map<String, Long> before, Map<String, Long> after, String command) {
        return after.getOrDefault(command, 0L) - before.getOrDefault(command, 0L);
    }

    private static String diff(Map<String, Long> a, Map<String, Long> b) {
        StringBuilder sb = new StringBuilder();
        b.forEach((k, v) -> {
            long d = v - a.getOrDefault(k, 0L);
            if (d > 0) {
                sb.append(k).append('=').append(d).append(' ');
            }
        });
        return sb.toString().trim();
    }
}
