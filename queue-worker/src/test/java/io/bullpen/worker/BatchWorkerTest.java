package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.CancelResult;
import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobSpec;
import io.bullpen.JobState;
import io.bullpen.JobTimeoutException;
import io.bullpen.Queue;
import io.bullpen.RateLimitedException;
import io.bullpen.UnrecoverableJobException;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Batch workers on a real Redis: a batch processor gets up to {@code size} jobs per call, each
 * job keeps its own lock, attempts, backoff and events, and reports take effect when the
 * processor returns.
 */
@BullpenTest
class BatchWorkerTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private static Queue<Integer> queue(BullpenTestContext ctx) {
        return Queue.builder(ctx.redisson(), ctx.queueName(), Integer.class).build();
    }

    private static List<JobSpec<Integer>> specs(int from, int count, JobOptions options) {
        List<JobSpec<Integer>> specs = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            specs.add(JobSpec.of("row", i, options));
        }
        return specs;
    }

    /** Records every completed and failed event a worker's listener hears, by job id. */
    private static final class Ends implements WorkerListener<Integer, Object> {
        final Map<String, AtomicInteger> completed = new ConcurrentHashMap<>();
        final Map<String, AtomicInteger> failed = new ConcurrentHashMap<>();

        @Override
        public void onCompleted(Job<Integer> job, Object result) {
            completed.computeIfAbsent(job.id(), k -> new AtomicInteger()).incrementAndGet();
        }

        @Override
        public void onFailed(Job<Integer> job, Throwable error, boolean finalFailure) {
            failed.computeIfAbsent(job.id(), k -> new AtomicInteger()).incrementAndGet();
        }
    }

    @Test
    void batchPartialFailureEveryFailedJobRetriesAloneAndEveryJobCompletesOnce(BullpenTestContext ctx) {
        Queue<Integer> queue = queue(ctx);
        Map<Integer, AtomicInteger> runs = new ConcurrentHashMap<>();
        List<Integer> sizes = new CopyOnWriteArrayList<>();
        Ends ends = new Ends();
        List<Job<Integer>> jobs = queue.addBulk(specs(1, 100, JobOptions.builder().attempts(3).build()));
        try (Worker<Integer, Object> worker = Worker.builder(ctx.redisson(), queue.name(), Integer.class)
                .listener(ends)
                .batchProcessor((JobBatch<Integer, Object> batch) -> {
                    sizes.add(batch.jobs().size());
                    for (JobContext<Integer> job : batch.jobs()) {
                        int n = job.job().data();
                        runs.computeIfAbsent(n, k -> new AtomicInteger()).incrementAndGet();
                        if (n % 7 == 0 && job.job().attemptsMade() == 0) {
                            batch.fail(job, new IllegalStateException("row " + n + " rejected"));
                        }
                    }
                    return "stored";
                })
                .batch(JobBatchOptions.of(10))
                .concurrency(2)
                .build().start()) {
            await().atMost(WAIT).until(() -> queue.getJobCounts().completed() == 100);
            for (Job<Integer> added : jobs) {
                Job<Integer> job = queue.getJob(added.id()).orElseThrow();
                int n = job.data();
                boolean failedOnce = n % 7 == 0;
                assertThat(job.returnValueJson()).as("job %d", n).contains("\"stored\"");
                assertThat(job.attemptsMade()).as("job %d", n).isEqualTo(failedOnce ? 2 : 1);
                assertThat(runs.get(n).get()).as("runs of job %d: a failed job retries alone", n)
                        .isEqualTo(failedOnce ? 2 : 1);
                assertThat(ends.completed.get(added.id()).get()).as("completed events of job %d", n).isEqualTo(1);
                assertThat(ends.failed.containsKey(added.id())).isEqualTo(failedOnce);
            }
            assertThat(sizes).allMatch(s -> s >= 1 && s <= 10);
            assertThat(sizes).contains(10);
            await().atMost(WAIT).until(() -> worker.activeCount() == 0);
            ctx.assertInvariant(queue.name());
        }
    }

    @Test
    void aBatchTakesOneConcurrencySlot(BullpenTestContext ctx) {
        Queue<Integer> queue = queue(ctx);
        AtomicInteger runningBatches = new AtomicInteger();
        AtomicInteger maxRunningBatches = new AtomicInteger();
        queue.addBulk(specs(1, 60, JobOptions.defaults()));
        try (Worker<Integer, Object> worker = Worker.builder(ctx.redisson(), queue.name(), Integer.class)
                .batchProcessor((JobBatch<Integer, Object> batch) -> {
                    maxRunningBatches.accumulateAndGet(runningBatches.incrementAndGet(), Math::max);
                    Thread.sleep(30);
                    runningBatches.decrementAndGet();
                    return null;
                })
                .batch(JobBatchOptions.of(5))
                .concurrency(2)
                .build().start()) {
            await().atMost(WAIT).until(() -> queue.getJobCounts().completed() == 60);
            assertThat(maxRunningBatches.get()).isEqualTo(2);
        }
    }

    @Test
    void aLoneJobWaitsForMinSizeAtMostMaxWaitAndABulkReachingMinSizeRunsAtOnce(BullpenTestContext ctx) {
        Queue<Integer> queue = queue(ctx);
        List<Long> startedAt = new CopyOnWriteArrayList<>();
        List<Integer> sizes = new CopyOnWriteArrayList<>();
        long maxWaitMs = 1_500;
        try (Worker<Integer, Object> worker = Worker.builder(ctx.redisson(), queue.name(), Integer.class)
                .batchProcessor((JobBatch<Integer, Object> batch) -> {
                    startedAt.add(System.nanoTime());
                    sizes.add(batch.jobs().size());
                    return null;
                })
                .batch(JobBatchOptions.of(10).minSize(5).maxWait(Duration.ofMillis(maxWaitMs)))
                .build().start()) {
            long added = System.nanoTime();
            queue.add("row", 1);
            await().atMost(WAIT).until(() -> startedAt.size() == 1);
            long waitedMs = (startedAt.get(0) - added) / 1_000_000;
            assertThat(waitedMs).as("a lone job runs after maxWait, not before").isGreaterThanOrEqualTo(maxWaitMs - 50)
                    .isLessThan(maxWaitMs + 2_000);
            assertThat(sizes.get(0)).isEqualTo(1);

            long bulk = System.nanoTime();
            queue.addBulk(specs(2, 5, JobOptions.defaults()));
            await().atMost(WAIT).until(() -> queue.getJobCounts().completed() == 6);
            assertThat(sizes).containsExactly(1, 5);
            assertThat((startedAt.get(1) - bulk) / 1_000_000).as("5 jobs reach minSize: no wait")
                    .isLessThan(maxWaitMs - 500);
        }
    }

    @Test
    void aThrowEndsEachUnreportedJobAsIfItsOwnProcessorHadThrownIt(BullpenTestContext ctx) {
        Queue<Integer> queue = queue(ctx);
        JobOptions three = JobOptions.builder().attempts(3).build();
        Job<Integer> reportedDone = queue.add("row", 1, three);
        Job<Integer> reportedUnrecoverable = queue.add("row", 2, three);
        Job<Integer> unreported = queue.add("row", 3, three);
        Job<Integer> limited = queue.add("row", 4, three);
        AtomicInteger calls = new AtomicInteger();
        try (Worker<Integer, Object> worker = Worker.builder(ctx.redisson(), queue.name(), Integer.class)
                .batchProcessor((JobBatch<Integer, Object> batch) -> {
                    int call = calls.incrementAndGet();
                    for (JobContext<Integer> job : batch.jobs()) {
                        switch (job.job().data()) {
                            case 1 -> batch.complete(job, "one");
                            case 2 -> batch.fail(job, new UnrecoverableJobException("bad row 2"));
                            case 4 -> {
                                if (job.job().attemptsMade() == 0 && call == 1) {
                                    batch.fail(job, new RateLimitedException(Duration.ofMillis(50)));
                                }
                            }
                            default -> { }
                        }
                    }
                    if (batch.jobs().stream().anyMatch(j -> j.job().data() == 3 && j.job().attemptsMade() == 0)) {
                        throw new IllegalStateException("database down");
                    }
                    return "later";
                })
                .batch(JobBatchOptions.of(10).minSize(4).maxWait(Duration.ofMillis(500)))
                .build().start()) {
            await().atMost(WAIT).until(() -> queue.getState(unreported.id()) == JobState.COMPLETED
                    && queue.getState(limited.id()) == JobState.COMPLETED);
            assertThat(queue.getJob(reportedDone.id()).orElseThrow().returnValueJson()).contains("\"one\"");
            Job<Integer> unrecoverable = queue.getJob(reportedUnrecoverable.id()).orElseThrow();
            assertThat(queue.getState(unrecoverable.id())).isEqualTo(JobState.FAILED);
            assertThat(unrecoverable.failedReason()).hasValue("bad row 2");
            assertThat(unrecoverable.attemptsMade()).as("no retry although attempts is 3").isEqualTo(1);
            Job<Integer> retried = queue.getJob(unreported.id()).orElseThrow();
            assertThat(retried.attemptsMade()).as("one failed attempt, then the completed one").isEqualTo(2);
            assertThat(retried.stacktrace()).anyMatch(s -> s.contains("database down"));
            assertThat(queue.getJob(limited.id()).orElseThrow().attemptsMade())
                    .as("a rate-limited job used no attempt").isEqualTo(1);
            ctx.assertInvariant(queue.name());
        }
    }

    @Test
    void reportingAJobTwiceOrAForeignJobThrowsAndDelayAndWaitForChildrenAreRefused(BullpenTestContext ctx) {
        Queue<Integer> queue = queue(ctx);
        Map<String, Throwable> seen = new ConcurrentHashMap<>();
        AtomicReference<JobContext<Integer>> first = new AtomicReference<>();
        try (Worker<Integer, Object> worker = Worker.builder(ctx.redisson(), queue.name(), Integer.class)
                .batchProcessor((JobBatch<Integer, Object> batch) -> {
                    JobContext<Integer> job = batch.jobs().get(0);
                    if (first.compareAndSet(null, job)) {
                        batch.complete(job, "first");
                        seen.put("twice", catchThrown(() -> batch.fail(job, new RuntimeException("again"))));
                        seen.put("delay", catchThrown(() -> job.delay(Duration.ofSeconds(1))));
                        seen.put("waitForChildren", catchThrown(job::waitForChildren));
                        job.updateData(41);
                        return "unused";
                    }
                    seen.put("foreign", catchThrown(() -> batch.complete(first.get(), "x")));
                    return "second";
                })
                .build().start()) {
            Job<Integer> a = queue.add("row", 1);
            await().atMost(WAIT).until(() -> queue.getState(a.id()) == JobState.COMPLETED);
            Job<Integer> b = queue.add("row", 2);
            await().atMost(WAIT).until(() -> queue.getState(b.id()) == JobState.COMPLETED);
            assertThat(seen.get("twice")).isInstanceOf(IllegalStateException.class).hasMessageContaining(a.id());
            assertThat(seen.get("delay")).isInstanceOf(UnsupportedOperationException.class);
            assertThat(seen.get("waitForChildren")).isInstanceOf(UnsupportedOperationException.class);
            assertThat(seen.get("foreign")).isInstanceOf(IllegalArgumentException.class);
            Job<Integer> done = queue.getJob(a.id()).orElseThrow();
            assertThat(done.returnValueJson()).contains("\"first\"");
            assertThat(done.data()).as("updateData works per job").isEqualTo(41);
        }
    }

    private static Throwable catchThrown(Runnable r) {
        try {
            r.run();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }

    @Test
    void atTheEarliestTimeoutOfItsJobsTheUnreportedJobsFailWithJobTimeoutException(BullpenTestContext ctx) {
        Queue<Integer> queue = queue(ctx);
        CountDownLatch interrupted = new CountDownLatch(1);
        try (Worker<Integer, Object> worker = Worker.builder(ctx.redisson(), queue.name(), Integer.class)
                .batchProcessor((JobBatch<Integer, Object> batch) -> {
                    for (JobContext<Integer> job : batch.jobs()) {
                        if (job.job().data() == 1) {
                            batch.complete(job, "reported");
                        }
                    }
                    try {
                        Thread.sleep(60_000);
                    } catch (InterruptedException e) {
                        interrupted.countDown();
                        throw e;
                    }
                    return "late";
                })
                .batch(JobBatchOptions.of(10).minSize(3).maxWait(Duration.ofSeconds(5)))
                .build().start()) {
            long added = System.nanoTime();
            List<Job<Integer>> jobs = queue.addBulk(List.of(
                    JobSpec.of("row", 1, JobOptions.defaults()),
                    JobSpec.of("row", 2, JobOptions.builder().timeout(Duration.ofMillis(400)).build()),
                    JobSpec.of("row", 3, JobOptions.builder().timeout(Duration.ofSeconds(30)).build())));
            await().atMost(WAIT).until(() -> queue.getState(jobs.get(2).id()) == JobState.FAILED);
            assertThat((System.nanoTime() - added) / 1_000_000).as("the batch's deadline is its earliest timeout")
                    .isLessThan(5_000);
            assertThat(queue.getState(jobs.get(0).id())).isEqualTo(JobState.COMPLETED);
            assertThat(queue.getJob(jobs.get(0).id()).orElseThrow().returnValueJson()).contains("\"reported\"");
            for (Job<Integer> j : jobs.subList(1, 3)) {
                assertThat(queue.getState(j.id())).isEqualTo(JobState.FAILED);
                assertThat(queue.getJob(j.id()).orElseThrow().failedReason()).get().asString().contains("timed out");
            }
            await().atMost(WAIT).until(() -> interrupted.getCount() == 0);
            await().atMost(WAIT).until(() -> worker.activeCount() == 0);
            ctx.assertInvariant(queue.name());
        }
    }

    @Test
    void withSameGroupEveryBatchHoldsJobsOfOneGroup(BullpenTestContext ctx) {
        Queue<Integer> queue = queue(ctx);
        List<Set<String>> groupsPerBatch = new CopyOnWriteArrayList<>();
        List<JobSpec<Integer>> specs = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            String group = i % 4 == 3 ? null : "g" + (i % 3);
            specs.add(JobSpec.of("row", i, group == null ? JobOptions.defaults() : JobOptions.builder().group(group).build()));
        }
        queue.addBulk(specs);
        try (Worker<Integer, Object> worker = Worker.builder(ctx.redisson(), queue.name(), Integer.class)
                .batchProcessor((JobBatch<Integer, Object> batch) -> {
                    Set<String> groups = ConcurrentHashMap.newKeySet();
                    batch.jobs().forEach(j -> groups.add(j.job().options().group().orElse("(none)")));
                    groupsPerBatch.add(groups);
                    return null;
                })
                .batch(JobBatchOptions.of(8).sameGroup(true))
                .concurrency(2)
                .build().start()) {
            await().atMost(WAIT).until(() -> queue.getJobCounts().completed() == 60);
            assertThat(groupsPerBatch).allMatch(g -> g.size() == 1);
            ctx.assertInvariant(queue.name());
        }
    }

    @Test
    void aCancelledJobLeavesItsBatchAndTheOthersComplete(BullpenTestContext ctx) {
        Queue<Integer> queue = queue(ctx);
        CountDownLatch started = new CountDownLatch(1);
        try (Worker<Integer, Object> worker = Worker.builder(ctx.redisson(), queue.name(), Integer.class)
                .batchProcessor((JobBatch<Integer, Object> batch) -> {
                    started.countDown();
                    JobContext<Integer> first = batch.jobs().get(0);
                    long until = System.nanoTime() + 10_000_000_000L;
                    while (!first.isCancelled() && System.nanoTime() < until) {
                        Thread.sleep(10);
                    }
                    return "done";
                })
                .batch(JobBatchOptions.of(10).minSize(2).maxWait(Duration.ofSeconds(5)))
                .build().start()) {
            List<Job<Integer>> jobs = queue.addBulk(specs(1, 2, JobOptions.builder().attempts(3).build()));
            await().atMost(WAIT).until(() -> started.getCount() == 0);
            String cancelled = jobs.get(0).id();
            assertThat(queue.cancel(cancelled, "user asked")).isEqualTo(CancelResult.CANCEL_REQUESTED);
            await().atMost(WAIT).until(() -> queue.getState(cancelled) == JobState.FAILED
                    && queue.getState(jobs.get(1).id()) == JobState.COMPLETED);
            Job<Integer> failed = queue.getJob(cancelled).orElseThrow();
            assertThat(failed.failedReason()).get().asString().contains("cancelled: user asked");
            assertThat(failed.attemptsMade()).isEqualTo(1);
            ctx.assertInvariant(queue.name());
        }
    }

    @Test
    void closeHandsBackTheJobsOfABatchThatHasNotStarted(BullpenTestContext ctx) {
        Queue<Integer> queue = queue(ctx);
        AtomicInteger batches = new AtomicInteger();
        Worker<Integer, Object> worker = Worker.builder(ctx.redisson(), queue.name(), Integer.class)
                .batchProcessor((JobBatch<Integer, Object> batch) -> {
                    batches.incrementAndGet();
                    return null;
                })
                .batch(JobBatchOptions.of(10).minSize(10).maxWait(Duration.ofSeconds(60)))
                .build().start();
        List<Job<Integer>> jobs = queue.addBulk(specs(1, 3, JobOptions.defaults()));
        await().atMost(WAIT).until(() -> worker.activeCount() == 3);
        long closing = System.nanoTime();
        worker.close();
        assertThat((System.nanoTime() - closing) / 1_000_000).as("close does not wait for a forming batch")
                .isLessThan(5_000);
        for (Job<Integer> j : jobs) {
            assertThat(queue.getState(j.id())).isEqualTo(JobState.WAITING);
            assertThat(queue.getJob(j.id()).orElseThrow().attemptsStarted()).as("given back unstarted").isZero();
        }
        assertThat(batches.get()).isZero();
        ctx.assertInvariant(queue.name());
    }

    @Test
    void aJobInAFormingBatchPastItsExpiryDeadlineDoesNotRun(BullpenTestContext ctx) {
        Queue<Integer> queue = queue(ctx);
        Set<Integer> ran = ConcurrentHashMap.newKeySet();
        try (Worker<Integer, Object> worker = Worker.builder(ctx.redisson(), queue.name(), Integer.class)
                .batchProcessor((JobBatch<Integer, Object> batch) -> {
                    batch.jobs().forEach(j -> ran.add(j.job().data()));
                    return null;
                })
                .batch(JobBatchOptions.of(10).minSize(5).maxWait(Duration.ofMillis(800)))
                .build().start()) {
            Job<Integer> otp = queue.add("otp", 1, JobOptions.builder().expireAfter(Duration.ofMillis(300)).build());
            Job<Integer> plain = queue.add("row", 2);
            await().atMost(WAIT).until(() -> queue.getState(otp.id()) == JobState.FAILED
                    && queue.getState(plain.id()) == JobState.COMPLETED);
            assertThat(queue.getJob(otp.id()).orElseThrow().failedReason()).hasValue("expired");
            assertThat(ran).containsExactly(2);
            ctx.assertInvariant(queue.name());
        }
    }

    @Test
    void rateLimitsCountJobsNotBatches(BullpenTestContext ctx) {
        Queue<Integer> queue = queue(ctx);
        queue.setRateLimit(io.bullpen.RateLimit.of(5, Duration.ofSeconds(1)));
        AtomicLong firstStart = new AtomicLong();
        List<Integer> sizes = new CopyOnWriteArrayList<>();
        queue.addBulk(specs(1, 12, JobOptions.defaults()));
        try (Worker<Integer, Object> worker = Worker.builder(ctx.redisson(), queue.name(), Integer.class)
                .batchProcessor((JobBatch<Integer, Object> batch) -> {
                    firstStart.compareAndSet(0, System.nanoTime());
                    sizes.add(batch.jobs().size());
                    return null;
                })
                .batch(JobBatchOptions.of(10))
                .build().start()) {
            await().atMost(WAIT).until(() -> queue.getJobCounts().completed() == 12);
            long tookMs = (System.nanoTime() - firstStart.get()) / 1_000_000;
            assertThat(sizes).allMatch(s -> s <= 5);
            assertThat(tookMs).as("12 jobs at 5 per second take two more windows").isGreaterThanOrEqualTo(1_500);
        }
    }
}
