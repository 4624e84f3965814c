package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bullpen.Queue;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.RedisClusterFixture;
import io.bullpen.testing.TestRedis;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fault injection on a Redis Cluster: the master that owns two queues' slots is SIGKILLed while a
 * producer adds to both and workers consume them; its replica takes over. One queue adds plainly
 * (acknowledged by the master alone: replication is asynchronous, so the last acknowledged adds
 * can vanish with it), the other with durable adds (acknowledged once the replica has them):
 * the durable queue must lose nothing. The killed master is then restarted and rejoins as a
 * replica, which durable adds need to go on being acknowledged. Runs on a cluster of its own under the {@code cluster}
 * profile, so killing a node disturbs no other test.
 */
@BullpenTest
class ClusterFailoverTest {
    private static final Logger log = LoggerFactory.getLogger(ClusterFailoverTest.class);

    /** Acknowledged adds and completions, by job data, per queue. */
    private final Map<String, Set<String>> acknowledged = Map.of("plain", ConcurrentHashMap.newKeySet(),
            "durable", ConcurrentHashMap.newKeySet());
    private final Map<String, Set<String>> completed = Map.of("plain", ConcurrentHashMap.newKeySet(),
            "durable", ConcurrentHashMap.newKeySet());
    private final AtomicInteger sequence = new AtomicInteger();
    private final AtomicInteger failedAdds = new AtomicInteger();
    private final Map<String, String> lastAddError = new ConcurrentHashMap<>();
    private final AtomicLong firstCompletionAfterFailover = new AtomicLong();
    private volatile int sequenceAtFailover = Integer.MAX_VALUE;

