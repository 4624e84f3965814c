package io.bullpen.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Queue;
import io.bullpen.QueueEvents;
import io.bullpen.testing.QueueInvariant;
import io.bullpen.worker.Worker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scenario 1: a worker JVM is killed with SIGKILL again and again while a producer adds jobs
 * steadily, and is started again after each kill; two in-process workers share the queue. No
 * acknowledged job may be lost; the jobs the dead JVM held are run again (duplicates, counted).
 */
@Tag("chaos")
class WorkerKillChaosTest extends ChaosRedisTest {
    private static final Logger log = LoggerFactory.getLogger(WorkerKillChaosTest.class);
    private static final Duration LOCK = Duration.ofSeconds(2);
    private static final int CHILD_CONCURRENCY = 4;
    private static final int JOB_MIN_MS = 10;
    private static final int JOB_MAX_MS = 60;
    private static final int MAX_STALLED = 3;
    private static final int GROUPS = 4;
    private static final int GROUP_CONCURRENCY = 2;

    private record Kill(String child, long atMillis, Path log) {
    }

    @Test
    void killNineOfAWorkerJvmLosesNoJob() throws Exception {
        killNine(0);
    }

    /**
     * The same under a global concurrency and group limits (jobs spread over 4 groups, default
     * group concurrency 2): live leases (sampled every 10 ms) never exceed either.
     */
    @Test
    void killNineUnderAGlobalConcurrencyAndGroupLimitsNeverExceedsThemAndLosesNoJob() throws Exception {
        killNine(10);
    }

