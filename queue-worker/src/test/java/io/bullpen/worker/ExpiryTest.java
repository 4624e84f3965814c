package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.bullpen.Deduplication;
import io.bullpen.Job;
import io.bullpen.JobFailedException;
import io.bullpen.JobOptions;
import io.bullpen.JobState;
import io.bullpen.MetricsType;
import io.bullpen.Queue;
import io.bullpen.RateLimit;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Jobs that must start by a deadline: a job still waiting in any state at its deadline ends in
 * failed with reason "expired", no attempt used, a failed event with expired = 1; a started job
 * never expires.
 */
@BullpenTest
class ExpiryTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private static Queue<String> queue(BullpenTestContext ctx) {
        return Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
    }

    private static Worker<String, String> worker(Queue<String> queue, BullpenTestContext ctx, List<String> ran) {
        return Worker.builder(ctx.redisson(), queue.name(), String.class)
                .processor(c -> {
                    ran.add(c.job().id());
                    return "ok";
                }).build().start();
    }

    private static Map<String, String> failedEvent(BullpenTestContext ctx, String queue, String jobId) {
        return ctx.snapshot(queue).events().stream()
                .filter(e -> "failed".equals(e.get("event")) && jobId.equals(e.get("jobId")))
                .findFirst().orElseThrow();
    }

    private static void assertExpired(BullpenTestContext ctx, Queue<String> queue, Job<String> job, String prev) {
        await().atMost(WAIT).until(() -> queue.getState(job.id()) == JobState.FAILED);
        Job<String> failed = queue.getJob(job.id()).orElseThrow();
        assertThat(failed.failedReason()).hasValue("expired");
        assertThat(failed.attemptsMade()).isZero();
        assertThat(failedEvent(ctx, queue.name(), job.id()))
                .containsEntry("expired", "1").containsEntry("attemptsMade", "0").containsEntry("prev", prev);
        ctx.assertInvariant(queue.name());
    }

    @Test
    void aWaitingJobOfAPausedQueueExpiresAtItsDeadline(BullpenTestContext ctx) {
        Queue<String> queue = queue(ctx);
        List<String> ran = new CopyOnWriteArrayList<>();
        queue.pause();
        try (Worker<String, String> w = worker(queue, ctx, ran)) {
            Job<String> job = queue.add("otp", "x", JobOptions.builder().expireAfter(Duration.ofMillis(300))
                    .attempts(3).build());
            Job<String> plain = queue.add("plain", "y");
            assertExpired(ctx, queue, job, "waiting");
            assertThat(queue.getJobCounts().waiting()).isEqualTo(1);
            assertThat(queue.getMetrics(MetricsType.FAILED, 5).total()).isEqualTo(1);
            queue.resume();
            await().atMost(WAIT).until(() -> queue.getState(plain.id()) == JobState.COMPLETED);
            assertThat(ran).containsExactly(plain.id());
        }
    }

    @Test
    void aDelayedJobExpiresAfterItsDelayPlusExpireAfter(BullpenTestContext ctx) {
        Queue<String> queue = queue(ctx);
        List<String> ran = new CopyOnWriteArrayList<>();
        try (Worker<String, String> w = worker(queue, ctx, ran)) {
            Job<String> job = queue.add("d", "x", JobOptions.builder().delay(Duration.ofSeconds(30))
                    .expireAt(Instant.now().plusMillis(300)).build());
            assertExpired(ctx, queue, job, "delayed");
            assertThat(queue.getJobCounts().delayed()).isZero();
            assertThat(ran).isEmpty();
        }
    }

    @Test
    void prioritizedAndRateLimitedJobsExpire(BullpenTestContext ctx) {
        Queue<String> queue = queue(ctx);
        queue.setRateLimit(RateLimit.of(1, Duration.ofSeconds(30)));
        List<String> ran = new CopyOnWriteArrayList<>();
        try (Worker<String, String> w = worker(queue, ctx, ran)) {
            Job<String> first = queue.add("first", "a");
            await().atMost(WAIT).until(() -> queue.getState(first.id()) == JobState.COMPLETED);
            Job<String> limited = queue.add("limited", "b", JobOptions.builder().expireAfter(Duration.ofMillis(300)).build());
            Job<String> prioritized = queue.add("prio", "c", JobOptions.builder().priority(5)
                    .expireAfter(Duration.ofMillis(400)).build());
            assertExpired(ctx, queue, limited, "waiting");
            assertExpired(ctx, queue, prioritized, "prioritized");
            assertThat(queue.getJobCounts().prioritized()).isZero();
            assertThat(ran).containsExactly(first.id());
        }
    }

    @Test
    void aGroupedJobOfAPausedGroupExpires(BullpenTestContext ctx) {
        Queue<String> queue = queue(ctx);
        queue.pauseGroup("t1");
        List<String> ran = new CopyOnWriteArrayList<>();
        try (Worker<String, String> w = worker(queue, ctx, ran)) {
            Job<String> job = queue.add("g", "x", JobOptions.builder().group("t1")
                    .expireAfter(Duration.ofMillis(300)).build());
            assertExpired(ctx, queue, job, "waiting");
            assertThat(queue.getJobCounts().waiting()).isZero();
            queue.resumeGroup("t1");
            Job<String> next = queue.add("g", "y", JobOptions.builder().group("t1").build());
            await().atMost(WAIT).until(() -> queue.getState(next.id()) == JobState.COMPLETED);
            assertThat(ran).containsExactly(next.id());
        }
    }

    @Test
    void aStartedJobNeverExpiresAndItsRetriesFollowAttempts(BullpenTestContext ctx) {
        Queue<String> queue = queue(ctx);
        List<String> ran = new CopyOnWriteArrayList<>();
        try (Worker<String, String> w = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .processor(c -> {
                    ran.add(c.job().id());
                    if (ran.size() == 1) {
                        Thread.sleep(500);
                        throw new IllegalStateException("first attempt fails");
                    }
                    return "ok";
                }).build().start()) {
            Job<String> job = queue.add("j", "x", JobOptions.builder().attempts(2)
                    .expireAfter(Duration.ofMillis(200)).build());
            await().atMost(WAIT).until(() -> queue.getState(job.id()) == JobState.COMPLETED);
            assertThat(ran).hasSize(2);
            assertThat(ctx.snapshot(queue.name()).events()).noneMatch(e -> "failed".equals(e.get("event")));
        }
    }

    @Test
    void anExpiredJobReleasesItsDeduplicationIdAndFailsItsAwaiter(BullpenTestContext ctx) throws Exception {
        Queue<String> queue = queue(ctx);
        queue.pause();
        List<String> ran = new CopyOnWriteArrayList<>();
        try (Worker<String, String> w = worker(queue, ctx, ran)) {
            CompletableFuture<String> result = queue.addAndAwait("a", "x", JobOptions.builder()
                    .deduplication(Deduplication.of("otp-1")).expireAfter(Duration.ofMillis(300)).build(),
                    String.class, WAIT);
            await().atMost(WAIT).until(() -> queue.getDeduplicationJobId("otp-1").isPresent());
            assertThatThrownBy(() -> result.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(JobFailedException.class);
            assertThat(queue.getDeduplicationJobId("otp-1")).isEmpty();
            Job<String> again = queue.add("a", "x", JobOptions.builder().deduplication(Deduplication.of("otp-1")).build());
            assertThat(again.isDeduplicated()).isFalse();
        }
    }

    /** Lateness of the failed entry behind the deadline, over jobs whose deadlines are spread over 2 s. */
    @Test
    void expiryLatenessIsAFewMilliseconds(BullpenTestContext ctx) {
        Queue<String> queue = queue(ctx);
        queue.pause();
        List<String> ran = new CopyOnWriteArrayList<>();
        int n = 100;
        try (Worker<String, String> w = worker(queue, ctx, ran)) {
            List<Job<String>> jobs = new java.util.ArrayList<>();
            for (int i = 0; i < n; i++) {
                jobs.add(queue.add("p", "x", JobOptions.builder()
                        .expireAfter(Duration.ofMillis(200 + 20L * i)).build()));
            }
            await().atMost(WAIT).until(() -> queue.getJobCounts().failed() == n);
            // On Redis's clock: the failed event's stream id against the deadline (field xp).
            Map<String, Long> eventTimes = new java.util.HashMap<>();
            ctx.snapshot(queue.name()).events().stream().filter(e -> "failed".equals(e.get("event")))
                    .forEach(e -> eventTimes.put(e.get("jobId"), Long.parseLong(e.get("_id").split("-")[0])));
            long[] late = new long[n];
            for (int i = 0; i < n; i++) {
                String deadline = ctx.redisson().<String, String>getMap(
                        new io.bullpen.internal.KeyScheme(queue.prefix(), queue.name()).job(jobs.get(i).id()),
                        org.redisson.client.codec.StringCodec.INSTANCE).get("xp");
                late[i] = eventTimes.get(jobs.get(i).id()) - Long.parseLong(deadline);
            }
            java.util.Arrays.sort(late);
            System.out.printf("expiry lateness over %d jobs: min %d ms, p50 %d ms, p99 %d ms, max %d ms%n",
                    n, late[0], late[n / 2], late[(int) Math.ceil(n * 0.99) - 1], late[n - 1]);
            assertThat(late[0]).isGreaterThanOrEqualTo(0);
            assertThat(late[n / 2]).isLessThan(100);
        }
    }

    @Test
    void aSchedulersIterationsExpireOneAfterAnother(BullpenTestContext ctx) {
        Queue<String> queue = queue(ctx);
        queue.pause();
        List<String> ran = new CopyOnWriteArrayList<>();
        try (Worker<String, String> w = worker(queue, ctx, ran)) {
            queue.upsertJobScheduler("tick", io.bullpen.Repeat.every(Duration.ofMillis(300)).limit(3),
                    io.bullpen.JobTemplate.of("tick", "t", JobOptions.builder().expireAfter(Duration.ofMillis(100)).build()));
            await().atMost(WAIT).until(() -> queue.getJobCounts().failed() == 3);
            assertThat(ctx.snapshot(queue.name()).events().stream()
                    .filter(e -> "failed".equals(e.get("event")) && "1".equals(e.get("expired")))).hasSize(3);
            assertThat(ran).isEmpty();
        }
    }

    @Test
    void anExpiredFlowChildFailsItsParentOnAFailParentEdge(BullpenTestContext ctx) {
        String parents = ctx.newQueueName();
        Queue<String> children = queue(ctx);
        Queue<String> parentQueue = Queue.builder(ctx.redisson(), parents, String.class).build();
        children.pause();
        List<String> ran = new CopyOnWriteArrayList<>();
        io.bullpen.flow.FlowProducer flows = io.bullpen.flow.FlowProducer.builder(ctx.redisson()).build();
        try (Worker<String, String> w = worker(children, ctx, ran);
             Worker<String, String> p = worker(parentQueue, ctx, ran)) {
            io.bullpen.flow.JobNode root = flows.add(io.bullpen.flow.FlowJob.builder(parents, "parent", "p")
                    .options(JobOptions.builder().expireAfter(Duration.ofMillis(100)).build())
                    .child(io.bullpen.flow.FlowJob.builder(children.name(), "child", "c")
                            .options(JobOptions.builder().expireAfter(Duration.ofMillis(500)).build()).build(),
                            io.bullpen.flow.ChildFailure.FAIL_PARENT)
                    .build());
            await().atMost(WAIT).until(() -> parentQueue.getState(root.id()) == JobState.FAILED);
            assertThat(children.getJobCounts().failed()).isEqualTo(1);
            String reason = parentQueue.getJob(root.id()).orElseThrow().failedReason().orElseThrow();
            assertThat(reason).as("the parent failed by its child, not expired itself").contains("expired")
                    .isNotEqualTo("expired");
            assertThat(ran).isEmpty();
        }
    }

    @Test
    void aJobHeldByTakeAheadPastItsDeadlineDoesNotRun(BullpenTestContext ctx) throws Exception {
        Queue<String> queue = queue(ctx);
        List<String> ran = new CopyOnWriteArrayList<>();
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        try (Worker<String, String> w = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .concurrency(1).takeAhead(5).processor(c -> {
                    if (c.job().data().startsWith("block")) {
                        release.await();
                    }
                    ran.add(c.job().id());
                    return "ok";
                }).build().start()) {
            // Short jobs first, so the worker takes ahead.
            for (int i = 0; i < 300; i++) {
                queue.add("warm", "w");
            }
            await().atMost(WAIT).until(() -> queue.getJobCounts().completed() == 300);
            ran.clear();
            queue.pause();
            queue.add("block", "block");
            List<Job<String>> held = new java.util.ArrayList<>();
            for (int i = 0; i < 5; i++) {
                held.add(queue.add("otp", "x", JobOptions.builder().expireAfter(Duration.ofMillis(1_500)).build()));
            }
            queue.resume();
            await().atMost(WAIT).until(() -> w.buffered() > 0 && w.activeCount() == 1);
            List<String> buffered = held.stream().filter(j -> queue.getState(j.id()) == JobState.ACTIVE)
                    .map(Job::id).toList();
            assertThat(buffered).isNotEmpty();
            Thread.sleep(1_600); // hold them past their deadline: nothing to wait for but time itself
            release.countDown();
            for (String id : buffered) {
                await().atMost(WAIT).until(() -> queue.getState(id) == JobState.FAILED);
                assertThat(queue.getJob(id).orElseThrow().failedReason()).hasValue("expired");
                assertThat(failedEvent(ctx, queue.name(), id)).containsEntry("expired", "1");
            }
            assertThat(ran).doesNotContainAnyElementsOf(buffered);
            await().atMost(WAIT).until(() -> queue.getJobCounts().active() == 0);
            ctx.assertInvariant(queue.name());
        }
    }

    @Test
    void badValuesAreRefusedNamingTheValue() {
        assertThatThrownBy(() -> JobOptions.builder().expireAfter(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expireAfter");
        assertThatThrownBy(() -> JobOptions.builder().expireAfter(Duration.ofMillis(-5)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-5");
        assertThatThrownBy(() -> JobOptions.builder().expireAfter(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("null");
        assertThatThrownBy(() -> JobOptions.builder().expireAt(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expireAt");
    }
}
