package io.bullpen.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.JobOptions;
import io.bullpen.Queue;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@BullpenTest
class CancelUnpaidOrdersTest {
    @Test
    void addsADelayedCancellation(BullpenTestContext ctx) {
        Queue<Order> orders = Queue.builder(ctx.redisson(), ctx.queueName(), Order.class)
                .clock(ctx.clock())                     // a SettableClock: set(..), advance(..)
                .build();
        orders.add("cancel-unpaid", new Order("A-1"),
                JobOptions.builder().delay(Duration.ofMinutes(30)).build());

        QueueSnapshot snapshot = ctx.snapshot(orders.name());   // every key of the queue
        assertThat(snapshot.delayed()).hasSize(1);
        ctx.assertInvariant(orders.name());   // every job in exactly one state, its hash present
    }
}
