package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobCounts;
import io.bullpen.JobOptions;
import io.bullpen.JobSpec;
import io.bullpen.Queue;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * At-least-once under churn: 5,000 jobs, 3 workers of 16 slots, processors that fail 30% of
 * attempts, 3 attempts per job, and workers force-closed ({@code close(Duration.ZERO)}) and
 * replaced at random every few hundred ms while the jobs run. At the end every job is completed,
 * or failed after its 3 attempts (or for stalling too often), the queue invariant holds, and no
 * job ran again after its completion was recorded. Duplicate runs (overlapping attempts of one
 * job, or a new attempt after one whose processor had succeeded but whose result was not recorded)
 * are allowed, and counted and printed.
 */
@BullpenTest
class NoLossPropertyTest {
    private static final int JOBS = 5_000;
    private static final int WORKERS = 3;
    private static final int CONCURRENCY = 16;
    private static final int ATTEMPTS = 3;
    private static final double FAIL_RATE = 0.3;
    /**
     * A few attempts are slow (longer than the lock, so only renewal keeps them) and ignore
     * interrupts: one caught in a forced close runs on without a renewed lock, so its job is
     * recovered and run again meanwhile, and its own late result must be rejected.
     */
    private static final double STUBBORN_RATE = 0.01;
    private static final long STUBBORN_MS = 1_200;
    private static final Duration LOCK = Duration.ofSeconds(1);
    private static final Duration STALLED_INTERVAL = Duration.ofMillis(500);
    private static final int MAX_STALLED = 5;
    private static final int CHAOS_MIN_MS = 150;
    private static final int CHAOS_MAX_MS = 450;
    private static final String STALLED_REASON = "stalled more than maxStalledCount";

    /** What the processors saw of one job. */
    private static final class Track {
        final List<Attempt> attempts = new ArrayList<>();
        int running;
        boolean processorSucceeded;
        long recordedCompletionFence = -1;
        int recordedCompletions;

        synchronized Attempt begin(long fence) {
            Attempt a = new Attempt(fence, running > 0, processorSucceeded,
                    recordedCompletionFence >= 0 && fence > recordedCompletionFence);
            attempts.add(a);
            running++;
            return a;
        }

        synchronized void end(Attempt a, Outcome outcome) {
            a.outcome = outcome;
            running--;
            if (outcome == Outcome.SUCCEEDED) {
                processorSucceeded = true;
            }
        }

        synchronized int started() {
            return attempts.size();
        }

        /** The fence of the latest attempt a processor started (-1 for none). */
        synchronized long lastFence() {
            return attempts.stream().mapToLong(a -> a.fence).max().orElse(-1);
        }

        synchronized Outcome outcome(long fence) {
            return attempts.stream().filter(a -> a.fence == fence).map(a -> a.outcome).findFirst().orElse(null);
        }

        synchronized void completionRecorded(long fence) {
            recordedCompletions++;
            recordedCompletionFence = Math.max(recordedCompletionFence, fence);
        }
    }

    private enum Outcome { SUCCEEDED, THREW, INTERRUPTED }

