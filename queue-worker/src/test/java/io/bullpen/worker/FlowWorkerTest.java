package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.bullpen.JobCounts;
import io.bullpen.JobOptions;
import io.bullpen.JobState;
import io.bullpen.MetricsType;
import io.bullpen.Queue;
import io.bullpen.Retention;
import io.bullpen.UnrecoverableJobException;
import io.bullpen.flow.ChildFailure;
import io.bullpen.flow.ChildResult;
import io.bullpen.flow.FlowJob;
import io.bullpen.flow.FlowProducer;
import io.bullpen.flow.JobNode;
import io.bullpen.flow.JobRef;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

/** Flows as users run them: parents after their children, each ChildFailure policy, DAGs, across queues. */
@BullpenTest
class FlowWorkerTest {
    record Page(int n) {
    }

    private BullpenTestContext ctx;
    private RedissonClient redisson;
    private FlowProducer flows;
    private String reports;
    private String pages;
    private final List<Worker<?, ?>> workers = new CopyOnWriteArrayList<>();
    /** What each parent's processor saw of its children, by parent id. */
    private final Map<String, List<ChildResult>> seen = new ConcurrentHashMap<>();
    /** Parent starts, to check none starts before its children ended. */
    private final Map<String, Long> parentStarts = new ConcurrentHashMap<>();
    private final Map<String, Long> childEnds = new ConcurrentHashMap<>();
    private final AtomicInteger pageRuns = new AtomicInteger();

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.ctx = ctx;
        this.redisson = ctx.redisson();
        this.flows = FlowProducer.builder(redisson).build();
        this.reports = ctx.newQueueName();
        this.pages = ctx.newQueueName();
    }

    @AfterEach
    void tearDown() {
        workers.forEach(w -> w.close(Duration.ofSeconds(5)));
    }

    /** Pages render "html-<n>"; a negative page fails for good. */
    private void startPageWorker(String queue) {
        Worker<Page, String> w = Worker.builder(redisson, queue, Page.class).processor(c -> {
            pageRuns.incrementAndGet();
            try {
                if (c.job().data().n() < 0) {
                    throw new UnrecoverableJobException("page " + c.job().data().n() + " is broken");
                }
                return "html-" + c.job().data().n();
            } finally {
                childEnds.merge(queue + ":" + c.job().id(), System.nanoTime(), Math::max);
            }
        }).build();
        workers.add(w);
        w.start();
    }

    private void startReportWorker(String queue) {
        Worker<Page, String> w = Worker.builder(redisson, queue, Page.class).processor(c -> {
            parentStarts.putIfAbsent(c.job().id(), System.nanoTime());
            seen.put(c.job().id(), c.children());
            assertThat(c.childrenCount()).isEqualTo(c.children().size());
            return "assembled";
        }).build();
        workers.add(w);
        w.start();
    }

    private FlowJob page(String queue, int n) {
        return FlowJob.builder(queue, "render", new Page(n)).build();
    }

    private Queue<Page> queue(String name) {
        return Queue.builder(redisson, name, Page.class).build();
    }

    @Test
    void aParentInAnotherQueueRunsAfterItsChildrenAndReadsTheirValues() {
        startPageWorker(pages);
        startReportWorker(reports);

        JobNode root = flows.add(FlowJob.builder(reports, "assemble", new Page(0))
                .child(page(pages, 1)).child(page(pages, 2)).build());

        await().atMost(Duration.ofSeconds(20)).until(() -> queue(reports).getState(root.id()) == JobState.COMPLETED);
        assertThat(root.children()).hasSize(2);
        List<ChildResult> children = seen.get(root.id());
        assertThat(children).extracting(ChildResult::state).containsOnly(JobState.COMPLETED);
        assertThat(children).extracting(c -> c.returnValue(String.class).orElseThrow())
                .containsExactlyInAnyOrder("html-1", "html-2");
        for (JobNode child : root.children()) {
            assertThat(parentStarts.get(root.id())).isGreaterThan(childEnds.get(child.queue() + ":" + child.id()));
            assertThat(queue(pages).getJob(child.id()).orElseThrow().parents()).containsExactly(new JobRef(reports, root.id()));
        }
    }

    @Test
    void aParentInTheSameQueueRunsAfterItsChildren() {
        String shared = ctx.newQueueName();
        Worker<Page, String> w = Worker.builder(redisson, shared, Page.class).processor(c -> {
            if (c.job().name().equals("render")) {
                childEnds.put(shared + ":" + c.job().id(), System.nanoTime());
                return "html-" + c.job().data().n();
            }
            parentStarts.put(c.job().id(), System.nanoTime());
            seen.put(c.job().id(), c.children());
            return "assembled";
        }).build();
        workers.add(w);
        w.start();

        JobNode root = flows.add(FlowJob.builder(shared, "assemble", new Page(0))
                .child(page(shared, 1)).child(page(shared, 2)).build());

        await().atMost(Duration.ofSeconds(20)).until(() -> queue(shared).getState(root.id()) == JobState.COMPLETED);
        assertThat(seen.get(root.id())).extracting(c -> c.returnValue(String.class).orElseThrow())
                .containsExactlyInAnyOrder("html-1", "html-2");
        assertThat(parentStarts.get(root.id())).isGreaterThan(childEnds.values().stream().max(Long::compare).orElseThrow());
    }

    @Test
    void aChildFailingOnAFailParentEdgeFailsTheParentNamingTheChild() {
        startPageWorker(pages);
        startReportWorker(reports);

        JobNode root = flows.add(FlowJob.builder(reports, "assemble", new Page(0))
                .child(page(pages, 1)).child(page(pages, -2)).build());

        await().atMost(Duration.ofSeconds(20)).until(() -> queue(reports).getState(root.id()) == JobState.FAILED);
        String failedChild = root.children().get(1).id();
        assertThat(queue(reports).getJob(root.id()).orElseThrow().failedReason().orElseThrow())
                .isEqualTo("child " + pages + ":" + failedChild + " failed: page -2 is broken");
        assertThat(parentStarts).doesNotContainKey(root.id());
    }

    @Test
    void aParentFailedByItsChildIsRemovedByItsOwnRemoveOnFailAndCountedInTheFailedMetric() {
        JobNode root = flows.add(FlowJob.builder(reports, "assemble", new Page(0))
                .options(JobOptions.builder().removeOnFail(Retention.keepNone()).build())
                .child(page(pages, -1)).build());
        var result = queue(reports).awaitResult(root.id(), String.class, Duration.ofSeconds(30));
        startPageWorker(pages);
        startReportWorker(reports);

        assertThatThrownBy(() -> result.get(30, java.util.concurrent.TimeUnit.SECONDS))
                .as("its awaiter gets the failure, though the parent is gone")
                .hasCauseInstanceOf(io.bullpen.JobFailedException.class).hasMessageContaining("page -1 is broken");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> queue(reports).getMetrics(MetricsType.FAILED, 5).total() == 1);
        assertThat(queue(reports).getJob(root.id())).as("removed as its removeOnFail says").isEmpty();
        assertThat(queue(reports).getJobCounts().failed()).isZero();
        assertThat(queue(reports).getJobCounts().waitingChildren()).isZero();
        assertThat(parentStarts).doesNotContainKey(root.id());
    }

    @Test
    void aChildFailingOnAnIgnoreEdgeIsSeenByTheParent() {
        startPageWorker(pages);
        startReportWorker(reports);

        JobNode root = flows.add(FlowJob.builder(reports, "assemble", new Page(0))
                .child(page(pages, 1)).child(page(pages, -2), ChildFailure.IGNORE).build());

        await().atMost(Duration.ofSeconds(20)).until(() -> queue(reports).getState(root.id()) == JobState.COMPLETED);
        assertThat(seen.get(root.id())).extracting(ChildResult::state)
                .containsExactlyInAnyOrder(JobState.COMPLETED, JobState.FAILED);
        ChildResult failed = seen.get(root.id()).stream().filter(c -> c.state() == JobState.FAILED).findFirst().orElseThrow();
        assertThat(failed.failedReason()).contains("page -2 is broken");
    }

    @Test
    void aChildFailingOnARemoveEdgeIsNotSeenByTheParent() {
        startPageWorker(pages);
        startReportWorker(reports);

        JobNode root = flows.add(FlowJob.builder(reports, "assemble", new Page(0))
                .child(page(pages, 1)).child(page(pages, -2), ChildFailure.REMOVE).build());

        await().atMost(Duration.ofSeconds(20)).until(() -> queue(reports).getState(root.id()) == JobState.COMPLETED);
        assertThat(seen.get(root.id())).extracting(ChildResult::id).containsExactly(root.children().get(0).id());
    }

    @Test
    void aChildFailingOnAContinueEdgeStartsTheParentAtOnce() {
        startPageWorker(pages);
        startReportWorker(reports);
        // The other child is delayed: the parent must not wait for it.
        FlowJob slow = FlowJob.builder(pages, "render", new Page(3))
                .options(JobOptions.builder().delay(Duration.ofHours(1)).build()).build();

        JobNode root = flows.add(FlowJob.builder(reports, "assemble", new Page(0))
                .child(slow).child(page(pages, -2), ChildFailure.CONTINUE).build());

        await().atMost(Duration.ofSeconds(20)).until(() -> queue(reports).getState(root.id()) == JobState.COMPLETED);
        assertThat(queue(pages).getState(root.children().get(0).id())).isEqualTo(JobState.DELAYED);
    }

    @Test
    void aChildSharedByTwoParentsRunsOnceAndBothSeeIt() {
        startPageWorker(pages);
        startReportWorker(reports);
        FlowJob shared = page(pages, 7);

        List<JobNode> roots = flows.addBulk(List.of(
                FlowJob.builder(reports, "a", new Page(0)).child(FlowJob.builder(reports, "b", new Page(0)).child(shared).build())
                        .child(shared).build()));

        JobNode root = roots.get(0);
        await().atMost(Duration.ofSeconds(20)).until(() -> queue(reports).getState(root.id()) == JobState.COMPLETED);
        assertThat(pageRuns).hasValue(1);
        String sharedId = root.children().get(1).id();
        assertThat(root.children().get(0).children().get(0).id()).isEqualTo(sharedId);
        assertThat(queue(pages).getJob(sharedId).orElseThrow().parents()).hasSize(2);
    }

    @Test
    void aCycleIsRejectedAtTheAddNamingTheJobAndNothingIsWritten() {
        FlowJob a2 = FlowJob.builder(reports, "a", new Page(0)).jobId("job-a").build();
        FlowJob b = FlowJob.builder(pages, "b", new Page(0)).jobId("job-b").child(a2).build();
        FlowJob a = FlowJob.builder(reports, "a", new Page(0)).jobId("job-a").child(b).build();

        assertThatThrownBy(() -> flows.add(a)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cycle").hasMessageContaining(reports + ":job-a");
        assertThat(queue(reports).getJobCounts().total()).isZero();
        assertThat(queue(pages).getJobCounts().total()).isZero();
    }

    @Test
    void anExistingJobAddedBelowItsOwnDescendantInALaterAddIsRefusedNamingTheJobs() {
        flows.add(FlowJob.builder(reports, "a", new Page(0)).jobId("job-a")
                .child(FlowJob.builder(pages, "b", new Page(1)).jobId("job-b").build()).build());

        assertThatThrownBy(() -> flows.add(FlowJob.builder(pages, "b", new Page(1)).jobId("job-b")
                .child(FlowJob.builder(reports, "a", new Page(0)).jobId("job-a").build()).build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cycle")
                .hasMessageContaining(reports + ":job-a").hasMessageContaining(pages + ":job-b");
        assertThat(queue(reports).getJob("job-a").orElseThrow().parents()).as("nothing written").isEmpty();
        assertThat(queue(pages).getChildren("job-b", null, 10)).isEmpty();
    }

    @Test
    void aChildsValueIsKeptForTheParentWhenRetentionRemovesTheChild() {
        startPageWorker(pages);
        startReportWorker(reports);
        FlowJob removedAtOnce = FlowJob.builder(pages, "render", new Page(5))
                .options(JobOptions.builder().removeOnComplete(Retention.keepNone()).build()).build();

        JobNode root = flows.add(FlowJob.builder(reports, "assemble", new Page(0)).child(removedAtOnce).build());

        await().atMost(Duration.ofSeconds(20)).until(() -> queue(reports).getState(root.id()) == JobState.COMPLETED);
        assertThat(queue(pages).getJob(root.children().get(0).id())).isEmpty();
        assertThat(seen.get(root.id()).get(0).returnValue(String.class)).contains("html-5");
    }

    @Test
    void aWaitingParentIsCountedAndListedWithWhatItWaitsFor() {
        JobNode root = flows.add(FlowJob.builder(reports, "assemble", new Page(0)).child(page(pages, 1)).build());

        JobCounts counts = queue(reports).getJobCounts();
        assertThat(counts.waitingChildren()).isEqualTo(1);
        assertThat(counts.count(JobState.WAITING_CHILDREN)).isEqualTo(1);
        assertThat(queue(reports).getState(root.id())).isEqualTo(JobState.WAITING_CHILDREN);
        List<ChildResult> pending = queue(reports).getChildren(root.id(), null, 10);
        assertThat(pending).extracting(ChildResult::state).containsExactly(JobState.WAITING);
        assertThat(queue(reports).getFlow(reports, root.id(), 2, 10).children()).extracting(JobNode::id)
                .containsExactly(root.children().get(0).id());
        ctx.assertInvariant(reports);
        ctx.assertInvariant(pages);
    }
}
