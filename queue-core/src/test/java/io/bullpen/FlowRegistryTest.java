package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.flow.FlowJob;
import io.bullpen.flow.FlowProducer;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import org.junit.jupiter.api.Test;

/** A queue that only gets jobs through flows is in the registry of queues, as one a Queue adds to. */
@BullpenTest
class FlowRegistryTest {

    @Test
    void aFlowPutsEachOfItsQueuesInTheRegistry(BullpenTestContext ctx) {
        String reports = ctx.newQueueName();
        String pages = ctx.newQueueName();
        FlowProducer flows = FlowProducer.builder(ctx.redisson()).build();

        flows.add(FlowJob.builder(reports, "assemble", 1)
                .child(FlowJob.builder(pages, "render", 1).build())
                .child(FlowJob.builder(pages, "render", 2).build())
                .build());

        assertThat(Queue.listQueues(ctx.redisson())).contains(reports, pages);
    }
}
