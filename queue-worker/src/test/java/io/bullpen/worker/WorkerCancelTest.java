package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.CancelResult;
import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.RateLimitedException;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.ScriptTypes.FetchArgs;
import io.bullpen.internal.Scripts;
import io.bullpen.internal.Futures;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Cancel from any process: the worker learns of a cancel of a job it runs, flags the
 * attempt and interrupts the processor; the job fails as cancelled without a retry, unless the
 * processor returns a value anyway.
 */
@BullpenTest
class WorkerCancelTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private static Queue<String> queue(BullpenTestContext ctx) {
        return Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
    }

    private static Map<String, String> lastFailedEvent(BullpenTestContext ctx, String queue) {
        return ctx.snapshot(queue).events().stream().filter(e -> "failed".equals(e.get("event")))
                .reduce((a, b) -> b).orElseThrow();
    }

    @Test
    void aProcessorBlockedInSleepIsInterruptedAndTheJobFailsAsCancelledWithoutARetry(BullpenTestContext ctx) {
        Queue<String> queue = queue(ctx);
        CountDownLatch started = new CountDownLatch(1);
        AtomicReference<String> seen = new AtomicReference<>();
        try (Worker<String, String> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .processor(c -> {
                    started.countDown();
                    try {
                        Thread.sleep(60_000);
                    } catch (InterruptedException e) {
                        seen.set(c.isCancelled() + " " + c.cancellationReason().orElse("none"));
                        throw e;
                    }
                    return "slept";
                }).build().start()) {
            Job<String> job = queue.add("long", "x", JobOptions.builder().attempts(3).build());
            await().atMost(WAIT).until(() -> started.getCount() == 0);

            assertThat(queue.cancel(job.id(), "user asked")).isEqualTo(CancelResult.CANCEL_REQUESTED);

            await().atMost(WAIT).until(() -> queue.getState(job.id()) == JobState.FAILED);
            Job<String> failed = queue.getJob(job.id()).orElseThrow();
            assertThat(failed.failedReason()).contains("cancelled: user asked");
            assertThat(failed.attemptsMade()).as("no retry although attempts is 3").isEqualTo(1);
            assertThat(seen.get()).isEqualTo("true user asked");
            assertThat(lastFailedEvent(ctx, queue.name())).containsEntry("cancelled", "1");
            await().atMost(WAIT).until(() -> worker.activeCount() == 0);
            ctx.assertInvariant(queue.name());
        }
    }

    @Test
    void aProcessorThatIgnoresTheInterruptAndReturnsCompletesTheJob(BullpenTestContext ctx) {
        Queue<String> queue = queue(ctx);
        CountDownLatch started = new CountDownLatch(1);
        try (Worker<String, String> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .processor(c -> {
                    started.countDown();
                    while (!c.isCancelled()) {
                        Thread.onSpinWait();
                    }
                    return "done anyway";
                }).build().start()) {
            Job<String> job = queue.add("spin", "x", JobOptions.builder().attempts(3).build());
            await().atMost(WAIT).until(() -> started.getCount() == 0);

            assertThat(queue.cancel(job.id(), "too late")).isEqualTo(CancelResult.CANCEL_REQUESTED);

            await().atMost(WAIT).until(() -> queue.getState(job.id()) == JobState.COMPLETED);
            assertThat(queue.getJob(job.id()).orElseThrow().returnValueJson()).contains("\"done anyway\"");
            ctx.assertInvariant(queue.name());
        }
    }

    @Test
    void workerCancelAppliesAtOnceToAJobItRunsAndRefusesOthers(BullpenTestContext ctx) throws Exception {
        Queue<String> queue = queue(ctx);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        AtomicReference<Optional<String>> reason = new AtomicReference<>();
        try (Worker<String, String> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .name("w-cancel")
                .processor(c -> {
                    started.countDown();
                    try {
                        Thread.sleep(60_000);
                    } catch (InterruptedException e) {
                        reason.set(c.cancellationReason());
                        interrupted.countDown();
                        throw e;
                    }
                    return "slept";
                }).build().start()) {
            Job<String> job = queue.add("long", "x", JobOptions.builder().attempts(2).build());
            await().atMost(WAIT).until(() -> started.getCount() == 0);

            assertThat(worker.cancel("no-such-job")).isFalse();
            assertThat(worker.cancel(job.id())).isTrue();
            assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(reason.get()).contains("cancelled by worker w-cancel");

            await().atMost(WAIT).until(() -> queue.getState(job.id()) == JobState.FAILED);
            assertThat(queue.getJob(job.id()).orElseThrow().failedReason())
                    .contains("cancelled: cancelled by worker w-cancel");
            assertThat(worker.cancel(job.id())).as("no longer run by this worker").isFalse();
        }
    }

    @Test
    void aCancelledProcessorThatAsksForARateLimitPutBackFailsAsCancelled(BullpenTestContext ctx) {
        Queue<String> queue = queue(ctx);
        CountDownLatch started = new CountDownLatch(1);
        try (Worker<String, Object> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .processor(c -> {
                    started.countDown();
                    await().atMost(WAIT).until(c::isCancelled);
                    throw new RateLimitedException(Duration.ofSeconds(5));
                }).build().start()) {
            Job<String> job = queue.add("limited", "x");
            await().atMost(WAIT).until(() -> started.getCount() == 0);

            queue.cancel(job.id(), "stop");

            await().atMost(WAIT).until(() -> queue.getState(job.id()) == JobState.FAILED);
            assertThat(queue.getJob(job.id()).orElseThrow().failedReason()).contains("cancelled: stop");
            ctx.assertInvariant(queue.name());
        }
    }

    @Test
    void cancellingAWaitingOrDelayedJobFailsItInTheSameCall(BullpenTestContext ctx) {
        Queue<String> queue = queue(ctx);
        Job<String> waiting = queue.add("w", "x");
        Job<String> delayed = queue.add("d", "x", JobOptions.builder().delay(Duration.ofHours(1)).build());
        Job<String> prioritized = queue.add("p", "x", JobOptions.builder().priority(5).build());

        assertThat(queue.cancel(waiting.id(), "a")).isEqualTo(CancelResult.CANCELLED_WAITING);
        assertThat(queue.getState(waiting.id())).isEqualTo(JobState.FAILED);
        assertThat(queue.cancel(delayed.id(), "b")).isEqualTo(CancelResult.CANCELLED_DELAYED);
        assertThat(queue.getState(delayed.id())).isEqualTo(JobState.FAILED);
        assertThat(queue.cancel(prioritized.id(), "c")).isEqualTo(CancelResult.CANCELLED_PRIORITIZED);
        assertThat(queue.getJob(prioritized.id()).orElseThrow().failedReason()).contains("cancelled: c");
        assertThat(queue.cancel(waiting.id(), "again")).isEqualTo(CancelResult.ALREADY_FINISHED);
        assertThat(queue.cancel("nope", "x")).isEqualTo(CancelResult.NOT_FOUND);
        assertThat(queue.getJobCounts().failed()).isEqualTo(3);
        ctx.assertInvariant(queue.name());
    }

    @Test
    void aStalledFlaggedJobFailsAsCancelledInsteadOfRunningAgain(BullpenTestContext ctx) {
        Queue<String> queue = queue(ctx);
        Job<String> job = queue.add("orphan", "x", JobOptions.builder().attempts(3).build());
        // A worker that took the job and died: its lock lapses after 300 ms.
        Scripts dead = new Scripts(ctx.redisson(), new KeyScheme(queue.prefix(), queue.name()));
        FetchArgs take = new FetchArgs(1, "dead", 300, "", 100, 0, 1, 0);
        assertThat(Futures.join(dead.moveToActive(System.currentTimeMillis(), take)).jobs()).hasSize(1);
        assertThat(queue.cancel(job.id(), "owner gone")).isEqualTo(CancelResult.CANCEL_REQUESTED);

        List<String> ran = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (Worker<String, String> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .stalledInterval(Duration.ofMillis(200))
                .maxStalledCount(5)
                .processor(c -> {
                    ran.add(c.job().id());
                    return "ran";
                }).build().start()) {
            await().atMost(WAIT).until(() -> queue.getState(job.id()) == JobState.FAILED);
            assertThat(queue.getJob(job.id()).orElseThrow().failedReason()).contains("cancelled: owner gone");
            assertThat(ran).isEmpty();
            assertThat(lastFailedEvent(ctx, queue.name())).containsEntry("cancelled", "1");
            ctx.assertInvariant(queue.name());
        }
    }
}
