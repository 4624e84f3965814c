package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A worker in a child JVM is killed with SIGKILL (kill -9) while it holds jobs: no close, no
 * shutdown hook, no last script call. Its locks simply stop being renewed. Another worker must
 * recover those jobs within about one lockDuration of the kill and complete every job; nothing
 * is lost and each held job shows exactly one stall and two started attempts.
 */
@BullpenTest
class WorkerCrashTest {
    private static final Duration LOCK = Duration.ofSeconds(1);
    private static final int CHILD_CONCURRENCY = 4;
    private static final int JOBS = 10;
    /** The child's jobs "work" far longer than the test runs, so they are held when it dies. */
    private static final long CHILD_JOB_MILLIS = 120_000;
    /** Safety net only: the child halts itself after this even if nobody kills it. */
    private static final long CHILD_MAX_LIFETIME_SECONDS = 180;
    private static final String CHILD_NAME = "crash-child";
    private static final String RESCUER_NAME = "rescuer";

    @Test
    void jobsHeldByAWorkerKilledWithSigkillAreRecoveredAndCompletedByAnother(BullpenTestContext ctx) throws Exception {
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < JOBS; i++) {
            ids.add(queue.add("crash", "job-" + i).id());
        }

        Path childLog = Files.createTempFile("bullpen-crash-child-", ".log");
        // On a cluster: every node, comma-separated (the child makes a cluster client of them).
        Process child = startChild(String.join(",", ctx.redis().nodeUris()), queue.name(), childLog);
        Worker<String, String> rescuer = null;
        try {
            // 1. The child takes jobs: observed in Redis, not from its output.
            await("child takes " + CHILD_CONCURRENCY + " jobs").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> {
                        assertChildAlive(child);
                        return queue.getJobCounts().active() == CHILD_CONCURRENCY;
                    });
            QueueSnapshot taken = ctx.snapshot(queue.name());
            Set<String> held = Collections.unmodifiableSet(new TreeSet<>(taken.active()));
            assertThat(held).hasSize(CHILD_CONCURRENCY);
            for (String id : held) {
                assertThat(taken.job(id)).containsEntry("pb", CHILD_NAME).containsEntry("ats", "1");
                assertThat(taken.lock(id)).isNotNull();
            }
            Map<String, Double> firstLeases = taken.leases();

            // 2. The child is alive and renewing: every held lease moves past its first expiry,
            //    and nothing stalls meanwhile (the locks outlive one lockDuration).
            await("child renews its locks").atMost(LOCK.multipliedBy(5)).pollInterval(Duration.ofMillis(20))
                    .until(() -> {
                        assertChildAlive(child);
                        Map<String, Double> leases = ctx.snapshot(queue.name()).leases();
                        return held.stream().allMatch(id -> leases.containsKey(id) && leases.get(id) > firstLeases.get(id)
                                + LOCK.toMillis() / 4.0);
                    });
            QueueSnapshot renewed = ctx.snapshot(queue.name());
            assertThat(renewed.active()).containsExactlyInAnyOrderElementsOf(held);
            held.forEach(id -> assertThat(renewed.job(id)).doesNotContainKey("stc"));

            // 3. kill -9.
            long killedAt = System.currentTimeMillis();
            child.destroyForcibly();
            assertThat(child.waitFor(10, TimeUnit.SECONDS)).as("child exits after SIGKILL").isTrue();
            assertThat(child.toHandle().isAlive()).isFalse();
            assertThat(child.exitValue()).as("exit status of a process killed by signal 9").isEqualTo(128 + 9);
            // Nothing of the child ran after the kill: its jobs are still active, still leased.
            assertThat(ctx.snapshot(queue.name()).active()).containsAll(held);

            // 4. A second worker, with a quick processor, in this JVM.
            Map<String, Long> recoveredAt = new ConcurrentHashMap<>();
            Map<String, Integer> completions = new ConcurrentHashMap<>();
            rescuer = Worker.builder(ctx.redisson(), queue.name(), String.class)
                    .name(RESCUER_NAME)
                    .concurrency(4)
                    .lockDuration(LOCK)
                    .stalledInterval(LOCK)
                    .maxStalledCount(1)
                    .processor(c -> "done by " + RESCUER_NAME)
                    .listener(new WorkerListener<>() {
                        @Override
                        public void onStalled(String jobId) {
                            recoveredAt.putIfAbsent(jobId, System.currentTimeMillis());
                        }

                        @Override
                        public void onCompleted(Job<String> job, String result) {
                            completions.merge(job.id(), 1, Integer::sum);
                        }
                    })
                    .build()
                    .start();

