package io.bullpen.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.flow.ChildFailure;
import io.bullpen.flow.ChildResult;
import io.bullpen.flow.FlowJob;
import io.bullpen.flow.FlowProducer;
import io.bullpen.flow.JobNode;
import io.bullpen.internal.FlowScripts.FlowRecord;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/** Flows across queues (slots): staged adds, the outbox relay and the reconciler, without workers. */
@BullpenTest
class FlowRelayTest {
    private BullpenTestContext ctx;
    private RedissonClient redisson;
    private FlowRelay relay;
    private String reports;
    private String pages;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.ctx = ctx;
        this.redisson = ctx.redisson();
        this.relay = new FlowRelay(redisson, "bp", Clock.systemUTC());
        this.reports = ctx.newQueueName();
        this.pages = ctx.newQueueName();
    }

    private Queue<Integer> queue(String name) {
        return Queue.builder(redisson, name, Integer.class).build();
    }

    private List<FlowRelay.Chunk> twoQueueFlow(String policy) {
        return List.of(
                new FlowRelay.Chunk(reports, List.of(new FlowRecord("r1", "assemble", "1", "", 0, 0, false, null, "",
                        policy + pages + ":p1"))),
                new FlowRelay.Chunk(pages, List.of(new FlowRecord("p1", "render", "2", "", 0, 0, false, null,
                        reports + ":r1:0", ""))));
    }

    /** A page job that ended: in completed, with its return value, as a finish leaves it. */
    private void completePage(String id, String value) {
        KeyScheme k = new KeyScheme("bp", pages);
        redisson.getList(k.waitList(), StringCodec.INSTANCE).remove(id);
        redisson.getScoredSortedSet(k.completed(), StringCodec.INSTANCE).add(1, id);
        redisson.<String, String>getMap(k.job(id), StringCodec.INSTANCE).put("returnValue", value);
    }

    @Test
    void aParentWhoseChildrenAreStagedInSeveralChunksIsMaterializedOnceEvenWhenTwoRunnersRepeatIt() {
        relay.stageAndCommit(reports, "f2", List.of(
                new FlowRelay.Chunk(reports, List.of(new FlowRecord("r2", "assemble", "1", "", 0, 0, false, null, "",
                        "F" + pages + ":p1\nF" + pages + ":p2", 3, "f2"))),
                new FlowRelay.Chunk(reports, List.of(), new FlowScripts.MoreChildren("r2", "f2", 2, true, "F" + pages + ":p3")),
                new FlowRelay.Chunk(pages, List.of(
                        new FlowRecord("p1", "render", "1", "", 0, 0, false, null, reports + ":r2:0", ""),
                        new FlowRecord("p2", "render", "2", "", 0, 0, false, null, reports + ":r2:1", ""),
                        new FlowRecord("p3", "render", "3", "", 0, 0, false, null, reports + ":r2:2", "")))));

        relay.materialize(reports, "f2");
        relay.stageAndCommit(reports, "f2", List.of(
                new FlowRelay.Chunk(reports, List.of(), new FlowScripts.MoreChildren("r2", "f2", 2, true, "F" + pages + ":p3"))));
        relay.materialize(reports, "f2");

        KeyScheme k = new KeyScheme("bp", reports);
        assertThat(redisson.getList(k.children("r2"), StringCodec.INSTANCE).readAll())
                .containsExactly(pages + ":p1", pages + ":p2", pages + ":p3");
        assertThat(PendingChildren.indexes(redisson, k.pendingChildren("r2"), 10)).containsExactly(0, 1, 2);
        assertThat(queue(pages).getJobCounts().waiting()).isEqualTo(3);
        for (String page : List.of("p1", "p2", "p3")) {
            completePage(page, "\"" + page + "\"");
            Futures.join(relay.scripts(reports).childEnded(1, "r2", Long.parseLong(page.substring(1)) - 1, pages + ":" + page,
                    "render", "completed", "\"" + page + "\""));
        }
        assertThat(queue(reports).getState("r2")).isEqualTo(JobState.WAITING);
        ctx.assertInvariant(reports);
    }

    @Test
    void aStagedFlowIsInvisibleUntilCommittedAndThenCarriedOnByAnyone() {
        relay.stageAndCommit(reports, "f1", twoQueueFlow("F"));
        assertThat(queue(reports).getJobCounts().total()).as("committed, not yet created").isZero();
        assertThat(queue(pages).getJobCounts().total()).isZero();

        assertThat(relay.carryOnFlows(reports, 0, 10)).isEqualTo(1);

        assertThat(queue(reports).getState("r1")).isEqualTo(JobState.WAITING_CHILDREN);
        assertThat(queue(pages).getState("p1")).isEqualTo(JobState.WAITING);
        KeyScheme root = new KeyScheme("bp", reports);
        assertThat(redisson.getKeys().countExists(root.flowPrefix() + "f1")).isZero();
        assertThat(redisson.getScoredSortedSet(root.flowsPending(), StringCodec.INSTANCE).size()).isZero();
        assertThat(relay.carryOnFlows(reports, 0, 10)).as("nothing left").isZero();
        relay.materialize(reports, "f1");
        assertThat(queue(pages).getJobCounts().total()).as("a repeat adds nothing").isEqualTo(1);
        ctx.assertInvariant(reports);
        ctx.assertInvariant(pages);
    }

    @Test
    void anUncommittedStageExpires() {
        KeyScheme root = new KeyScheme("bp", reports);
        String stage = root.flowPrefix() + "f2";
        redisson.getList(stage, StringCodec.INSTANCE).add("{}");
        redisson.getBucket(stage, StringCodec.INSTANCE).expire(java.time.Duration.ofMillis(FlowRelay.STAGE_TTL_MS));

        assertThat(redisson.getBucket(stage, StringCodec.INSTANCE).remainTimeToLive()).isPositive();
        relay.stageAndCommit(reports, "f3", twoQueueFlow("F"));
        assertThat(redisson.getBucket(root.flowPrefix() + "f3", StringCodec.INSTANCE).remainTimeToLive())
                .as("a committed stage lives until created").isEqualTo(-1);
    }

    @Test
    void aChildsEndInAnotherSlotReachesItsParentThroughTheOutboxOnce() {
        relay.add(twoQueueFlow("F").get(0));
        relay.add(twoQueueFlow("F").get(1));
        completePage("p1", "\"html\"");
        // The end as the finish writes it: the outbox entry, in the child's slot.
        String entry = "{\"p\":\"" + reports + ":r1\",\"i\":\"0\",\"c\":\"" + pages + ":p1\",\"n\":\"render\",\"s\":\"completed\",\"v\":\"\\\"html\\\"\"}";
        redisson.getList(new KeyScheme("bp", pages).flowOutbox(), StringCodec.INSTANCE).add(entry);
        redisson.getList(new KeyScheme("bp", pages).flowOutbox(), StringCodec.INSTANCE).add(entry);

        assertThat(relay.relayOutbox(pages, 100)).isEqualTo(2);

        assertThat(queue(reports).getState("r1")).isEqualTo(JobState.WAITING);
        List<ChildResult> children = queue(reports).getChildren("r1", null, 10);
        assertThat(children).singleElement().satisfies(c -> {
            assertThat(c.state()).isEqualTo(JobState.COMPLETED);
            assertThat(c.returnValue(String.class)).contains("html");
        });
        assertThat(redisson.getList(new KeyScheme("bp", pages).flowOutbox(), StringCodec.INSTANCE).size()).isZero();
        assertThat(redisson.getList(new KeyScheme("bp", reports).waitList(), StringCodec.INSTANCE).readAll())
                .containsExactly("r1");
    }

    @Test
    void aParentFailedByARelayedEndTellsItsParentInAThirdSlotInTheSameRelay() {
        // root (IGNORE) <- middle (FAIL_PARENT) <- leaf, each in its own queue: the leaf's failure
        // fails the middle in the middle's slot, whose end goes to the middle queue's outbox.
        String middle = ctx.newQueueName();
        FlowProducer flows = FlowProducer.builder(redisson).build();
        JobNode root = flows.add(FlowJob.builder(reports, "assemble", 0)
                .child(FlowJob.builder(middle, "bundle", 1)
                        .child(FlowJob.builder(pages, "render", 2).build(), ChildFailure.FAIL_PARENT).build(),
                        ChildFailure.IGNORE)
                .build());
        JobNode mid = root.children().get(0);
        JobNode leaf = mid.children().get(0);
        queue(pages).cancel(leaf.id(), "not needed");

        relay.relayOutbox(pages, 100);

        assertThat(queue(middle).getState(mid.id())).isEqualTo(JobState.FAILED);
        assertThat(queue(reports).getState(root.id())).as("the root moved on in the same relay, not at a worker's "
                + "heartbeat of the middle queue").isEqualTo(JobState.WAITING);
        assertThat(queue(reports).getChildren(root.id(), null, 10)).singleElement()
                .satisfies(c -> assertThat(c.failedReason()).hasValueSatisfying(r -> assertThat(r).startsWith("child ")));
        assertThat(redisson.getList(new KeyScheme("bp", middle).flowOutbox(), StringCodec.INSTANCE).size()).isZero();
        ctx.assertInvariant(reports);
        ctx.assertInvariant(middle);
        ctx.assertInvariant(pages);
    }

    @Test
    void aChildCancelledOrRemovedThroughAQueueTellsItsParentInAnotherSlotAtOnce() {
        FlowProducer flows = FlowProducer.builder(redisson).build();
        JobNode cancelled = flows.add(FlowJob.builder(reports, "assemble", 0)
                .child(FlowJob.builder(pages, "render", 1).build(), ChildFailure.FAIL_PARENT).build());
        JobNode removed = flows.add(FlowJob.builder(reports, "assemble", 0)
                .child(FlowJob.builder(pages, "render", 2).build(), ChildFailure.IGNORE).build());

        // No worker runs: only the Queue's own call can carry the ends to the parents' slot.
        queue(pages).cancel(cancelled.children().get(0).id(), "not needed");
        queue(pages).remove(removed.children().get(0).id());

        assertThat(queue(reports).getState(cancelled.id())).isEqualTo(JobState.FAILED);
        assertThat(queue(reports).getState(removed.id())).isEqualTo(JobState.WAITING);
        assertThat(queue(reports).getChildren(removed.id(), null, 10)).singleElement()
                .satisfies(c -> assertThat(c.failedReason()).contains("removed"));
        assertThat(redisson.getList(new KeyScheme("bp", pages).flowOutbox(), StringCodec.INSTANCE).size()).isZero();
        ctx.assertInvariant(reports);
        ctx.assertInvariant(pages);
    }

    @Test
    void theReconcilerMovesOnAParentWhoseChildEndedWithoutTellingIt() {
        relay.add(twoQueueFlow("F").get(0));
        relay.add(twoQueueFlow("F").get(1));
        completePage("p1", "7");

        FlowReconciler reconciler = new FlowReconciler(redisson, "bp", Clock.systemUTC());
        assertThat(reconciler.reconcile(reports, 0, 10)).containsExactly(reports + ":r1 <- " + pages + ":p1 completed");

        assertThat(queue(reports).getState("r1")).isEqualTo(JobState.WAITING);
        assertThat(queue(reports).getChildren("r1", null, 10).get(0).returnValue(Integer.class)).contains(7);
        assertThat(reconciler.reconcile(reports, 0, 10)).as("idempotent").isEmpty();
    }

    @Test
    void theReconcilerCountsAChildThatNoLongerExistsAsRemoved() {
        relay.add(twoQueueFlow("I").get(0));

        List<String> repaired = new FlowReconciler(redisson, "bp", Clock.systemUTC()).reconcile(reports, 0, 10);

        assertThat(repaired).containsExactly(reports + ":r1 <- " + pages + ":p1 removed");
        assertThat(queue(reports).getState("r1")).isEqualTo(JobState.WAITING);
        assertThat(queue(reports).getChildren("r1", null, 10).get(0).failedReason()).contains("removed");
    }

    @Test
    void theReconcilerLeavesAParentAloneWithinTheGracePeriod() {
        relay.add(twoQueueFlow("F").get(0));

        assertThat(new FlowReconciler(redisson, "bp", Clock.systemUTC()).reconcile(reports, 60_000, 10)).isEmpty();
        assertThat(queue(reports).getState("r1")).isEqualTo(JobState.WAITING_CHILDREN);
    }

    @Test
    void reAddingAFlowWithTheSameCustomIdsKeepsTheExistingJobsAndDuplicatesNothing() {
        FlowProducer flows = FlowProducer.builder(redisson).build();
        FlowJob flow = FlowJob.builder(reports, "assemble", 1).jobId("report-7")
                .child(FlowJob.builder(pages, "render", 2).jobId("page-1").build(), ChildFailure.IGNORE).build();

        JobNode first = flows.add(flow);
        JobNode again = flows.add(flow);

        assertThat(again).isEqualTo(first);
        assertThat(queue(reports).getJobCounts().total()).isEqualTo(1);
        assertThat(queue(pages).getJobCounts().total()).isEqualTo(1);
        assertThat(queue(pages).getJob("page-1").orElseThrow().parents()).hasSize(1);
        assertThat(queue(reports).getChildren("report-7", null, 10)).hasSize(1);
    }

    @Test
    void aLargeFanOutIsAddedInChunksWithItsChildrenSplitOverCallsAndPagesThem() {
        FlowJob.Builder parent = FlowJob.builder(reports, "assemble", 0);
        for (int i = 0; i < 2500; i++) {
            parent.child(FlowJob.builder(reports, "render", i).build());
        }

        JobNode root = FlowProducer.builder(redisson).build().add(parent.build());

        assertThat(queue(reports).getJobCounts().waiting()).isEqualTo(2500);
        assertThat(queue(reports).getState(root.id())).isEqualTo(JobState.WAITING_CHILDREN);
        assertThat(PendingChildren.indexes(redisson, new KeyScheme("bp", reports).pendingChildren(root.id()), 10_000))
                .hasSize(2500);
        assertThat(redisson.getBitSet(new KeyScheme("bp", reports).pendingChildren(root.id())).cardinality()).isEqualTo(2500);
        List<ChildResult> page = queue(reports).getChildren(root.id(), null, 1000);
        assertThat(page).hasSize(1000);
        ChildResult last = page.get(999);
        List<ChildResult> next = queue(reports).getChildren(root.id(), last.queue() + ":" + last.id(), 1000);
        assertThat(next).hasSize(1000).first().extracting(ChildResult::id).isEqualTo(root.children().get(1000).id());
        assertThat(new FlowReads(redisson, "bp").allChildren(reports, root.id(), 300)).hasSize(2500);
        ctx.assertInvariant(reports);
    }

    @Test
    void aNewParentOverAChildThatEndedInAnotherQueueMovesOnAtTheAdd() {
        FlowProducer flows = FlowProducer.builder(redisson).build();
        flows.add(FlowJob.builder(pages, "render", 1).jobId("page-9").build());
        completePage("page-9", "\"done\"");

        JobNode root = flows.add(FlowJob.builder(reports, "assemble", 0)
                .child(FlowJob.builder(pages, "render", 1).jobId("page-9").build()).build());

        assertThat(queue(reports).getState(root.id())).isEqualTo(JobState.WAITING);
        assertThat(queue(reports).getChildren(root.id(), null, 10).get(0).returnValue(String.class)).contains("done");
    }

    @Test
    void aStagedChunkCarriesTraceHeadersOnlyWhenItsJobsHaveSome() {
        String tc = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        FlowRecord traced = new FlowRecord("r1", "assemble", "1", "", 0, 0, false, null, "", "", 0, "", tc);
        FlowRecord plain = new FlowRecord("r2", "assemble", "1", "", 0, 0, false, null, "", "");

        String withTc = JsonCodec.encodeValue(new FlowRelay.Chunk(reports, List.of(traced)), "flow chunk");
        String without = JsonCodec.encodeValue(new FlowRelay.Chunk(reports, List.of(plain)), "flow chunk");

        FlowRelay.Chunk back = JsonCodec.mapper().convertValue(JsonCodec.decode(withTc,
                JsonCodec.type(com.fasterxml.jackson.databind.JsonNode.class)), FlowRelay.Chunk.class);
        assertThat(back.jobs().get(0).tc()).isEqualTo(tc);
        assertThat(without).doesNotContain("\"tc\"");
    }
}
