package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.redisson.client.codec.StringCodec;

@BullpenTest
class MarkerWaiterTest {
    private static long timed(Runnable r) {
        long t0 = System.nanoTime();
        r.run();
        return (System.nanoTime() - t0) / 1_000_000;
    }

    private static void await(MarkerWaiter waiter, long deadlineInMs) {
        try {
            long now = System.currentTimeMillis();
            waiter.await(now, deadlineInMs < 0 ? -1 : now + deadlineInMs);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Regression: a pop that took the marker while the worker was busy (between two waits) was
     * discarded, and the worker blocked for a whole timeout although a job was waiting.
     */
    @Test
    void aSignalTakenWhileBusyEndsTheNextWaitAtOnce(BullpenTestContext ctx) {
        String marker = "bp:{" + ctx.queueName() + "}:marker";
        try (MarkerWaiter waiter = new MarkerWaiter(ctx.redisson(), marker, Duration.ofSeconds(3), "test")) {
            // A wait that ends on its deadline leaves its pop outstanding...
            assertThat(timed(() -> await(waiter, 50))).isBetween(40L, 1_000L);
            // ...and that pop takes a signal while the worker is "busy".
            ctx.redisson().getScoredSortedSet(marker, StringCodec.INSTANCE).add(0, "0");
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(2))
                    .until(() -> !ctx.redisson().getScoredSortedSet(marker, StringCodec.INSTANCE).isExists());

            assertThat(timed(() -> await(waiter, -1))).as("the next wait returns at once").isLessThan(500);
        }
    }

    @Test
    void aSignalDuringTheWaitEndsIt(BullpenTestContext ctx) throws Exception {
        String marker = "bp:{" + ctx.queueName() + "}:marker";
        try (MarkerWaiter waiter = new MarkerWaiter(ctx.redisson(), marker, Duration.ofSeconds(3), "test")) {
            Thread signal = new Thread(() -> {
                org.awaitility.Awaitility.await().pollDelay(Duration.ofMillis(200)).until(() -> true);
                ctx.redisson().getScoredSortedSet(marker, StringCodec.INSTANCE).add(0, "0");
            });
            signal.start();
            assertThat(timed(() -> await(waiter, -1))).isBetween(150L, 1_500L);
            signal.join();
            // Consumed during the wait: the next wait blocks again (until its deadline).
            assertThat(timed(() -> await(waiter, 300))).isGreaterThanOrEqualTo(250L);
        }
    }

    @Test
    void closeEndsAWaitAtOnce(BullpenTestContext ctx) {
        MarkerWaiter waiter = new MarkerWaiter(ctx.redisson(), "bp:{" + ctx.queueName() + "}:marker", Duration.ofSeconds(3), "test");
        Thread closer = new Thread(() -> {
            org.awaitility.Awaitility.await().pollDelay(Duration.ofMillis(100)).until(() -> true);
            waiter.close();
        });
        closer.start();
        assertThat(timed(() -> await(waiter, -1))).isLessThan(1_500);
    }
}
