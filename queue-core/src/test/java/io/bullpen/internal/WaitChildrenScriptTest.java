package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.LOCK_MS;
import static io.bullpen.internal.ScriptFixture.NOW;
import static io.bullpen.internal.ScriptFixture.complete;
import static io.bullpen.internal.ScriptFixture.fetch;
import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bullpen.JobState;
import io.bullpen.LockLostException;
import io.bullpen.Retention;
import io.bullpen.flow.ChildFailure;
import io.bullpen.flow.FlowJob;
import io.bullpen.internal.ScriptTypes.Finish;
import io.bullpen.internal.ScriptTypes.FinishResult;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * moveToFinished's waitChildren outcome (finishWaitChildren) and the children a processor adds at
 * runtime, recorded with any outcome that carries them (stageChildren): edges in the parent's
 * slot, the jobs staged as a committed flow the relay creates.
 */
@BullpenTest
class WaitChildrenScriptTest {
    private ScriptFixture f;
    private FlowRelay relay;
    private String q;
    private String pages;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
        relay = new FlowRelay(f.redisson, "bp", Clock.fixed(Instant.ofEpochMilli(NOW + 10), ZoneOffset.UTC));
        q = f.k.queue();
        pages = ctx.newQueueName();
    }

    private void activeParent(String... fields) {
        f.job("p", fields).active("p", "w:1", LOCK_MS, NOW + LOCK_MS);
    }

    private static String children(String flowId, FlowJob... jobs) {
        return FlowPlan.ofChildren(List.of(jobs).stream().map(j -> new FlowJob.Edge(j, ChildFailure.FAIL_PARENT))
                .toList(), flowId, Map.of()).encodeChildren();
    }

    private FlowJob child(String queue, String id) {
        return FlowJob.builder(queue, "render", Map.of("page", id))
                .options(io.bullpen.JobOptions.builder().jobId(id).build()).build();
    }

    @Test
    void aWaitRecordsTheChildrenWithTheParentAndMovesItToWaitingChildrenWithoutUsingAnAttempt() {
        activeParent("ats", "2", "atm", "1");

        FinishResult r = join(f.scripts.moveToFinished(NOW, fetch(0), Finish.waitForChildren("p", "w:1",
                children("f1", child(q, "c1"), child(pages, "c2")))));

        assertThat(r.state()).isEqualTo(JobState.WAITING_CHILDREN);
        QueueSnapshot s = f.snap();
        assertThat(s.waitingChildren()).containsOnlyKeys("p");
        assertThat(s.list("job:p:kids")).containsExactly(q + ":c1", pages + ":c2");
        assertThat(s.list("job:p:res")).containsExactly("F", "F");
        assertThat(PendingChildren.indexes(f.redisson, f.k.pendingChildren("p"), Integer.MAX_VALUE)).containsExactly(0, 1);
        assertThat(s.job("p")).containsEntry("ats", "1").containsEntry("atm", "1").containsEntry("pending", "2")
                .doesNotContainKey("lock");
        assertThat(s.leases()).isEmpty();
        assertThat(s.zset("flows:pending")).as("the children are a committed flow").containsOnlyKeys("f1");
        List<String> stage = s.list("flow:f1");
        assertThat(stage).hasSize(2);
        assertThat(stage.get(0)).contains("\"parents\":\"" + q + ":p:0\"");
        assertThat(stage.get(1)).contains("\"parents\":\"" + q + ":p:1\"");
        assertThat(s.eventNames()).containsExactly("waitingChildren");
        assertThat(s.events().get(0)).containsEntry("jobId", "p").containsEntry("prev", "active");
        assertThat(s.waiting()).as("no child exists before the relay creates it").isEmpty();

        relay.materialize(q, "f1");

        QueueSnapshot after = f.snap();
        assertThat(after.waiting()).containsExactly("c1");
        assertThat(after.job("c1")).containsEntry("par", q + ":p:0");
        assertThat(after.exists("flow:f1")).isFalse();
        assertThat(after.zset("flows:pending")).isEmpty();
        QueueSnapshot other = QueueSnapshot.read(f.redisson, "bp", pages);
        assertThat(other.waiting()).containsExactly("c2");
        assertThat(other.job("c2")).containsEntry("par", q + ":p:1");
        f.assertInvariant();
    }

    @Test
    void childrenAddedLaterAreIndexedAfterTheOnesTheParentHas() {
        activeParent("ats", "1");
        f.redisson.getList(f.k.job("p") + ":kids", org.redisson.client.codec.StringCodec.INSTANCE)
                .addAll(List.of(q + ":old0", q + ":old1"));
        f.redisson.getList(f.k.job("p") + ":res", org.redisson.client.codec.StringCodec.INSTANCE)
                .addAll(List.of("c3:n-o1", "c3:n-o2"));

        join(f.scripts.moveToFinished(NOW, fetch(0), Finish.waitForChildren("p", "w:1", children("f2", child(q, "c3")))));

        QueueSnapshot s = f.snap();
        assertThat(s.list("job:p:kids")).containsExactly(q + ":old0", q + ":old1", q + ":c3");
        assertThat(PendingChildren.indexes(f.redisson, f.k.pendingChildren("p"), Integer.MAX_VALUE)).containsExactly(2);
        assertThat(s.list("flow:f2").get(0)).contains("\"parents\":\"" + q + ":p:2\"");

        relay.materialize(q, "f2");
        long applied = join(new FlowScripts(f.redisson, f.k).childEnded(NOW + 20, "p", 2, q + ":c3", "render",
                "completed", "7"));

        assertThat(applied).isEqualTo(1);
        assertThat(f.snap().waiting()).as("the last child's end moves the parent on").contains("p");
    }

    @Test
    void theReconcilerCreatesStagedChildrenRatherThanCountingThemAsRemoved() {
        activeParent("ats", "1");
        join(f.scripts.moveToFinished(NOW, fetch(0), Finish.waitForChildren("p", "w:1",
                children("f8", child(pages, "c1")))));

        List<String> repaired = new FlowReconciler(f.redisson, "bp", Clock.systemUTC()).reconcile(q, 0, 10);

        assertThat(repaired).isEmpty();
        assertThat(f.snap().waitingChildren()).containsOnlyKeys("p");
        assertThat(QueueSnapshot.read(f.redisson, "bp", pages).waiting()).containsExactly("c1");
        assertThat(f.snap().zset("flows:pending")).isEmpty();
    }

    @Test
    void aWaitWithNoChildPendingMakesTheJobReadyAgainAtOnce() {
        activeParent("ats", "1");

        FinishResult r = join(f.scripts.moveToFinished(NOW, fetch(0), Finish.waitForChildren("p", "w:1", null)));

        assertThat(r.state()).isEqualTo(JobState.WAITING);
        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).containsExactly("p");
        assertThat(s.waitingChildren()).isEmpty();
        assertThat(s.job("p")).containsEntry("ats", "0");
        assertThat(s.eventNames()).containsExactly("waiting");
        f.assertInvariant();
    }

    @Test
    void aCancelledJobFailsAsCancelledAndItsChildrenAreDropped() {
        activeParent("ats", "1", "cancel", "stop");

        FinishResult r = join(f.scripts.moveToFinished(NOW, fetch(0), Finish.waitForChildren("p", "w:1",
                children("f3", child(q, "c1")))));

        assertThat(r.state()).isEqualTo(JobState.FAILED);
        QueueSnapshot s = f.snap();
        assertThat(s.failed()).containsOnlyKeys("p");
        assertThat(s.job("p")).containsEntry("failedReason", "cancelled: stop");
        assertThat(s.exists("job:p:kids")).isFalse();
        assertThat(s.exists("flow:f3")).isFalse();
        assertThat(s.zset("flows:pending")).isEmpty();
    }

    @Test
    void aRejectedWaitChangesNothing() {
        activeParent("ats", "1");

        assertThatThrownBy(() -> join(f.scripts.moveToFinished(NOW, fetch(0), Finish.waitForChildren("p", "w:2",
                children("f4", child(q, "c1")))))).isInstanceOf(LockLostException.class);

        QueueSnapshot s = f.snap();
        assertThat(s.exists("job:p:kids")).isFalse();
        assertThat(s.exists("flow:f4")).isFalse();
        assertThat(s.waitingChildren()).isEmpty();
    }

    @Test
    void childrenOnACompletionAreRecordedButDoNotHoldTheJob() {
        activeParent("ats", "1");

        FinishResult r = join(f.scripts.moveToFinished(NOW, fetch(0),
                complete("p", "w:1", "\"done\"", Retention.keepAll()).withChildren(children("f5", child(q, "c1")))));

        assertThat(r.state()).isEqualTo(JobState.COMPLETED);
        QueueSnapshot s = f.snap();
        assertThat(s.completed()).containsOnlyKeys("p");
        assertThat(s.list("job:p:kids")).containsExactly(q + ":c1");
        assertThat(s.zset("flows:pending")).containsOnlyKeys("f5");

        relay.materialize(q, "f5");
        join(new FlowScripts(f.redisson, f.k).childEnded(NOW + 20, "p", 0, q + ":c1", "render", "failed", "boom"));

        QueueSnapshot after = f.snap();
        assertThat(after.completed()).as("a child's end after the parent ended is recorded only").containsOnlyKeys("p");
        assertThat(after.list("job:p:res")).containsExactly("f6:renderboom");
    }

    @Test
    void childrenOnAStepAreRecordedAndTheJobGoesToDelayed() {
        activeParent("ats", "1");

        FinishResult r = join(f.scripts.moveToFinished(NOW, fetch(0),
                Finish.step("p", "w:1", NOW + 1000, null).withChildren(children("f6", child(q, "c1")))));

        assertThat(r.state()).isEqualTo(JobState.DELAYED);
        assertThat(f.snap().list("job:p:kids")).containsExactly(q + ":c1");
        assertThat(f.snap().zset("flows:pending")).containsOnlyKeys("f6");
    }

    @Test
    void aFailureCarriesNoChildren() {
        Finish failed = ScriptFixture.fail("p", "w:1", "boom", 1, 0, false);
        assertThat(failed.withChildren("f7\nF" + q + ":c1\n\n{}").children()).isNull();
    }
}
