package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.UnrecoverableJobException;
import io.bullpen.flow.ChildResult;
import io.bullpen.flow.FlowJob;
import io.bullpen.flow.FlowProducer;
import io.bullpen.flow.JobRef;
import io.bullpen.internal.KeyScheme;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/** Children a processor adds at runtime (JobContext.addChildren) and waits for (waitForChildren). */
@BullpenTest
class FlowDynamicChildrenTest {
    record Page(int n) {
    }

    private RedissonClient redisson;
    private String reports;
    private String pages;
    private final List<Worker<?, ?>> workers = new CopyOnWriteArrayList<>();
    private final AtomicInteger parentRuns = new AtomicInteger();
    private final Map<String, List<ChildResult>> seen = new ConcurrentHashMap<>();

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.redisson = ctx.redisson();
        this.reports = ctx.newQueueName();
        this.pages = ctx.newQueueName();
    }

    @AfterEach
    void tearDown() {
        workers.forEach(w -> w.close(Duration.ofSeconds(5)));
    }

    private Queue<Page> queue(String name) {
        return Queue.builder(redisson, name, Page.class).build();
    }

    private <R> Worker<Page, R> start(String queue, JobProcessor<Page, R> processor) {
        Worker<Page, R> w = Worker.builder(redisson, queue, Page.class).processor(processor).build();
        workers.add(w);
        w.start();
        return w;
    }

    /** Pages render "html-<n>"; run by the worker of their queue (in the reports queue: name "render"). */
    private static String render(JobContext<Page> c) {
        return "html-" + c.job().data().n();
    }

    /** A report that, on its first run, adds two pages in {@code childQueue} and waits for them. */
    private Object report(JobContext<Page> c, String childQueue) {
        if (c.job().name().equals("render")) {
            return render(c);
        }
        parentRuns.incrementAndGet();
        if (c.childrenCount() == 0) {
            c.addChildren(FlowJob.builder(childQueue, "render", new Page(1)).build(),
                    FlowJob.builder(childQueue, "render", new Page(2)).build());
            c.waitForChildren();
            return "ignored";
        }
        seen.put(c.job().id(), c.children());
        return "assembled";
    }

    private void assertAssembledAfterItsChildren(String parentId) {
        await().atMost(Duration.ofSeconds(20)).until(() -> queue(reports).getState(parentId) == JobState.COMPLETED);
        Job<Page> parent = queue(reports).getJob(parentId).orElseThrow();
        assertThat(parent.returnValue(String.class)).contains("assembled");
        assertThat(parent.attemptsMade()).as("the wait used no attempt").isEqualTo(1);
        assertThat(parentRuns.get()).isEqualTo(2);
        assertThat(seen.get(parentId)).extracting(ChildResult::state).containsOnly(JobState.COMPLETED);
        assertThat(seen.get(parentId)).extracting(ch -> ch.returnValue(String.class).orElseThrow())
                .containsExactly("html-1", "html-2");
    }

    @Test
    void aProcessorAddsChildrenInItsOwnQueueAndRunsAgainWhenTheyAreDone() {
        start(reports, c -> report(c, reports));

        String id = queue(reports).add("assemble", new Page(0)).id();

        assertAssembledAfterItsChildren(id);
        ChildResult first = seen.get(id).get(0);
        assertThat(first.queue()).isEqualTo(reports);
        assertThat(queue(reports).getJob(first.id()).orElseThrow().parents()).containsExactly(new JobRef(reports, id));
    }

    @Test
    void aProcessorAddsChildrenInAnotherQueueAndSlotAndRunsAgainWhenTheyAreDone() {
        start(pages, FlowDynamicChildrenTest::render);
        start(reports, c -> report(c, pages));

        String id = queue(reports).add("assemble", new Page(0)).id();

        assertAssembledAfterItsChildren(id);
        assertThat(seen.get(id)).extracting(ChildResult::queue).containsOnly(pages);
        assertThat(new KeyScheme("bp", reports).tag()).isNotEqualTo(new KeyScheme("bp", pages).tag());
    }

    @Test
    void childrenStagedWithoutAWaitAreAddedWithTheCompletionAndDoNotHoldTheJob() {
        start(pages, FlowDynamicChildrenTest::render);
        start(reports, c -> {
            c.addChildren(FlowJob.builder(pages, "render", new Page(5)).build());
            return "done";
        });

        String id = queue(reports).add("assemble", new Page(0)).id();

        await().atMost(Duration.ofSeconds(20)).until(() -> queue(reports).getState(id) == JobState.COMPLETED);
        await().atMost(Duration.ofSeconds(20)).until(() -> queue(reports).getChildren(id, null, 10).stream()
                .anyMatch(ch -> ch.state() == JobState.COMPLETED));
        assertThat(queue(reports).getChildren(id, null, 10)).singleElement()
                .satisfies(ch -> assertThat(ch.returnValue(String.class)).contains("html-5"));
    }

    @Test
    void aThrowDropsTheStagedChildren() {
        CountDownLatch threw = new CountDownLatch(1);
        start(reports, c -> {
            c.addChildren(FlowJob.builder(pages, "render", new Page(1)).build());
            c.waitForChildren();
            threw.countDown();
            throw new UnrecoverableJobException("no report today");
        });

        String id = queue(reports).add("assemble", new Page(0)).id();

        await().atMost(Duration.ofSeconds(20)).until(() -> queue(reports).getState(id) == JobState.FAILED);
        assertThat(queue(reports).getJob(id).orElseThrow().failedReason()).contains("no report today");
        assertThat(queue(reports).getChildren(id, null, 10)).isEmpty();
        assertThat(queue(pages).getJobCounts().total()).isZero();
        assertThat(redisson.getKeys().getKeysStreamByPattern("*flows:pending").count()).isZero();
    }

    @Test
    void aWaitWithNoChildPendingRunsTheProcessorAgainAtOnce() {
        AtomicInteger runs = new AtomicInteger();
        start(reports, c -> {
            if (runs.incrementAndGet() == 1) {
                c.waitForChildren();
                return "ignored";
            }
            return "second";
        });

        String id = queue(reports).add("assemble", new Page(0)).id();

        await().atMost(Duration.ofSeconds(20)).until(() -> queue(reports).getState(id) == JobState.COMPLETED);
        Job<Page> job = queue(reports).getJob(id).orElseThrow();
        assertThat(job.returnValue(String.class)).contains("second");
        assertThat(job.attemptsMade()).isEqualTo(1);
        assertThat(runs.get()).isEqualTo(2);
    }

    @Test
    void aCrashBeforeTheFinishAddsNoChild() throws Exception {
        CountDownLatch staged = new CountDownLatch(1);
        Worker<Page, Object> w = start(reports, c -> {
            c.addChildren(FlowJob.builder(pages, "render", new Page(1)).build());
            c.waitForChildren();
            staged.countDown();
            Thread.sleep(60_000); // interrupted by the forced close: the attempt never finishes
            return "never";
        });
        String id = queue(reports).add("assemble", new Page(0)).id();
        assertThat(staged.await(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

        w.close(Duration.ZERO);

        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() ->
                queue(pages).getJobCounts().total() == 0 && queue(reports).getChildren(id, null, 10).isEmpty());
        assertThat(queue(reports).getState(id)).isNotIn(JobState.WAITING_CHILDREN, JobState.COMPLETED, JobState.FAILED);
        assertThat(redisson.getKeys().getKeysStreamByPattern("*flows:pending").count()).isZero();
    }

    @Test
    void addingAnAncestorAsAChildIsRefusedNamingTheJobsAndWritesNothing() {
        AtomicReference<Throwable> refused = new AtomicReference<>();
        AtomicReference<Throwable> self = new AtomicReference<>();
        start(reports, c -> "root done");
        start(pages, c -> {
            if (refused.get() != null) {
                return "mid done";
            }
            try {
                c.addChildren(FlowJob.builder(reports, "assemble", new Page(0))
                        .options(JobOptions.builder().jobId("root").build()).build());
            } catch (IllegalArgumentException e) {
                refused.set(e);
            }
            try {
                c.addChildren(FlowJob.builder(pages, "render", new Page(0))
                        .options(JobOptions.builder().jobId("mid").build()).build());
            } catch (IllegalArgumentException e) {
                self.set(e);
            }
            c.waitForChildren(); // none pending: runs again at once
            return "ignored";
        });

        FlowProducer.builder(redisson).build().add(FlowJob.builder(reports, "assemble", new Page(0))
                .options(JobOptions.builder().jobId("root").build())
                .child(FlowJob.builder(pages, "render", new Page(1)).options(JobOptions.builder().jobId("mid").build())
                        .build())
                .build());

        await().atMost(Duration.ofSeconds(20)).until(() -> queue(reports).getState("root") == JobState.COMPLETED);
        assertThat(refused.get()).hasMessageContaining(reports + ":root").hasMessageContaining(pages + ":mid")
                .hasMessageContaining("cycle");
        assertThat(self.get()).hasMessageContaining(pages + ":mid").hasMessageContaining("cycle");
        assertThat(queue(pages).getChildren("mid", null, 10)).isEmpty();
        assertThat(queue(pages).getJob("mid").orElseThrow().attemptsMade()).isEqualTo(1);
        assertThat(redisson.getList("bp:{" + reports + "}:job:root:kids", StringCodec.INSTANCE).size()).isEqualTo(1);
    }
}