    /** Sleeps {@code millis} whatever interrupts arrive, then restores the interrupt flag. */
    private static void sleepIgnoringInterrupts(long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        boolean interrupted = false;
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(left);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static final class Attempt {
        final long fence;
        final boolean overlapped;
        final boolean afterProcessorSuccess;
        final boolean afterRecordedCompletion;
        Outcome outcome;

        Attempt(long fence, boolean overlapped, boolean afterProcessorSuccess, boolean afterRecordedCompletion) {
            this.fence = fence;
            this.overlapped = overlapped;
            this.afterProcessorSuccess = afterProcessorSuccess;
            this.afterRecordedCompletion = afterRecordedCompletion;
        }

        boolean duplicate() {
            return overlapped || afterProcessorSuccess;
        }
    }

    private final Map<String, Track> tracks = new ConcurrentHashMap<>();
    private final LongAdder interruptedFailuresRecorded = new LongAdder();
    private final LongAdder stalledRecoveries = new LongAdder();
    /** "id:fence" of every attempt whose result a worker recorded (completed or failed). */
    private final Set<String> recordedAttempts = ConcurrentHashMap.newKeySet();
    /** "id:fence" of every attempt a worker reported as having lost its lock. */
    private final Set<String> lockLostAttempts = ConcurrentHashMap.newKeySet();
    private final LongAdder workerErrors = new LongAdder();
    private final LongAdder stubbornAttempts = new LongAdder();
    private final AtomicInteger generation = new AtomicInteger();
    private final AtomicReferenceArray<Worker<Integer, String>> workers = new AtomicReferenceArray<>(WORKERS);
    private ScheduledExecutorService chaos;

    @AfterEach
    void tearDown() throws InterruptedException {
        if (chaos != null) {
            chaos.shutdownNow();
            chaos.awaitTermination(10, TimeUnit.SECONDS);
        }
        for (int i = 0; i < WORKERS; i++) {
            Worker<Integer, String> w = workers.get(i);
            if (w != null) {
                w.close(Duration.ofSeconds(5));
            }
        }
    }

    @Test
    void everyJobEndsCompletedOrFailedAfterItsAttemptsDespiteFailuresAndForcedCloses(BullpenTestContext ctx)
            throws InterruptedException {
        long t0 = System.nanoTime();
        Queue<Integer> queue = Queue.builder(ctx.redisson(), ctx.queueName(), Integer.class).build();
        JobOptions options = JobOptions.builder().attempts(ATTEMPTS).build();
        List<String> ids = new ArrayList<>(JOBS);
        for (int from = 0; from < JOBS; from += 500) {
            List<JobSpec<Integer>> batch = new ArrayList<>();
            for (int i = from; i < Math.min(JOBS, from + 500); i++) {
                batch.add(JobSpec.of("flaky", i, options));
            }
            queue.addBulk(batch).forEach(j -> ids.add(j.id()));
        }
        assertThat(new TreeSet<>(ids)).hasSize(JOBS);

        for (int i = 0; i < WORKERS; i++) {
            workers.set(i, newWorker(ctx, queue.name(), i).start());
        }
        AtomicInteger restarts = new AtomicInteger();
        chaos = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "chaos"));
        scheduleChaos(ctx, queue.name(), restarts);

