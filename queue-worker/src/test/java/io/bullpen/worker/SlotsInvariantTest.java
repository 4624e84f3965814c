package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The slot accounting of {@link Slots} balances after load with every kind of outcome (completed,
 * failed and retried, timed out): all slots free, nothing in flight, free + held = concurrency;
 * and close waits for the attempts in flight without polling.
 */
@BullpenTest
class SlotsInvariantTest {
    private static final int CONCURRENCY = 8;

    @Test
    void slotsBalanceAfterLoadWithEveryKindOfOutcome(BullpenTestContext ctx) {
        Queue<Integer> queue = Queue.builder(ctx.redisson(), ctx.queueName(), Integer.class).build();
        AtomicInteger maxInFlight = new AtomicInteger();
        Worker<Integer, Integer>[] holder = new Worker[1];
        try (Worker<Integer, Integer> worker = Worker.builder(ctx.redisson(), queue.name(), Integer.class)
                .concurrency(CONCURRENCY)
                .processor(c -> {
                    maxInFlight.accumulateAndGet(holder[0].activeCount(), Math::max);
                    int n = c.job().data();
                    if (n % 7 == 0 && c.job().attemptsMade() == 0) {
                        throw new IllegalStateException("first attempt of " + n + " fails");
                    }
                    if (n % 50 == 0 && c.job().attemptsMade() == 0) {
                        Thread.sleep(2_000);   // past its timeout: interrupted and failed, then retried
                    }
                    return n;
                })
                .build()) {
            holder[0] = worker;
            worker.start();
            List<Job<Integer>> jobs = new ArrayList<>();
            for (int i = 1; i <= 400; i++) {
                jobs.add(queue.add("n", i, JobOptions.builder().attempts(2).timeout(Duration.ofMillis(300)).build()));
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> jobs.stream()
                    .allMatch(j -> queue.getState(j.id()) == JobState.COMPLETED));

            await().atMost(Duration.ofSeconds(10)).until(() -> worker.slots().free() == CONCURRENCY);
            worker.slots().checkInvariant(true);
            assertThat(worker.slots().held()).isZero();
            assertThat(worker.activeCount()).isZero();
            assertThat(maxInFlight.get()).isBetween(1, CONCURRENCY);
        }
        holder[0].slots().checkInvariant(true);
    }

    @Test
    void closeWaitsForTheAttemptsInFlightAndLeavesTheSlotsBalanced(BullpenTestContext ctx) {
        Queue<Integer> queue = Queue.builder(ctx.redisson(), ctx.queueName(), Integer.class).build();
        Worker<Integer, Integer> worker = Worker.builder(ctx.redisson(), queue.name(), Integer.class)
                .concurrency(3)
                .processor(c -> {
                    Thread.sleep(300);
                    return c.job().data();
                })
                .build().start();
        List<Job<Integer>> jobs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            jobs.add(queue.add("n", i));
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> worker.activeCount() == 3);

        worker.close(Duration.ofSeconds(10));

        assertThat(jobs).allSatisfy(j -> assertThat(queue.getState(j.id())).isEqualTo(JobState.COMPLETED));
        assertThat(worker.activeCount()).isZero();
        worker.slots().checkInvariant(true);
        assertThat(worker.slots().free()).isEqualTo(3);
    }
}
