package io.bullpen.examples;

import static io.bullpen.examples.CancelUnpaidOrderExample.cancellationJobId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.JobState;
import io.bullpen.examples.CancelUnpaidOrderExample.OrderStatus;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

@BullpenTest
class CancelUnpaidOrderExampleTest {

    @Test
    void cancelsTheUnpaidOrderAndRemovesThePaidOrdersCancellation(BullpenTestContext ctx) {
        try (CancelUnpaidOrderExample example = new CancelUnpaidOrderExample(Duration.ofMillis(800), Duration.ofMillis(200))) {
            example.start(ctx.redisson());

            // Order 1 is never paid, order 2 is paid halfway through its window.
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                String unpaid = first(example.orders(), OrderStatus.CANCELLED);
                assertThat(example.cancellations().getState(cancellationJobId(unpaid))).isEqualTo(JobState.COMPLETED);
            });
            String unpaid = first(example.orders(), OrderStatus.CANCELLED);
            assertThat(example.cancellations().getJob(cancellationJobId(unpaid)).orElseThrow().returnValue(String.class))
                    .contains("cancelled");

            String paid = first(example.orders(), OrderStatus.PAID);
            assertThat(example.cancellations().getState(cancellationJobId(paid))).isEqualTo(JobState.UNKNOWN);
        }
        ctx.assertInvariant(CancelUnpaidOrderExample.QUEUE);
    }

    private static String first(Map<String, OrderStatus> orders, OrderStatus status) {
        return orders.entrySet().stream().filter(e -> e.getValue() == status).map(Map.Entry::getKey)
                .findFirst().orElseThrow(() -> new AssertionError("no " + status + " order yet in " + orders));
    }
}
