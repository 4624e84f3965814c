package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.QueueEvents;
import io.bullpen.events.DataUpdatedEvent;
import io.bullpen.events.DelayedEvent;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

/**
 * Step jobs: {@code ctx.updateData} stages the next step's data, {@code ctx.delay} ends the
 * attempt by moving the job to delayed with it, in one lock-checked script, without using an
 * attempt; a crash before that script leaves the previous step.
 */
@BullpenTest
class StepJobTest {
    private static final Duration STEP_DELAY = Duration.ofMillis(200);

    /** What one attempt saw. */
    private record Seen(int data, int attemptsMade, int attemptsStarted, Instant processedOn, long fence) {
    }

    @Test
    void aThreeStepJobAdvancesItsDataWaitsBetweenStepsAndUsesOneAttempt(BullpenTestContext ctx) {
        Queue<Integer> queue = Queue.builder(ctx.redisson(), ctx.queueName(), Integer.class).build();
        List<Seen> seen = new CopyOnWriteArrayList<>();
        List<Object> events = new CopyOnWriteArrayList<>();
        try (QueueEvents listener = QueueEvents.builder(ctx.redisson(), queue.name()).lastEventId("0").build()
                .onDelayed(events::add).onEvent(e -> {
                    if (e instanceof DataUpdatedEvent) {
                        events.add(e);
                    }
                }).start();
             Worker<Integer, String> worker = Worker.builder(ctx.redisson(), queue.name(), Integer.class)
                .processor(c -> {
                    Job<Integer> job = c.job();
                    seen.add(new Seen(job.data(), job.attemptsMade(), job.attemptsStarted(),
                            job.processedOn().orElseThrow(), c.fencingToken()));
                    if (job.data() < 3) {
                        c.updateData(job.data() + 1);
                        c.delay(STEP_DELAY);
                        return "ignored: a step's return value is not stored";
                    }
                    return "done at step " + job.data();
                }).build().start()) {
            Job<Integer> added = queue.add("steps", 1);

            await().atMost(Duration.ofSeconds(20)).until(() -> queue.getState(added.id()) == JobState.COMPLETED);

            Job<Integer> done = queue.getJob(added.id()).orElseThrow();
            assertThat(seen).extracting(Seen::data).containsExactly(1, 2, 3);
            // No step used an attempt: each attempt started with attemptsMade 0; the completion made 1.
            assertThat(seen).extracting(Seen::attemptsMade).containsExactly(0, 0, 0);
            assertThat(seen).extracting(Seen::attemptsStarted).containsExactly(1, 1, 1);
            assertThat(done.attemptsMade()).isEqualTo(1);
            assertThat(done.data()).isEqualTo(3);
            assertThat(done.returnValue(String.class)).contains("done at step 3");
            // Each step is a new attempt: its own start and a larger fencing token; the delay held.
            for (int i = 1; i < 3; i++) {
                assertThat(seen.get(i).fence()).isGreaterThan(seen.get(i - 1).fence());
                assertThat(Duration.between(seen.get(i - 1).processedOn(), seen.get(i).processedOn()))
                        .isGreaterThanOrEqualTo(STEP_DELAY);
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> events.size() >= 4);
            assertThat(events).filteredOn(DelayedEvent.class::isInstance).hasSize(2)
                    .allSatisfy(e -> assertThat(((DelayedEvent) e).delay()).isLessThanOrEqualTo(STEP_DELAY));
            assertThat(events).filteredOn(DataUpdatedEvent.class::isInstance).hasSize(2);
            ctx.assertInvariant(queue.name());
        }
    }