            // 5. The held jobs come back once their locks lapse; then every job completes.
            await("held jobs recovered").atMost(LOCK.plusSeconds(10)).pollInterval(Duration.ofMillis(10))
                    .until(() -> recoveredAt.keySet().containsAll(held));
            long recoveryMs = held.stream().mapToLong(recoveredAt::get).max().orElseThrow() - killedAt;
            await("all jobs completed").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                    .until(() -> queue.getJobCounts().completed() == JOBS);
            long allCompletedMs = System.currentTimeMillis() - killedAt;

            QueueSnapshot end = ctx.snapshot(queue.name());
            // The same figure from Redis's side: the ms part of each "stalled" event's stream id.
            long lastStalledEventMs = end.events().stream()
                    .filter(e -> "stalled".equals(e.get("event")))
                    .mapToLong(e -> Long.parseLong(e.get("_id").substring(0, e.get("_id").indexOf('-'))))
                    .max().orElseThrow();
            System.out.printf("crash test: killed child holding jobs %s; recovery %d ms after the kill "
                            + "(per stalled events: %d ms; lockDuration %d ms); all %d jobs completed %d ms after the kill%n",
                    held, recoveryMs, lastStalledEventMs - killedAt, LOCK.toMillis(), JOBS, allCompletedMs);

            assertThat(recoveryMs).as("recovery time after the kill (ms)").isLessThanOrEqualTo(LOCK.toMillis() + 2_000);
            assertThat(end.eventNames().stream().filter("stalled"::equals).count()).isEqualTo(held.size());
            assertThat(recoveredAt.keySet()).containsExactlyInAnyOrderElementsOf(held);
            for (String id : ids) {
                Job<String> job = queue.getJob(id).orElseThrow(() -> new AssertionError("job " + id + " was lost"));
                assertThat(queue.getState(id)).as("state of job %s", id).isEqualTo(JobState.COMPLETED);
                assertThat(job.processedBy()).as("processedBy of job %s", id).contains(RESCUER_NAME);
                assertThat(job.returnValue(String.class)).contains("done by " + RESCUER_NAME);
                assertThat(job.attemptsMade()).as("attemptsMade of job %s", id).isEqualTo(1);
                assertThat(completions.get(id)).as("completions of job %s", id).isEqualTo(1);
                if (held.contains(id)) {
                    assertThat(job.attemptsStarted()).as("attemptsStarted of held job %s", id).isEqualTo(2);
                    assertThat(job.stalledCount()).as("stalledCount of held job %s", id).isEqualTo(1);
                } else {
                    assertThat(job.attemptsStarted()).as("attemptsStarted of job %s", id).isEqualTo(1);
                    assertThat(job.stalledCount()).as("stalledCount of job %s", id).isZero();
                }
            }
            assertThat(queue.getJobCounts().total()).isEqualTo(JOBS);
            ctx.assertInvariant(queue.name());
        } catch (Throwable t) {
            System.err.println("---- child JVM output (" + childLog + ") ----\n" + read(childLog));
            throw t;
        } finally {
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
            if (rescuer != null) {
                rescuer.close(Duration.ofSeconds(5));
            }
            Files.deleteIfExists(childLog);
        }
        assertThat(child.toHandle().isAlive()).isFalse();
    }

    private static Process startChild(String redisUri, String queue, Path log) throws IOException {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = List.of(java,
                "-cp", System.getProperty("java.class.path"),
                "-Xmx128m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                CrashWorkerMain.class.getName(),
                redisUri, queue, CHILD_NAME, String.valueOf(LOCK.toMillis()), String.valueOf(CHILD_CONCURRENCY),
                String.valueOf(CHILD_JOB_MILLIS), String.valueOf(CHILD_MAX_LIFETIME_SECONDS));
        // stdin stays a pipe from this JVM: the child halts when it closes (this JVM died).
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    private static void assertChildAlive(Process child) {
        if (!child.isAlive()) {
            throw new AssertionError("the child JVM exited early with status " + child.exitValue());
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}