    @Test
    void durableAddsLoseNothingWhenTheMasterOfTheirSlotDies(TestRedis redis) throws InterruptedException {
        assumeTrue(redis.isCluster(), "runs under the cluster profile (mvn -Pcluster), on a cluster of its own");
        assumeTrue(RedisClusterFixture.available(), "needs redis-server and redis-cli");
        try (RedisClusterFixture cluster = RedisClusterFixture.start()) {
            String plainName = "failover-plain";
            int master = cluster.masterPortOf("bp:{" + plainName + "}:wait");
            String durableName = sameMaster(cluster, master);
            RedissonClient redisson = cluster.newClient();
            ScheduledExecutorService producer = Executors.newSingleThreadScheduledExecutor();
            try (Worker<String, String> plainWorker = worker(redisson, plainName, "plain");
                 Worker<String, String> durableWorker = worker(redisson, durableName, "durable")) {
                Queue<String> plain = Queue.builder(redisson, plainName, String.class).build();
                Queue<String> durable = Queue.builder(redisson, durableName, String.class)
                        .durableAdds(1, Duration.ofSeconds(2)).build();
                producer.scheduleWithFixedDelay(() -> {
                    addOne(plain, "plain");
                    addOne(durable, "durable");
                }, 0, 5, TimeUnit.MILLISECONDS);
                await("jobs flow before the crash").atMost(Duration.ofSeconds(30))
                        .until(() -> completed.get("durable").size() >= 100 && completed.get("plain").size() >= 100);

                long killedAt = System.currentTimeMillis();
                sequenceAtFailover = sequence.get();
                cluster.kill(master);
                await("a replica serves the slot").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                        .until(() -> masterOrMinusOne(cluster, plainName) > 0 && masterOrMinusOne(cluster, plainName) != master);
                long promotedAt = System.currentTimeMillis();
                int newMaster = cluster.masterPortOf("bp:{" + plainName + "}:wait");
                // The old master comes back and rejoins as the new master's replica: durable adds need
                // one replica to acknowledge them, and until then they throw NotReplicatedException.
                cluster.restart(master);
                long restartedAt = System.currentTimeMillis();
                await("the old master rejoins as a replica").atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(100)).until(() -> "slave".equals(cluster.role(master)));
                long rejoinedAt = System.currentTimeMillis();
                await("a job added after the failover completes").atMost(Duration.ofSeconds(60))
                        .until(() -> firstCompletionAfterFailover.get() > 0);
                await("100 more acknowledged durable adds after the failover").atMost(Duration.ofSeconds(60))
                        .conditionEvaluationListener(c -> {
                            if (c.getRemainingTimeInMS() < 1000) {
                                log.warn("after the failover: acks plain {} durable {}; last add errors {}",
                                        afterFailover("plain"), afterFailover("durable"), lastAddError);
                            }
                        })
                        .until(() -> acknowledged.get("durable").stream()
                                .filter(d -> Integer.parseInt(d.substring(2)) > sequenceAtFailover).count() >= 100);
                producer.shutdown();
                assertThat(producer.awaitTermination(10, TimeUnit.SECONDS)).isTrue();

                long lostPlain = settle("plain");
                long lostDurable = settle("durable");
                log.info("Cluster failover: master :{} SIGKILLed; replica :{} took the slot after {} ms; the old "
                                + "master, restarted, was its replica {} ms later; first job added after the kill completed "
                                + "{} ms after the kill. Plain adds: {} acknowledged, {} lost. "
                                + "Durable adds (WAIT 1 replica): {} acknowledged, {} lost. Adds that threw during the "
                                + "failover (not acknowledged, so not owed): {}",
                        master, newMaster, promotedAt - killedAt, rejoinedAt - restartedAt,
                        firstCompletionAfterFailover.get() - killedAt,
                        acknowledged.get("plain").size(), lostPlain, acknowledged.get("durable").size(), lostDurable,
                        failedAdds.get());
                assertThat(lostDurable).as("acknowledged durable adds that never completed").isZero();
                assertThat(plainWorker.isRunning()).isTrue();
                assertThat(durableWorker.isRunning()).isTrue();
            } finally {
                producer.shutdownNow();
                redisson.shutdown(0, 2, TimeUnit.SECONDS);
            }
        }
    }

    private Worker<String, String> worker(RedissonClient redisson, String queue, String kind) {
        return Worker.builder(redisson, queue, String.class)
                .processor(ctx -> {
                    completed.get(kind).add(ctx.job().data());
                    int n = Integer.parseInt(ctx.job().data().substring(2));
                    if (n > sequenceAtFailover) {
                        firstCompletionAfterFailover.compareAndSet(0, System.currentTimeMillis());
                    }
                    return "ok";
                })
                .concurrency(4)
                .lockDuration(Duration.ofSeconds(2))
                .build().start();
    }

    private void addOne(Queue<String> queue, String kind) {
        String data = "j-" + sequence.incrementAndGet();
        try {
            queue.add("order", data);
            acknowledged.get(kind).add(data);
        } catch (RuntimeException e) {
            failedAdds.incrementAndGet();
            lastAddError.put(kind, e.toString());
        }
    }

    /** Acknowledged jobs still not completed once every acknowledged job had its chance (at most 30 s). */
    private long settle(String kind) {
        try {
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                    .until(() -> completed.get(kind).containsAll(acknowledged.get(kind)));
        } catch (ConditionTimeoutException e) {
            // Counted and logged; only the durable queue must be complete.
        }
        return acknowledged.get(kind).stream().filter(d -> !completed.get(kind).contains(d)).count();
    }

    private long afterFailover(String kind) {
        return acknowledged.get(kind).stream().filter(d -> Integer.parseInt(d.substring(2)) > sequenceAtFailover).count();
    }

    /** A queue name whose slot the same master serves, so one kill hits both queues. */
    private static String sameMaster(RedisClusterFixture cluster, int master) {
        for (int i = 0; i < 1000; i++) {
            String name = "failover-durable-" + i;
            if (cluster.masterPortOf("bp:{" + name + "}:wait") == master) {
                return name;
            }
        }
        throw new IllegalStateException("no queue name found on master :" + master);
    }

    private static int masterOrMinusOne(RedisClusterFixture cluster, String queue) {
        try {
            return cluster.masterPortOf("bp:{" + queue + "}:wait");
        } catch (IllegalStateException e) {
            return -1;
        }
    }
}
