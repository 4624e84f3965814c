package io.bullpen.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@BullpenTest
class PriorityExampleTest {

    @Test
    void runsPlainJobsFirstThenPriorities1To3(BullpenTestContext ctx) {
        try (PriorityExample example = new PriorityExample(Duration.ofHours(1), Duration.ofMillis(20))) {
            example.start(ctx.redisson());   // adds batch 1 at once: priority 3, plain, 1, plain, 2

            await().atMost(Duration.ofSeconds(10)).until(() -> example.runOrder(1).size() == 5);
            assertThat(example.runOrder(1)).containsExactly(0, 0, 1, 2, 3);

            int second = example.addBatch();
            await().atMost(Duration.ofSeconds(10)).until(() -> example.runOrder(second).size() == 5);
            assertThat(example.runOrder(second)).containsExactly(0, 0, 1, 2, 3);
        }
        ctx.assertInvariant(PriorityExample.QUEUE);
    }
}