    private void killNine(int globalConcurrency) throws Exception {
        int jobs = ChaosSupport.pick(2_000, 10_000);
        int kills = ChaosSupport.pick(4, 10);
        Duration produceOver = Duration.ofSeconds(ChaosSupport.pick(14, 40));
        String name = ChaosSupport.queueName("kill");
        RedissonClient producerClient = redis.newClient();
        RedissonClient workerClient = redis.newClient();
        Queue<Long> queue = ChaosSupport.queue(producerClient, name);
        ChaosLedger ledger = new ChaosLedger();
        List<Worker<Long, String>> workers = new ArrayList<>();
        List<Kill> done = new ArrayList<>();
        List<Path> logs = new ArrayList<>();
        Process child = null;
        long t0 = System.currentTimeMillis();
        LiveLeaseSampler sampler = globalConcurrency > 0
                ? LiveLeaseSampler.start(producerClient, name, () -> {
                    queue.setGlobalConcurrency(globalConcurrency);
                    queue.setDefaultGroupConcurrency(GROUP_CONCURRENCY);
                }) : null;
        try (QueueEvents events = ledger.listen(QueueEvents.builder(workerClient, name).build());
                SteadyProducer producer = new SteadyProducer(queue, ledger, jobs, globalConcurrency > 0 ? GROUPS : 0)) {
            for (int i = 0; i < 2; i++) {
                workers.add(ChaosSupport.worker(workerClient, name, "inproc-" + i, ledger, LOCK, 4, JOB_MIN_MS,
                        JOB_MAX_MS, MAX_STALLED).start());
            }
            producer.start(produceOver);
            for (int k = 1; k <= kills; k++) {
                String childName = "child-" + k;
                Path childLog = Files.createTempFile("bullpen-chaos-" + childName + "-", ".log");
                logs.add(childLog);
                Process running = startChild(name, childName, childLog);
                child = running;
                // Kill it once it is busy: it has taken a few jobs (or a few seconds passed, if the queue ran dry).
                long launched = System.currentTimeMillis();
                await(childName + " busy").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                        .until(() -> {
                            if (!running.isAlive()) {
                                throw new AssertionError(childName + " exited early: " + Files.readString(childLog));
                            }
                            long started = startsIn(childLog);
                            return started >= 20 || (started > 0 && System.currentTimeMillis() - launched > 5_000)
                                    || System.currentTimeMillis() - launched > 15_000;
                        });
                TimeUnit.MILLISECONDS.sleep(ThreadLocalRandom.current().nextInt(100, 600)); // fault-injection interval
                long killedAt = System.currentTimeMillis();
                running.destroyForcibly();
                assertThat(running.waitFor(10, TimeUnit.SECONDS)).isTrue();
                assertThat(running.exitValue()).as("exit status after SIGKILL").isEqualTo(137);
                done.add(new Kill(childName, killedAt, childLog));
                log.info("kill -9 #{} of {} after {} starts; producer has {} of {} jobs acknowledged", k, childName,
                        startsIn(childLog), producer.acked(), jobs);
            }
            // Restarted after the last kill too; it helps drain the queue.
            Path lastLog = Files.createTempFile("bullpen-chaos-child-last-", ".log");
            logs.add(lastLog);
            child = startChild(name, "child-last", lastLog);

            ChaosSupport.awaitDrained(queue, producer, Duration.ofSeconds(ChaosSupport.pick(120, 300)));
            long runMillis = System.currentTimeMillis() - t0;
            assertThat(events.isRunning()).as("the QueueEvents listener is still running").isTrue();
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
            // The liveness phase on the in-process workers, which recovered the killed ones' jobs.
            Trickle.run(queue, ledger, LOCK, globalConcurrency > 0 ? GROUPS : 0);
            for (Worker<Long, String> w : workers) {
                w.close(Duration.ofSeconds(10));
            }
            for (Path p : logs) {
                ledger.readChildLog(p);
            }

            ChaosLedger.Tally t = ledger.tally(producerClient, name);
            // Time to resume: for each kill, the jobs the killed JVM had started but that ended with
            // another worker, and how long after the kill the last of them finished.
            long worstRecovery = 0;
            int orphans = 0;
            for (Kill kill : done) {
                Set<String> started = startedIds(kill.log());
                long last = kill.atMillis();
                for (String id : started) {
                    Map<String, String> hash = t.snapshot.job(id);
                    if (hash == null || kill.child().equals(hash.get("pb"))) {
                        continue;
                    }
                    orphans++;
                    last = Math.max(last, Long.parseLong(hash.getOrDefault("finishedOn", "0")));
                }
                worstRecovery = Math.max(worstRecovery, last - kill.atMillis());
            }
            log.info("CHAOS scenario 1 (kill -9 of a worker JVM, {}): jobs {} acknowledged ({} adds failed), "
                            + "faults {} kills, lost {}, duplicated {} (jobs run twice or more {}; histogram {}), jobs "
                            + "finished elsewhere after a kill {}, time to resume (kill -> last orphan finished, worst) {} ms "
                            + "(lockDuration {} ms), completed {}, failed {}, stalled {}, run {} ms",
                    ChaosSupport.size(), t.acked, t.addFailures, done.size(), t.lost(), t.duplicated, t.jobsRunTwiceOrMore,
                    ChaosLedger.Tally.histogram(ledger.starts), orphans, worstRecovery, LOCK.toMillis(), t.completed,
                    t.failed, t.stalledInRedis, runMillis);

            QueueInvariant.assertHolds(t.snapshot);
            assertThat(t.lostIds).as("lost jobs (acknowledged, never completed or failed): %s", t.lostSample()).isEmpty();
            assertThat(t.acked).isEqualTo(jobs);
            assertThat(t.problems).as("jobs in contradictory states").isEmpty();
            assertThat(done).hasSize(kills);
            assertThat(t.starts).as("processor starts").isGreaterThanOrEqualTo(jobs);
            if (sampler != null) {
                log.info("global concurrency {}: at most {} live leases in {} samples", globalConcurrency,
                        sampler.max(), sampler.samples());
                assertThat(sampler.max()).as("live leases sampled every 10 ms").isLessThanOrEqualTo(globalConcurrency);
                assertThat(sampler.samples()).isGreaterThan(100);
                log.info("default group concurrency {}: at most {} live leases of one group", GROUP_CONCURRENCY,
                        sampler.maxPerGroup());
                assertThat(sampler.maxPerGroup()).as("live leases of one group").isBetween(1L, (long) GROUP_CONCURRENCY);
            }
        } finally {
            if (sampler != null) {
                sampler.close();
            }
            if (child != null) {
                child.destroyForcibly();
                child.waitFor(10, TimeUnit.SECONDS);
            }
            for (Worker<Long, String> w : workers) {
                w.close(Duration.ZERO);
            }
            for (Path p : logs) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static long startsIn(Path log) throws IOException {
        return Files.readAllLines(log, StandardCharsets.UTF_8).stream().filter(l -> l.startsWith("start ")).count();
    }

    private static Set<String> startedIds(Path log) throws IOException {
        Set<String> ids = new HashSet<>();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            if (line.startsWith("start ")) {
                ids.add(line.split(" ")[1]);
            }
        }
        return ids;
    }

    private static Process startChild(String queue, String childName, Path log) throws IOException {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = List.of(java, "-cp", System.getProperty("java.class.path"),
                "-Xmx128m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                ChaosWorkerMain.class.getName(), redis.uri(), queue, childName, String.valueOf(LOCK.toMillis()),
                String.valueOf(CHILD_CONCURRENCY), String.valueOf(JOB_MIN_MS), String.valueOf(JOB_MAX_MS),
                String.valueOf(MAX_STALLED), "600");
        // stdin stays a pipe from this JVM: the child halts when it closes (this JVM died).
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }
}
