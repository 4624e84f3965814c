package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.NOW;
import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.internal.FlowScripts.FlowRecord;
import io.bullpen.internal.ScriptTypes.AddResult;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Contract of addFlow, childEnded (and the notifyParent include they share) and getChildren. */
@BullpenTest
class FlowScriptsTest {
    private ScriptFixture f;
    private FlowScripts flows;
    private String q;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
        flows = new FlowScripts(f.redisson, f.k);
        q = f.k.queue();
    }

    private FlowRecord job(String id, String parents, String children) {
        return new FlowRecord(id, "n-" + id, "{}", "", 0, 0, false, null, parents, children);
    }

    private FlowRecord delayedJob(String id, long delayMs, String children) {
        return new FlowRecord(id, "n-" + id, "{}", "", delayMs, 0, false, null, "", children);
    }

    /** A parent p with children a and b in the same queue, with the given edge policies. */
    private void addParentWithTwoChildren(String policyA, String policyB) {
        List<AddResult> r = join(flows.addFlow(NOW, List.of(
                job("p", "", policyA + q + ":a\n" + policyB + q + ":b"),
                job("a", q + ":p:0", ""),
                job("b", q + ":p:1", ""))));
        assertThat(r).extracting(AddResult::added).containsExactly(true, true, true);
    }

    /** The indexes of the children the parent still waits for (its deps bitmap). */
    private List<Integer> pending(String parentId) {
        return PendingChildren.indexes(f.redisson, f.k.pendingChildren(parentId), Integer.MAX_VALUE);
    }

    /** The end of child a (index 0) or b (index 1) of p. */
    private long end(String child, String state, String value) {
        return join(flows.childEnded(NOW + 5, "p", child.equals("a") ? 0 : 1, q + ":" + child, "n-" + child, state, value));
    }

    @Test
    void addFlowPutsTheParentInWaitingChildrenWithAPendingSetAndTheChildrenInWait() {
        addParentWithTwoChildren("F", "I");

        QueueSnapshot s = f.snap();
        assertThat(s.zset("waiting-children")).containsOnlyKeys("p");
        assertThat(pending("p")).as("the pending children's indexes, a bitmap").containsExactly(0, 1);
        assertThat(s.job("p")).containsEntry("pending", "2");
        assertThat(s.list("job:p:res")).as("the edge policies while pending").containsExactly("F", "I");
        assertThat(s.list("job:p:kids")).containsExactly(q + ":a", q + ":b");
        assertThat(s.waiting()).containsExactlyInAnyOrder("a", "b");
        assertThat(s.job("a")).containsEntry("par", q + ":p:0");
        assertThat(s.job("p")).doesNotContainKey("par");
        assertThat(s.eventNames()).containsExactly("added", "added", "added");
        f.assertInvariant();
    }

    private long addMore(String flowId, long start, boolean last, String... children) {
        StringBuilder text = new StringBuilder();
        for (String c : children) {
            text.append(text.length() == 0 ? "" : "\n").append('F').append(q).append(':').append(c);
        }
        return join(flows.addFlowChildren(new FlowScripts.MoreChildren("p", flowId, start, last, text.toString())));
    }

    @Test
    void aParentWithMoreChildrenThanOneCallGetsTheRestFromAddFlowChildrenOnceEach() {
        join(flows.addFlow(NOW, List.of(new FlowRecord("p", "n-p", "{}", "", 0, 0, false, null, "",
                "F" + q + ":c0\nF" + q + ":c1", 5, "flow-1"))));
        assertThat(f.snap().job("p")).containsEntry("pending", "5").containsEntry("flow", "flow-1");
        assertThat(pending("p")).containsExactly(0, 1);

        assertThat(addMore("flow-1", 2, false, "c2", "c3")).isEqualTo(2);
        assertThat(addMore("flow-1", 2, false, "c2", "c3")).as("the same call again").isZero();
        assertThat(addMore("flow-2", 4, true, "c4")).as("another flow's call").isZero();
        assertThat(addMore("flow-1", 4, true, "c4")).isEqualTo(1);
        assertThat(addMore("flow-1", 4, true, "c4")).as("the last call again").isZero();

        QueueSnapshot s = f.snap();
        assertThat(s.job("p")).containsEntry("pending", "5").doesNotContainKey("flow");
        assertThat(pending("p")).containsExactly(0, 1, 2, 3, 4);
        assertThat(s.list("job:p:kids")).containsExactly(q + ":c0", q + ":c1", q + ":c2", q + ":c3", q + ":c4");
        assertThat(s.list("job:p:res")).containsExactly("F", "F", "F", "F", "F");
    }

    @Test
    void aParentWhoseChildrenComeInSeveralCallsWaitsForAllOfThem() {
        join(flows.addFlow(NOW, List.of(new FlowRecord("p", "n-p", "{}", "", 0, 0, false, null, "",
                "F" + q + ":c0", 2, "flow-1"))));
        assertThat(join(flows.childEnded(NOW, "p", 0, q + ":c0", "n", "completed", "1"))).isEqualTo(1);
        assertThat(f.snap().zset("waiting-children")).as("its count is the total from the start").containsOnlyKeys("p");

        addMore("flow-1", 1, true, "c1");
        assertThat(join(flows.childEnded(NOW, "p", 1, q + ":c1", "n", "completed", "2"))).isEqualTo(1);

        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).containsExactly("p");
        assertThat(s.exists("job:p:deps")).isFalse();
    }

    @Test
    void theEndOfAChildWhoseBitIsClearChangesNothing() {
        addParentWithTwoChildren("F", "F");
        assertThat(join(flows.childEnded(NOW, "p", 0, q + ":b", "n-b", "completed", "1")))
                .as("not the child at that index").isZero();
        assertThat(join(flows.childEnded(NOW, "p", 7, q + ":a", "n-a", "completed", "1")))
                .as("an index past the children").isZero();
        assertThat(f.snap().job("p")).containsEntry("pending", "2");
        assertThat(pending("p")).containsExactly(0, 1);
    }

    @Test
    void addFlowStoresEachJobsTraceHeadersAsTcOnlyWhenItHasSome() {
        String tc = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        join(flows.addFlow(NOW, List.of(
                new FlowRecord("p", "n-p", "{}", "", 0, 0, false, null, "", "F" + q + ":a", 0, "", tc),
                new FlowRecord("a", "n-a", "{}", "", 0, 0, false, null, q + ":p:0", "", 0, "", tc),
                job("b", "", ""))));

        QueueSnapshot s = f.snap();
        assertThat(s.job("p")).containsEntry("tc", tc);
        assertThat(s.job("a")).containsEntry("tc", tc);
        assertThat(s.job("b")).doesNotContainKey("tc");
        f.assertInvariant();
    }

    @Test
    void addFlowAgainWithTheSameIdsAddsNothing() {
        addParentWithTwoChildren("F", "F");
        QueueSnapshot before = f.snap();

        List<AddResult> again = join(flows.addFlow(NOW + 1, List.of(
                job("p", "", "F" + q + ":a\nF" + q + ":b"), job("a", q + ":p:0", ""), job("b", q + ":p:1", ""))));

        assertThat(again).extracting(AddResult::added).containsExactly(false, false, false);
        QueueSnapshot after = f.snap();
        assertThat(pending("p")).containsExactly(0, 1);
        assertThat(after.job("p")).isEqualTo(before.job("p"));
        assertThat(after.waiting()).isEqualTo(before.waiting());
        assertThat(after.job("a")).isEqualTo(before.job("a"));
        f.assertInvariant();
    }

    @Test
    void aCompletedChildIsCopiedToTheParentOnceAndTheLastOneMovesTheParentToWait() {
        addParentWithTwoChildren("F", "F");

        assertThat(end("a", "completed", "\"html-a\"")).isEqualTo(1);
        assertThat(end("a", "completed", "\"html-a\"")).as("the same end again").isZero();
        QueueSnapshot mid = f.snap();
        assertThat(pending("p")).containsExactly(1);
        assertThat(mid.job("p")).containsEntry("pending", "1");
        assertThat(mid.list("job:p:res")).containsExactly("c3:n-a\"html-a\"", "F");
        assertThat(mid.zset("waiting-children")).containsOnlyKeys("p");

        assertThat(end("b", "completed", "null")).isEqualTo(1);
        QueueSnapshot s = f.snap();
        assertThat(s.exists("job:p:deps")).isFalse();
        assertThat(s.job("p")).doesNotContainKey("pending");
        assertThat(s.zset("waiting-children")).isEmpty();
        assertThat(s.waiting()).contains("p");
        assertThat(s.list("job:p:res")).as("c, name length, name, value").containsExactly("c3:n-a\"html-a\"", "c3:n-bnull");
        assertThat(s.events().get(s.events().size() - 1)).containsEntry("event", "waiting")
                .containsEntry("jobId", "p").containsEntry("prev", "waiting-children");
    }

    @Test
    void aFailedChildOnAFailParentEdgeFailsTheParentAtOnceNamingTheChild() {
        addParentWithTwoChildren("F", "F");

        end("a", "failed", "boom");

        QueueSnapshot s = f.snap();
        assertThat(s.failed()).containsOnlyKeys("p");
        assertThat(s.zset("waiting-children")).isEmpty();
        assertThat(s.job("p")).containsEntry("failedReason", "child " + q + ":a failed: boom");
        assertThat(end("b", "completed", "1")).as("an end after the parent failed is recorded only").isEqualTo(1);
        assertThat(f.snap().failed()).containsOnlyKeys("p");
        f.assertInvariant();
    }

    /** A parent p (with the given options) over child a on a FAIL_PARENT edge, in this queue. */
    private void addParentWithOptions(String opts) {
        join(flows.addFlow(NOW, List.of(new FlowRecord("p", "n-p", "{}", opts, 0, 0, false, null, "", "F" + q + ":a"),
                job("a", q + ":p:0", ""))));
    }

    @Test
    void aParentFailedByItsChildEndsLikeAnyJobFailedForGoodWithItsMetricAndEvent() {
        addParentWithOptions("");

        end("a", "failed", "boom");

        QueueSnapshot s = f.snap();
        assertThat(s.failed()).containsEntry("p", (double) NOW + 5);
        assertThat(s.job("p")).containsEntry("failedReason", "child " + q + ":a failed: boom")
                .containsEntry("finishedOn", Long.toString(NOW + 5));
        assertThat(s.meta()).as("the failed metric counts the parent").containsEntry("mc:failed", "1");
        assertThat(s.events().get(s.events().size() - 1)).containsEntry("event", "failed").containsEntry("jobId", "p")
                .containsEntry("prev", "waiting-children").containsEntry("attemptsMade", "0");
        f.assertInvariant();
    }

    @Test
    void aParentFailedByItsChildAppliesItsOwnRemoveOnFail() {
        addParentWithOptions("{\"removeOnFail\":{\"count\":0}}");

        end("a", "failed", "boom");

        QueueSnapshot s = f.snap();
        assertThat(s.failed()).doesNotContainKey("p");
        assertThat(s.jobIds()).doesNotContain("p");
        assertThat(s.exists("job:p:kids")).as("its children lists go with it").isFalse();
        assertThat(s.exists("job:p:res")).isFalse();
        assertThat(s.meta()).containsEntry("mc:failed", "1");
        f.assertInvariant();
    }

    @Test
    void aParentFailedByItsChildKeepsItsResultForItsAwaiters() {
        addParentWithOptions("{\"removeOnFail\":{\"count\":0}}");
        f.redisson.<String, String>getMap(f.k.job("p"), org.redisson.client.codec.StringCodec.INSTANCE)
                .put("awaited", "60000");

        end("a", "failed", "boom");

        QueueSnapshot s = f.snap();
        assertThat(s.string("result:p")).contains("\"state\":\"failed\"").contains("child " + q + ":a failed: boom");
        assertThat(s.pttl("result:p")).isPositive();
    }

    @Test
    void aParentFailedByItsChildTellsItsOwnParentAndTheGrandparentFailsTooWithItsMetric() {
        join(flows.addFlow(NOW, List.of(job("g", "", "F" + q + ":p"), job("p", q + ":g:0", "F" + q + ":a"),
                job("a", q + ":p:0", ""))));

        end("a", "failed", "boom");

        QueueSnapshot s = f.snap();
        assertThat(s.failed()).containsOnlyKeys("p", "g");
        assertThat(s.job("g")).containsEntry("failedReason", "child " + q + ":p failed: child " + q + ":a failed: boom");
        assertThat(s.meta()).containsEntry("mc:failed", "2");
        f.assertInvariant();
    }

    @Test
    void aFailedChildOnAnIgnoreEdgeIsSeenAndThParentRunsWhenTheOthersAreDone() {
        addParentWithTwoChildren("I", "F");

        end("a", "failed", "boom");
        assertThat(f.snap().zset("waiting-children")).containsOnlyKeys("p");
        end("b", "completed", "2");

        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).contains("p");
        assertThat(s.list("job:p:res")).containsExactly("f3:n-aboom", "c3:n-b2");
    }

    @Test
    void aFailedChildOnARemoveEdgeIsDroppedAsIfNeverAdded() {
        addParentWithTwoChildren("R", "F");

        end("a", "failed", "boom");
        end("b", "completed", "2");

        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).contains("p");
        assertThat(s.list("job:p:res")).as("a removed child is marked, then skipped").containsExactly("x", "c3:n-b2");
        assertThat(s.job("p")).containsEntry("rmk", "1");
        assertThat(join(flows.getChildren("p", null, 10)).entries()).extracting(FlowScripts.ChildEntry::child)
                .containsExactly(q + ":b");
        assertThat(join(flows.childrenCount("p"))).isEqualTo(1);
    }

    @Test
    void aFailedChildOnAContinueEdgeMovesTheParentAtOnce() {
        addParentWithTwoChildren("C", "F");

        end("a", "failed", "boom");
        assertThat(f.snap().waiting()).contains("p");

        assertThat(end("b", "completed", "2")).isEqualTo(1);
        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).containsOnlyOnce("p");
        assertThat(s.list("job:p:res")).containsExactly("f3:n-aboom", "c3:n-b2");
        f.assertInvariant();
    }

    @Test
    void aParentsDelayCountsFromWhenItsChildrenAreDone() {
        join(flows.addFlow(NOW, List.of(delayedJob("p", 60_000, "F" + q + ":a"), job("a", q + ":p:0", ""))));
        assertThat(f.snap().delayed()).doesNotContainKey("p");

        end("a", "completed", "1");

        QueueSnapshot s = f.snap();
        assertThat(s.delayed()).containsOnlyKeys("p");
        assertThat(Math.floor(s.delayed().get("p") / 4096)).isEqualTo((double) (NOW + 5 + 60_000));
    }

    @Test
    void aChildThatEndedBeforeItsNewParentWasAddedAppliesAtOnce() {
        join(flows.addFlow(NOW, List.of(job("a", "", ""))));
        f.redisson.getList(f.k.waitList(), org.redisson.client.codec.StringCodec.INSTANCE).clear();
        f.zadd(f.k.completed(), "a", NOW);
        f.redisson.<String, String>getMap(f.k.job("a"), org.redisson.client.codec.StringCodec.INSTANCE)
                .put("returnValue", "42");

        join(flows.addFlow(NOW, List.of(job("p", "", "F" + q + ":a"), job("a", q + ":p:0", ""))));

        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).containsExactly("p");
        assertThat(s.list("job:p:res")).containsExactly("c3:n-a42");
        assertThat(s.job("a")).containsEntry("par", q + ":p:0");
    }

    @Test
    void aParentInAnotherQueueIsToldThroughTheOutbox() {
        join(flows.addFlow(NOW, List.of(job("a", "", ""))));
        f.zadd(f.k.completed(), "a", NOW);
        f.redisson.getList(f.k.waitList(), org.redisson.client.codec.StringCodec.INSTANCE).clear();

        join(flows.addFlow(NOW, List.of(job("a", "reports:r1:3", ""))));

        List<String> outbox = f.snap().list("flow:outbox");
        assertThat(outbox).hasSize(1);
        assertThat(outbox.get(0)).contains("\"p\":\"reports:r1\"").contains("\"i\":\"3\"").contains("\"c\":\"" + q + ":a\"")
                .contains("\"s\":\"completed\"");
    }

    @Test
    void childEndedForAMissingParentAnswersMinusOne() {
        assertThat(end("a", "completed", "1")).isEqualTo(-1);
    }

    @Test
    void getChildrenPagesInChildOrderWithOutcomesAndPendingPolicies() {
        addParentWithTwoChildren("F", "I");
        end("a", "completed", "\"x\"");

        FlowScripts.ChildPage first = join(flows.getChildren("p", null, 1));
        assertThat(first.total()).isEqualTo(2);
        assertThat(first.entries()).hasSize(1);
        assertThat(first.entries().get(0).child()).isEqualTo(q + ":a");
        assertThat(first.entries().get(0).outcome()).isEqualTo("c3:n-a\"x\"");
        assertThat(first.entries().get(0).policy()).isNull();

        FlowScripts.ChildPage second = join(flows.getChildren("p", q + ":a", 10));
        assertThat(second.entries()).extracting(FlowScripts.ChildEntry::child).containsExactly(q + ":b");
        assertThat(second.entries().get(0).policy()).isEqualTo("I");
        assertThat(join(flows.getChildren("p", q + ":b", 10)).entries()).isEmpty();
    }

    @Test
    void getChildrenStartsAfterTheChildAtItsHintedIndexAndSearchesWhenTheHintIsWrong() {
        addParentWithTwoChildren("F", "I");

        assertThat(join(flows.getChildren("p", q + ":a", 0, 10)).entries()).extracting(FlowScripts.ChildEntry::child)
                .containsExactly(q + ":b");
        assertThat(join(flows.getChildren("p", q + ":a", 1, 10)).entries()).as("a wrong hint: found by search")
                .extracting(FlowScripts.ChildEntry::child).containsExactly(q + ":b");
        assertThat(join(flows.getChildren("p", q + ":a", 99, 10)).entries()).as("a hint past the end")
                .extracting(FlowScripts.ChildEntry::child).containsExactly(q + ":b");
    }

    /** Child a of p, taken by a worker: out of wait, active with a live lock. */
    private void takeChildA() {
        f.redisson.getList(f.k.waitList(), org.redisson.client.codec.StringCodec.INSTANCE).remove("a");
        f.active("a", "tok", ScriptFixture.LOCK_MS, NOW + ScriptFixture.LOCK_MS);
    }

    @Test
    void moveToFinishedTellsTheParentOfAChildFlaggedAtTakeAndCopiesItsValueBeforeRetentionDeletesIt() {
        join(flows.addFlow(NOW, List.of(job("p", "", "F" + q + ":a"), job("a", q + ":p:0", ""))));
        takeChildA();

        join(f.scripts.moveToFinished(NOW + 5, ScriptFixture.fetch(0),
                ScriptFixture.complete("a", "tok", "\"html\"", io.bullpen.Retention.keepNone()).withParent(true)));

        QueueSnapshot s = f.snap();
        assertThat(s.jobIds()).doesNotContain("a");
        assertThat(s.waiting()).containsExactly("p");
        assertThat(s.list("job:p:res")).containsExactly("c3:n-a\"html\"");
        f.assertInvariant();
    }

    @Test
    void moveToFinishedOfAFailedChildFailsItsParentOnAFailParentEdge() {
        join(flows.addFlow(NOW, List.of(job("p", "", "F" + q + ":a"), job("a", q + ":p:0", ""))));
        takeChildA();

        join(f.scripts.moveToFinished(NOW + 5, ScriptFixture.fetch(0),
                ScriptFixture.fail("a", "tok", "boom", 1, 0, false).withParent(true)));

        assertThat(f.snap().failed()).containsOnlyKeys("a", "p");
        assertThat(f.snap().job("p")).containsEntry("failedReason", "child " + q + ":a failed: boom");
    }

    @Test
    void moveToFinishedOfAFailedChildEndsItsFailedParentByTheParentsOwnRemoveOnFail() {
        addParentWithOptions("{\"removeOnFail\":{\"count\":0}}");
        takeChildA();

        join(f.scripts.moveToFinished(NOW + 5, ScriptFixture.fetch(0),
                ScriptFixture.fail("a", "tok", "boom", 1, 0, false).withParent(true)));

        QueueSnapshot s = f.snap();
        assertThat(s.failed()).containsOnlyKeys("a");
        assertThat(s.jobIds()).doesNotContain("p");
        assertThat(s.meta()).as("the child and its parent").containsEntry("mc:failed", "2");
        f.assertInvariant();
    }

    @Test
    void moveToFinishedOfAJobNotFlaggedDoesNoFlowWork() {
        join(flows.addFlow(NOW, List.of(job("p", "", "F" + q + ":a"), job("a", q + ":p:0", ""))));
        takeChildA();

        join(f.scripts.moveToFinished(NOW + 5, ScriptFixture.fetch(0),
                ScriptFixture.complete("a", "tok", "1", io.bullpen.Retention.keepAll())));

        assertThat(f.snap().zset("waiting-children")).as("the flag, read at take, decides").containsOnlyKeys("p");
    }
    @Test
    void aChildThatStallsOutTellsItsParentAtOnce() {
        join(flows.addFlow(NOW, List.of(job("p", "", "F" + q + ":a"), job("a", q + ":p:0", ""))));
        f.redisson.getList(f.k.waitList(), org.redisson.client.codec.StringCodec.INSTANCE).remove("a");
        f.active("a", "tok", 0, NOW - 1);

        ScriptTypes.StalledResult r = join(f.scripts.moveStalledJobsToWait(NOW, 0, 100));

        assertThat(r.failed()).containsExactly("a");
        QueueSnapshot s = f.snap();
        assertThat(s.failed()).containsOnlyKeys("a", "p");
        assertThat(s.job("p").get("failedReason")).startsWith("child " + q + ":a failed: job stalled more than");
        f.assertInvariant();
    }

    @Test
    void aChildCancelledWhileActiveTellsItsParentWhenItsWorkerPutsItBackLimited() {
        join(flows.addFlow(NOW, List.of(job("p", "", "F" + q + ":a"), job("a", q + ":p:0", ""))));
        takeChildA();
        join(new CancelScripts(f.redisson, f.k).cancelJob(NOW + 1, "a", "stop"));

        join(f.scripts.moveToFinished(NOW + 5, ScriptFixture.fetch(0),
                ScriptTypes.Finish.limited("a", "tok", 1_000, false)));

        QueueSnapshot s = f.snap();
        assertThat(s.failed()).containsOnlyKeys("a", "p");
        assertThat(s.job("p")).containsEntry("failedReason", "child " + q + ":a failed: cancelled: stop");
        f.assertInvariant();
    }

    @Test
    void aChildCancelledWhileActiveTellsItsParentWhenItsRetryTurnsIntoAFailure() {
        join(flows.addFlow(NOW, List.of(job("p", "", "I" + q + ":a"), job("a", q + ":p:0", ""))));
        takeChildA();
        join(new CancelScripts(f.redisson, f.k).cancelJob(NOW + 1, "a", "stop"));

        join(f.scripts.moveToFinished(NOW + 5, ScriptFixture.fetch(0),
                ScriptFixture.fail("a", "tok", "boom", 3, 0, false).withParent(true)));

        QueueSnapshot s = f.snap();
        assertThat(s.failed()).containsOnlyKeys("a");
        assertThat(s.waiting()).as("an IGNORE edge: the parent runs").containsExactly("p");
        assertThat(s.list("job:p:res")).containsExactly("f3:n-acancelled: stop");
        f.assertInvariant();
    }

    @Test
    void aPageOfChildrenReadsOnPastChildrenARemoveEdgeDropped() {
        join(flows.addFlow(NOW, List.of(
                job("p", "", "R" + q + ":a\nR" + q + ":b\nR" + q + ":c\nF" + q + ":d\nF" + q + ":e"),
                job("a", q + ":p:0", ""), job("b", q + ":p:1", ""), job("c", q + ":p:2", ""),
                job("d", q + ":p:3", ""), job("e", q + ":p:4", ""))));
        List<String> dropped = List.of("a", "b", "c");
        for (int i = 0; i < dropped.size(); i++) {
            String c = dropped.get(i);
            join(flows.childEnded(NOW + 5, "p", i, q + ":" + c, "n-" + c, "failed", "boom"));
        }
        FlowReads reads = new FlowReads(f.redisson, f.k.prefix());

        assertThat(reads.children(q, "p", null, 2)).as("a short page only at the end")
                .extracting(io.bullpen.flow.ChildResult::id).containsExactly("d", "e");
        assertThat(reads.children(q, "p", q + ":d", 2)).extracting(io.bullpen.flow.ChildResult::id)
                .containsExactly("e");
    }
}