        await("all jobs completed or failed").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    JobCounts c = queue.getJobCounts();
                    return c.completed() + c.failed() == JOBS;
                });
        long processingMs = (System.nanoTime() - t0) / 1_000_000;
        chaos.shutdownNow();
        assertThat(chaos.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        for (int i = 0; i < WORKERS; i++) {
            workers.get(i).close(Duration.ofSeconds(5));
        }

        // Counts and the invariant.
        JobCounts counts = queue.getJobCounts();
        assertThat(counts.completed() + counts.failed()).isEqualTo(JOBS);
        assertThat(counts.total()).isEqualTo(JOBS);
        QueueSnapshot end = ctx.snapshot(queue.name());
        ctx.assertInvariant(queue.name());
        assertThat(end.jobIds()).containsExactlyInAnyOrderElementsOf(ids);

        // Every job: completed, or failed after all its attempts (or for stalling too often).
        int failedExhausted = 0;
        int failedStalled = 0;
        int failedLastReasonInterrupt = 0;
        long startedInRedis = 0;
        long observed = 0;
        List<String> problems = new ArrayList<>();
        Set<String> completed = end.completed().keySet();
        Set<String> failed = end.failed().keySet();
        for (String id : ids) {
            Map<String, String> hash = end.job(id);
            int attemptsMade = intField(hash, "atm");
            int attemptsStarted = intField(hash, "ats");
            // The stored job keeps no fence (it lives in the attempt's lock): the latest attempt
            // any processor started stands for the latest take.
            long lastFence = tracks.containsKey(id) ? tracks.get(id).lastFence() : -1;
            startedInRedis += attemptsStarted;
            Track track = tracks.get(id);
            int seen = track == null ? 0 : track.started();
            observed += seen;
            if (seen > attemptsStarted) {
                problems.add("job " + id + " ran " + seen + " times but attemptsStarted is " + attemptsStarted);
            }
            if (completed.contains(id)) {
                if (attemptsMade < 1 || attemptsMade > ATTEMPTS) {
                    problems.add("completed job " + id + " has attemptsMade " + attemptsMade);
                }
                if (track == null || track.recordedCompletions != 1) {
                    problems.add("completed job " + id + " has " + (track == null ? 0 : track.recordedCompletions)
                            + " recorded completions");
                } else if (track.recordedCompletionFence != lastFence) {
                    problems.add("completed job " + id + " was taken again after its completion (completed with fence "
                            + track.recordedCompletionFence + ", last fence " + lastFence + ")");
                }
            } else if (failed.contains(id)) {
                String reason = hash.getOrDefault("failedReason", "");
                if (reason.contains(STALLED_REASON)) {
                    failedStalled++;
                } else if (attemptsMade == ATTEMPTS) {
                    failedExhausted++;
                    if (reason.contains("interrupted")) {
                        failedLastReasonInterrupt++;
                    }
                } else {
                    problems.add("failed job " + id + " has attemptsMade " + attemptsMade + " (reason: " + reason + ")");
                }
                if (track != null && track.recordedCompletions > 0) {
                    problems.add("failed job " + id + " had a recorded completion");
                }
            } else {
                problems.add("job " + id + " is neither completed nor failed");
            }
        }

        // Duplicates: allowed (at least once), counted.
        long overlapped = 0;
        long afterSuccess = 0;
        long duplicates = 0;
        long afterCompletion = 0;
        long interrupted = 0;
        for (Track t : tracks.values()) {
            synchronized (t) {
                for (Attempt a : t.attempts) {
                    overlapped += a.overlapped ? 1 : 0;
                    afterSuccess += a.afterProcessorSuccess ? 1 : 0;
                    duplicates += a.duplicate() ? 1 : 0;
                    afterCompletion += a.afterRecordedCompletion ? 1 : 0;
                    interrupted += a.outcome == Outcome.INTERRUPTED ? 1 : 0;
                }
            }
        }
        System.out.printf("no-loss property: %d jobs in %d ms with %d forced restarts; completed %d, failed %d "
                        + "(after %d attempts: %d, of which last reason an interrupt: %d; for stalling: %d)%n",
                JOBS, processingMs, restarts.get(), counts.completed(), counts.failed(), ATTEMPTS, failedExhausted,
                failedLastReasonInterrupt, failedStalled);
        // A lock reported lost although that same attempt's result was then recorded with its lock:
        // nothing was really lost (the renewal raced the attempt's own moveToFinished, or a later
        // attempt of the same job on the same worker was blamed for the earlier one's token).
        long lockLostButRecorded = lockLostAttempts.stream().filter(recordedAttempts::contains).count();
        long resultsRejected = lockLostAttempts.size() - lockLostButRecorded;
        // Worse: such an attempt whose processor was interrupted by the "loss" (a valid attempt cancelled).
        long validAttemptsCancelled = lockLostAttempts.stream().filter(recordedAttempts::contains).filter(key -> {
            int colon = key.indexOf(':');
            Track t = tracks.get(key.substring(0, colon));
            return t != null && t.outcome(Long.parseLong(key.substring(colon + 1))) == Outcome.INTERRUPTED;
        }).count();
        System.out.printf("no-loss property: attempts run by processors %d, attemptsStarted in Redis %d "
                        + "(taken but never run %d); processors interrupted %d, interrupted attempts recorded as "
                        + "failures %d; stalled recoveries %d; lock losses reported %d (of which the same attempt's result "
                        + "was recorded afterwards: %d, and interrupted by it: %d; results rejected: %d); slow attempts ignoring "
                        + "interrupts %d; worker errors %d%n",
                observed, startedInRedis, startedInRedis - observed, interrupted, interruptedFailuresRecorded.sum(),
                stalledRecoveries.sum(), lockLostAttempts.size(), lockLostButRecorded, validAttemptsCancelled,
                resultsRejected, stubbornAttempts.sum(), workerErrors.sum());
        System.out.printf("no-loss property: DUPLICATES %d (overlapping another attempt of the same job: %d; started "
                + "after an attempt whose processor had succeeded: %d); started after a recorded completion: %d%n",
                duplicates, overlapped, afterSuccess, afterCompletion);

        assertThat(problems).as("jobs breaking the property").isEmpty();
        assertThat(afterCompletion).as("attempts started after the job's completion was recorded").isZero();
        assertThat(counts.failed()).isEqualTo(failedExhausted + failedStalled);
    }

    private void scheduleChaos(BullpenTestContext ctx, String queue, AtomicInteger restarts) {
        long delay = ThreadLocalRandom.current().nextInt(CHAOS_MIN_MS, CHAOS_MAX_MS + 1);
        chaos.schedule(() -> {
            try {
                int slot = ThreadLocalRandom.current().nextInt(WORKERS);
                workers.get(slot).close(Duration.ZERO);
                workers.set(slot, newWorker(ctx, queue, slot).start());
                restarts.incrementAndGet();
            } catch (RuntimeException e) {
                System.err.println("chaos: restart failed: " + e);
            }
            if (!chaos.isShutdown()) {
                scheduleChaos(ctx, queue, restarts);
            }
        }, delay, TimeUnit.MILLISECONDS);
    }

    private Worker<Integer, String> newWorker(BullpenTestContext ctx, String queue, int slot) {
        return Worker.builder(ctx.redisson(), queue, Integer.class)
                .name("w" + slot + "-g" + generation.incrementAndGet())
                .concurrency(CONCURRENCY)
                .lockDuration(LOCK)
                .stalledInterval(STALLED_INTERVAL)
                .maxStalledCount(MAX_STALLED)
                .processor(c -> {
                    String id = c.job().id();
                    Track track = tracks.computeIfAbsent(id, k -> new Track());
                    Attempt attempt = track.begin(c.fencingToken());
                    try {
                        if (ThreadLocalRandom.current().nextDouble() < STUBBORN_RATE) {
                            stubbornAttempts.increment();
                            sleepIgnoringInterrupts(STUBBORN_MS);
                        } else {
                            Thread.sleep(ThreadLocalRandom.current().nextInt(0, 4)); // simulated work
                        }
                    } catch (InterruptedException e) {
                        track.end(attempt, Outcome.INTERRUPTED);
                        throw e;
                    }
                    if (ThreadLocalRandom.current().nextDouble() < FAIL_RATE) {
                        track.end(attempt, Outcome.THREW);
                        throw new IllegalStateException("random failure of job " + id);
                    }
                    track.end(attempt, Outcome.SUCCEEDED);
                    return "ok " + id;
                })
                .listener(new WorkerListener<>() {
                    @Override
                    public void onCompleted(Job<Integer> job, String result) {
                        tracks.computeIfAbsent(job.id(), k -> new Track()).completionRecorded(job.fencingToken());
                        recordedAttempts.add(job.id() + ":" + job.fencingToken());
                    }

                    @Override
                    public void onFailed(Job<Integer> job, Throwable error, boolean finalFailure) {
                        recordedAttempts.add(job.id() + ":" + job.fencingToken());
                        if (error instanceof InterruptedException) {
                            interruptedFailuresRecorded.increment();
                        }
                    }

                    @Override
                    public void onStalled(String jobId) {
                        stalledRecoveries.increment();
                    }

                    @Override
                    public void onLockLost(Job<Integer> job) {
                        lockLostAttempts.add(job.id() + ":" + job.fencingToken());
                    }

                    @Override
                    public void onError(Throwable error) {
                        workerErrors.increment();
                    }
                })
                .build();
    }

    private static int intField(Map<String, String> hash, String field) {
        return Integer.parseInt(hash.getOrDefault(field, "0"));
    }
}
