package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.flow.ChildFailure;
import io.bullpen.flow.ChildResult;
import io.bullpen.flow.FlowJob;
import io.bullpen.flow.FlowProducer;
import io.bullpen.flow.JobNode;
import io.bullpen.internal.FlowRelay;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Clock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Cancelling or removing flow jobs: parents take their children with them, children tell their parents. */
@BullpenTest
class FlowCancelTest {
    private BullpenTestContext ctx;
    private FlowProducer flows;
    private Queue<Integer> reports;
    private Queue<Integer> pages;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.ctx = ctx;
        this.flows = FlowProducer.builder(ctx.redisson()).build();
        this.reports = Queue.builder(ctx.redisson(), ctx.newQueueName(), Integer.class).build();
        this.pages = Queue.builder(ctx.redisson(), ctx.newQueueName(), Integer.class).build();
    }

    private FlowJob page(int n) {
        return FlowJob.builder(pages.name(), "render", n).build();
    }

    @Test
    void cancellingAWaitingParentCancelsTheChildrenNoOtherParentWaitsFor() {
        FlowJob shared = page(3);
        JobNode other = flows.add(FlowJob.builder(reports.name(), "other", 0).child(shared).build());
        JobNode root = flows.add(FlowJob.builder(reports.name(), "assemble", 0)
                .child(FlowJob.builder(pages.name(), "render", 1).child(page(2)).build())
                .child(FlowJob.builder(pages.name(), "render", 3).jobId(other.children().get(0).id()).build())
                .build());

        assertThat(reports.cancel(root.id(), "not needed")).isEqualTo(CancelResult.CANCELLED_WAITING);

        assertThat(reports.getState(root.id())).isEqualTo(JobState.FAILED);
        assertThat(reports.getJob(root.id()).orElseThrow().failedReason()).contains("cancelled: not needed");
        JobNode middle = root.children().get(0);
        assertThat(pages.getState(middle.id())).as("its child").isEqualTo(JobState.FAILED);
        assertThat(pages.getState(middle.children().get(0).id())).as("its grandchild").isEqualTo(JobState.FAILED);
        assertThat(pages.getState(other.children().get(0).id())).as("another parent waits for it")
                .isEqualTo(JobState.WAITING);
        ctx.assertInvariant(reports.name());
        ctx.assertInvariant(pages.name());
    }

    @Test
    void removingAParentCancelsItsChildren() {
        JobNode root = flows.add(FlowJob.builder(reports.name(), "assemble", 0).child(page(1)).build());

        assertThat(reports.remove(root.id())).isTrue();

        assertThat(reports.getJob(root.id())).isEmpty();
        assertThat(pages.getJob(root.children().get(0).id()).orElseThrow().failedReason())
                .contains("cancelled: parent " + reports.name() + ":" + root.id() + " removed");
        assertThat(reports.getJobCounts().total()).isZero();
        ctx.assertInvariant(reports.name());
    }

    @Test
    void aRemovedChildCountsAsFailedWithReasonRemovedUnderItsEdgesPolicy() {
        String shared = ctx.newQueueName();
        Queue<Integer> q = Queue.builder(ctx.redisson(), shared, Integer.class).build();
        JobNode root = flows.add(FlowJob.builder(shared, "assemble", 0)
                .child(FlowJob.builder(shared, "render", 1).build(), ChildFailure.IGNORE).build());

        q.remove(root.children().get(0).id());

        assertThat(q.getState(root.id())).isEqualTo(JobState.WAITING);
        ChildResult removed = q.getChildren(root.id(), null, 10).get(0);
        assertThat(removed.state()).isEqualTo(JobState.FAILED);
        assertThat(removed.failedReason()).contains("removed");
        ctx.assertInvariant(shared);
    }

    @Test
    void aCancelledChildInAnotherQueueFailsItsParentThroughTheRelay() {
        JobNode root = flows.add(FlowJob.builder(reports.name(), "assemble", 0).child(page(1)).build());

        pages.cancel(root.children().get(0).id(), "no paper");
        new FlowRelay(ctx.redisson(), "bp", Clock.systemUTC()).relayOutbox(pages.name(), 10);

        assertThat(reports.getState(root.id())).isEqualTo(JobState.FAILED);
        assertThat(reports.getJob(root.id()).orElseThrow().failedReason())
                .contains("child " + pages.name() + ":" + root.children().get(0).id() + " failed: cancelled: no paper");
    }
}