    @Test
    void aFailureAfterAskingForADelayWinsAndTheRetryStartsFromTheStagedData(BullpenTestContext ctx) {
        Queue<Integer> queue = Queue.builder(ctx.redisson(), ctx.queueName(), Integer.class).build();
        List<Integer> seen = new CopyOnWriteArrayList<>();
        try (Worker<Integer, Object> worker = Worker.builder(ctx.redisson(), queue.name(), Integer.class)
                .processor(c -> {
                    seen.add(c.job().data());
                    if (c.job().attemptsMade() == 0) {
                        c.updateData(10);
                        c.delay(Duration.ofHours(1));
                        throw new IllegalStateException("step failed after asking for a delay");
                    }
                    return null;
                }).build().start()) {
            Job<Integer> added = queue.add("steps", 1, JobOptions.builder().attempts(2).build());

            await().atMost(Duration.ofSeconds(20)).until(() -> queue.getState(added.id()) == JobState.COMPLETED);

            assertThat(seen).containsExactly(1, 10);
            Job<Integer> done = queue.getJob(added.id()).orElseThrow();
            assertThat(done.attemptsMade()).isEqualTo(2);
            assertThat(done.failedReason()).contains("step failed after asking for a delay");
        }
    }

    @Test
    void stagedDataWithoutADelayIsWrittenWithTheCompletion(BullpenTestContext ctx) {
        Queue<Integer> queue = Queue.builder(ctx.redisson(), ctx.queueName(), Integer.class).build();
        try (Worker<Integer, Object> worker = Worker.builder(ctx.redisson(), queue.name(), Integer.class)
                .processor(c -> {
                    c.updateData(c.job().data() * 2);
                    c.updateData(c.job().data() * 3);
                    return null;
                }).build().start()) {
            Job<Integer> added = queue.add("steps", 7);

            await().atMost(Duration.ofSeconds(20)).until(() -> queue.getState(added.id()) == JobState.COMPLETED);

            assertThat(queue.getJob(added.id()).orElseThrow().data()).isEqualTo(21);
        }
    }

    @Test
    void aWorkerThatDiesMidStepLeavesThePreviousStepForTheJobsRecovery(BullpenTestContext ctx) throws Exception {
        Queue<Integer> queue = Queue.builder(ctx.redisson(), ctx.queueName(), Integer.class).build();
        RedissonClient doomed = ctx.redis().newClient();
        CountDownLatch inStepTwo = new CountDownLatch(1);
        CountDownLatch clientGone = new CountDownLatch(1);
        Worker<Integer, Object> dying = Worker.builder(doomed, queue.name(), Integer.class)
                .lockDuration(Duration.ofSeconds(1))
                .processor(c -> {
                    if (c.job().data() == 1) {
                        c.updateData(2);
                        c.delay(Duration.ZERO);
                        return null;
                    }
                    // Step 2 stages step 3, but its worker dies before the finish script runs.
                    c.updateData(3);
                    c.delay(Duration.ZERO);
                    inStepTwo.countDown();
                    clientGone.await(30, TimeUnit.SECONDS);
                    return null;
                }).build().start();
        List<Integer> recovered = new CopyOnWriteArrayList<>();
        Job<Integer> added = queue.add("steps", 1);
        try {
            assertThat(inStepTwo.await(20, TimeUnit.SECONDS)).isTrue();
            doomed.shutdown();
            clientGone.countDown();
            try (Worker<Integer, Object> rescuer = Worker.builder(ctx.redisson(), queue.name(), Integer.class)
                    .lockDuration(Duration.ofSeconds(1))
                    .stalledInterval(Duration.ofMillis(500))
                    .processor(c -> {
                        recovered.add(c.job().data());
                        return null;
                    }).build().start()) {
                await().atMost(Duration.ofSeconds(20)).until(() -> queue.getState(added.id()) == JobState.COMPLETED);
            }
        } finally {
            try {
                dying.close();
            } catch (RuntimeException ignored) {
                // Its client is gone: closing it may complain.
            }
        }
        // The lost step's data (3) never landed: the recovered attempt resumed from step 2.
        assertThat(recovered).containsExactly(2);
        Job<Integer> done = queue.getJob(added.id()).orElseThrow();
        assertThat(done.data()).isEqualTo(2);
        assertThat(done.stalledCount()).isEqualTo(1);
        ctx.assertInvariant(queue.name());
    }
}
