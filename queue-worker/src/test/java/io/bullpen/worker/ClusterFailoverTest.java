package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bullpen.JobOptions;
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
 * the durable queue must lose nothing. To make the asynchronous window visible, the replica hangs
 * (SIGSTOP) while 300 plain adds of 64 KB each, due 3 s later, are acknowledged (more than the
 * TCP buffers between the nodes hold), then the master dies: the plain queue loses acknowledged
 * jobs that never ran. The killed master is then restarted and rejoins as a
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
    /** Padding for plain adds while the replica hangs: enough bytes to overflow the TCP buffers between the nodes. */
    private volatile String padding = "";

    @Test
    void durableAddsLoseNothingWhenTheMasterOfTheirSlotDies(TestRedis redis) throws InterruptedException {
        assumeTrue(redis.isCluster(), "runs under the cluster profile (mvn -Pcluster), on a cluster of its own");
        assumeTrue(RedisClusterFixture.available(), "needs redis-server and redis-cli");
        try (RedisClusterFixture cluster = RedisClusterFixture.start()) {
            String plainName = "failover-plain";
            int master = cluster.masterPortOf("bp:{" + plainName + "}:wait");
            String durableName = sameMaster(cluster, master);
            RedissonClient redisson = cluster.newClient();
            // One producer thread per queue: a durable add waits for its replica, a plain one does not.
            ScheduledExecutorService producer = Executors.newScheduledThreadPool(2);
            try (Worker<String, String> plainWorker = worker(redisson, plainName, "plain");
                 Worker<String, String> durableWorker = worker(redisson, durableName, "durable")) {
                Queue<String> plain = Queue.builder(redisson, plainName, String.class).build();
                Queue<String> durable = Queue.builder(redisson, durableName, String.class)
                        .durableAdds(1, Duration.ofSeconds(2)).build();
                producer.scheduleWithFixedDelay(() -> addOne(plain, "plain"), 0, 5, TimeUnit.MILLISECONDS);
                producer.scheduleWithFixedDelay(() -> addOne(durable, "durable"), 0, 5, TimeUnit.MILLISECONDS);
                await("jobs flow before the crash").atMost(Duration.ofSeconds(30))
                        .until(() -> completed.get("durable").size() >= 100 && completed.get("plain").size() >= 100);

                // The replica hangs for a while before the crash: the master goes on acknowledging plain
                // adds it cannot replicate (asynchronous replication), while durable adds wait for the
                // replica and, after their timeout, throw instead of being acknowledged.
                int replica = cluster.replicaPortsOf(master).get(0);
                int ackedBeforeHang = acknowledged.get("plain").size();
                cluster.suspend(replica);
                padding = "x".repeat(64 * 1024);
                await("plain adds acknowledged while the replica hangs").atMost(Duration.ofSeconds(60))
                        .until(() -> acknowledged.get("plain").size() >= ackedBeforeHang + 300);
                padding = "";
                long killedAt = System.currentTimeMillis();
                sequenceAtFailover = sequence.get();
                cluster.kill(master);
                cluster.resume(replica);
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

                long lostDurable = settle("durable", Duration.ofSeconds(30));
                long lostPlain = settle("plain", Duration.ofSeconds(5));
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
                assertThat(lostPlain).as("plain adds acknowledged while the replica hung are gone with the master")
                        .isPositive();
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
                    String data = ctx.job().data();
                    String id = data.indexOf(' ') > 0 ? data.substring(0, data.indexOf(' ')) : data;
                    completed.get(kind).add(id);
                    int n = Integer.parseInt(id.substring(2));
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
            if (kind.equals("plain") && !padding.isEmpty()) {
                // Due after the crash, so the worker cannot have run it on the old master.
                queue.add("order", data + " " + padding, JobOptions.builder().delay(Duration.ofSeconds(3)).build());
            } else {
                queue.add("order", data);
            }
            acknowledged.get(kind).add(data);
        } catch (RuntimeException e) {
            failedAdds.incrementAndGet();
            lastAddError.put(kind, e.toString());
        }
    }

    /** Acknowledged jobs still not completed once every acknowledged job had its chance (at most {@code limit}). */
    private long settle(String kind, Duration limit) {
        try {
            await().atMost(limit).pollInterval(Duration.ofMillis(200))
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
