package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bullpen.Backoff;
import io.bullpen.Job;
import io.bullpen.JobCounts;
import io.bullpen.JobOptions;
import io.bullpen.JobSpec;
import io.bullpen.Queue;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisClusterMaster;
import org.redisson.api.redisnode.RedisNode;
import org.redisson.api.redisnode.RedisNodes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Spreads 50 queues over a Redis Cluster, runs jobs through a worker per queue and checks that
 * every master holds queues, every job completes and no script call was refused or failed on any
 * master (no CROSSSLOT, no MOVED, no script error: Redis' own error counters, INFO errorstats).
 * Runs only on a cluster ({@code mvn -B verify -Pcluster ...} or {@code BULLPEN_TEST_REDIS=cluster}).
 */
@BullpenTest
class ClusterSpreadTest {
    private static final Logger log = LoggerFactory.getLogger(ClusterSpreadTest.class);

    private static final int QUEUES = 50;
    private static final int JOBS_PER_QUEUE = 20;
    /** Redis error reply prefixes that must never show up while Bullpen runs on a healthy cluster. */
    private static final List<String> FORBIDDEN_ERRORS = List.of("CROSSSLOT", "MOVED", "ASK", "ERR", "TRYAGAIN",
            "CLUSTERDOWN", "WRONGTYPE");

    @Test
    void fiftyQueuesSpreadOverEveryMasterAndEveryJobCompletes(BullpenTestContext ctx) throws Exception {
        assumeTrue(ctx.redis().isCluster(), "needs a Redis Cluster: run mvn -B verify -Pcluster or set "
                + "BULLPEN_TEST_REDIS=cluster (this server is " + ctx.redis().kind() + ")");
        RedissonClient redisson = ctx.redisson();
        List<RedisClusterMaster> masters = new ArrayList<>(redisson.getRedisNodes(RedisNodes.CLUSTER).getMasters());
        assertThat(masters).as("masters").hasSizeGreaterThanOrEqualTo(3);
        Map<String, Map<String, Long>> errorsBefore = errorStats(masters);
        Map<String, Long> scriptCallsBefore = scriptCalls(masters);

        List<Queue<String>> queues = new ArrayList<>();
        for (int q = 0; q < QUEUES; q++) {
            queues.add(Queue.builder(redisson, "spread-" + q + "-" + ctx.newQueueName(), String.class).build());
        }
        Map<String, AtomicInteger> flakyAttempts = new ConcurrentHashMap<>();
        List<Throwable> workerErrors = new CopyOnWriteArrayList<>();
        List<String> finalFailures = new CopyOnWriteArrayList<>();
        List<Worker<String, String>> workers = new ArrayList<>();
        long start = System.nanoTime();
        try {
            for (Queue<String> queue : queues) {
                workers.add(Worker.builder(redisson, queue.name(), String.class)
                        .processor(job -> {
                            String data = job.job().data();
                            if (data.startsWith("flaky") && flakyAttempts.computeIfAbsent(queue.name() + data,
                                    k -> new AtomicInteger()).incrementAndGet() == 1) {
                                throw new IllegalStateException("first attempt of " + data + " fails on purpose");
                            }
                            return "done-" + data;
                        })
                        .concurrency(2)
                        .listener(new WorkerListener<>() {
                            @Override
                            public void onFailed(Job<String> job, Throwable error, boolean finalFailure) {
                                if (finalFailure) {
                                    finalFailures.add(queue.name() + "/" + job.id() + ": " + error);
                                }
                            }

                            @Override
                            public void onError(Throwable error) {
                                workerErrors.add(error);
                            }
                        })
                        .build().start());
            }
            long workersUp = System.nanoTime();
            for (Queue<String> queue : queues) {
                addJobs(queue);
            }
            await("every job of " + QUEUES + " queues completed").atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> queues.stream().allMatch(q -> q.getJobCounts().completed() == JOBS_PER_QUEUE));
            long done = System.nanoTime();

            for (Queue<String> queue : queues) {
                JobCounts counts = queue.getJobCounts();
                assertThat(counts.completed()).as("completed in %s", queue.name()).isEqualTo(JOBS_PER_QUEUE);
                assertThat(counts.total()).as("jobs in %s", queue.name()).isEqualTo(JOBS_PER_QUEUE);
                ctx.assertInvariant(queue.name());
            }

            // Where the queues live: each queue's keys are in one slot, held by exactly one master.
            Map<String, List<String>> queuesByMaster = new TreeMap<>();
            for (Queue<String> queue : queues) {
                QueueSnapshot snapshot = ctx.snapshot(queue.name());
                int slot = redisson.getKeys().getSlot("bp:{" + queue.name() + "}:wait");
                List<String> holders = new ArrayList<>();
                for (RedisClusterMaster master : masters) {
                    long keys = master.clusterCountKeysInSlot(slot);
                    if (keys > 0) {
                        holders.add(address(master));
                        assertThat(keys).as("keys of %s in slot %d", queue.name(), slot)
                                .isGreaterThanOrEqualTo(snapshot.keys().size());
                    }
                }
                assertThat(holders).as("masters holding slot %d of %s", slot, queue.name()).hasSize(1);
                queuesByMaster.computeIfAbsent(holders.get(0), k -> new ArrayList<>()).add(queue.name());
            }
            Map<String, Long> dbSizes = new TreeMap<>();
            for (RedisClusterMaster master : masters) {
                dbSizes.put(address(master), master.size());
            }
            Map<String, Long> scriptCallsAfter = scriptCalls(masters);
            Map<String, Map<String, Long>> errorsAfter = errorStats(masters);
            StringBuilder perMaster = new StringBuilder();
            for (RedisClusterMaster master : masters) {
                String addr = address(master);
                perMaster.append(String.format("%n  master %s: %d queues, DBSIZE %d, %d script calls, errors %s", addr,
                        queuesByMaster.getOrDefault(addr, List.of()).size(), dbSizes.get(addr),
                        scriptCallsAfter.get(addr) - scriptCallsBefore.get(addr),
                        delta(errorsBefore.get(addr), errorsAfter.get(addr))));
            }
            log.info("cluster spread: {} masters, {} queues x {} jobs = {} jobs completed in {} ms (workers started in {} "
                    + "ms); worker errors {}, final failures {}{}", masters.size(), QUEUES, JOBS_PER_QUEUE,
                    QUEUES * JOBS_PER_QUEUE, (done - workersUp) / 1_000_000, (workersUp - start) / 1_000_000,
                    workerErrors.size(), finalFailures.size(), perMaster);

            assertThat(queuesByMaster.keySet()).as("masters holding queues").hasSize(masters.size());
            assertThat(workerErrors).as("errors reported by workers").isEmpty();
            assertThat(finalFailures).as("jobs failed for good").isEmpty();
            assertThat(flakyAttempts.values()).as("each flaky job ran twice").hasSize(QUEUES)
                    .allSatisfy(n -> assertThat(n.get()).isEqualTo(2));
            for (RedisClusterMaster master : masters) {
                String addr = address(master);
                Map<String, Long> errors = delta(errorsBefore.get(addr), errorsAfter.get(addr));
                for (String forbidden : FORBIDDEN_ERRORS) {
                    assertThat(errors.getOrDefault(forbidden, 0L)).as("%s errors on master %s", forbidden, addr)
                            .isZero();
                }
            }
        } finally {
            for (Worker<String, String> worker : workers) {
                worker.close();
            }
        }
    }

    /** 20 jobs: a bulk of 16 (a few prioritized), 2 single adds, a delayed one and one that fails once. */
    private static void addJobs(Queue<String> queue) {
        List<JobSpec<String>> bulk = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            bulk.add(i % 4 == 0
                    ? JobSpec.of("bulk", "p" + i, JobOptions.builder().priority(1 + i % 3).build())
                    : JobSpec.of("bulk", "b" + i));
        }
        queue.addBulk(bulk);
        queue.add("single", "s1");
        queue.add("single", "s2");
        queue.add("delayed", "d1", JobOptions.builder().delay(Duration.ofMillis(300)).build());
        queue.add("flaky", "flaky-1", JobOptions.builder().attempts(2)
                .backoff(Backoff.fixed(Duration.ofMillis(100))).build());
    }

    private static String address(RedisClusterMaster master) {
        return master.getAddr().getHostString() + ":" + master.getAddr().getPort();
    }

    /** Calls of EVALSHA, EVAL, FCALL and their _RO forms per master (INFO commandstats). */
    private static Map<String, Long> scriptCalls(List<RedisClusterMaster> masters) {
        Map<String, Long> calls = new HashMap<>();
        for (RedisClusterMaster master : masters) {
            long sum = 0;
            for (Map.Entry<String, String> e : master.info(RedisNode.InfoSection.COMMANDSTATS).entrySet()) {
                if (e.getKey().startsWith("cmdstat_eval") || e.getKey().startsWith("cmdstat_fcall")) {
                    sum += field(e.getValue(), "calls");
                }
            }
            calls.put(address(master), sum);
        }
        return calls;
    }

    /** INFO errorstats per master, as error prefix -> count (read on a raw connection: Redisson has no section). */
    private static Map<String, Map<String, Long>> errorStats(List<RedisClusterMaster> masters) throws IOException {
        Map<String, Map<String, Long>> stats = new HashMap<>();
        for (RedisClusterMaster master : masters) {
            String addr = address(master);
            Map<String, Long> counts = new HashMap<>();
            for (String line : RawRedis.call("redis://" + addr, "INFO", "errorstats").split("\r\n")) {
                if (line.startsWith("errorstat_")) {
                    int colon = line.indexOf(':');
                    counts.put(line.substring("errorstat_".length(), colon), field(line.substring(colon + 1), "count"));
                }
            }
            stats.put(addr, counts);
        }
        return stats;
    }

    private static long field(String stats, String name) {
        for (String part : stats.split(",")) {
            if (part.startsWith(name + "=")) {
                return Long.parseLong(part.substring(name.length() + 1));
            }
        }
        return 0;
    }

    private static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> delta = new TreeMap<>();
        after.forEach((k, v) -> {
            long d = v - before.getOrDefault(k, 0L);
            if (d != 0) {
                delta.put(k, d);
            }
        });
        return delta;
    }
}
