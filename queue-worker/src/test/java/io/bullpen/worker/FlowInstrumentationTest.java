package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.flow.FlowJob;
import io.bullpen.flow.FlowProducer;
import io.bullpen.flow.JobNode;
import io.bullpen.instrument.Instrumentation;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.RedisCalls;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

/**
 * A flow add is seen by instrumentations as one bulk add: its headers are stored with every job of
 * the flow and handed to each attempt, and each job added is reported.
 */
@BullpenTest
class FlowInstrumentationTest {
    private static final String TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    private RedissonClient redisson;
    private String reports;
    private String pages;
    private final List<Worker<?, ?>> workers = new CopyOnWriteArrayList<>();

    /** Puts a traceparent at each add and records what it is told. */
    private static final class Recording implements Instrumentation {
        final List<String> starts = new CopyOnWriteArrayList<>();
        final List<List<String>> endedIds = new CopyOnWriteArrayList<>();
        final List<Throwable> endedErrors = new CopyOnWriteArrayList<>();
        final List<String> added = new CopyOnWriteArrayList<>();
        final Map<String, Map<String, String>> processHeaders = new ConcurrentHashMap<>();
        final AtomicInteger startThreadMismatches = new AtomicInteger();

        @Override
        public Adding addStarting(String queue, String jobName, int jobCount, boolean bulk, Map<String, String> headers) {
            starts.add(queue + "/" + jobName + "/" + jobCount + "/" + bulk);
            headers.put("traceparent", TRACEPARENT);
            Thread adder = Thread.currentThread();
            return (ids, error) -> {
                if (Thread.currentThread() != adder) {
                    startThreadMismatches.incrementAndGet();
                }
                endedIds.add(ids);
                if (error != null) {
                    endedErrors.add(error);
                }
            };
        }

        @Override
        public void jobAdded(String queue, String jobId, String jobName) {
            added.add(queue + ":" + jobId);
        }

        @Override
        public Processing processStarting(String queue, Job<?> job, Map<String, String> headers) {
            processHeaders.put(queue + ":" + job.id(), headers);
            return Processing.NONE;
        }
    }

    /**
     * Stands for a tracer: an attempt's job is the current context on its processor's thread
     * while it runs, and an add puts a traceparent naming the current context (the root's outside).
     */
    private static final class Contextual implements Instrumentation {
        final ThreadLocal<String> current = new ThreadLocal<>();
        final List<String> starts = new CopyOnWriteArrayList<>();
        final List<List<String>> endedIds = new CopyOnWriteArrayList<>();
        final Map<String, Map<String, String>> processHeaders = new ConcurrentHashMap<>();

        static String traceparent(String context) {
            return "00-0af7651916cd43dd8448eb211c80319c-" + String.format("%016x", context.hashCode() & 0xffffffffL) + "-01";
        }

        @Override
        public Adding addStarting(String queue, String jobName, int jobCount, boolean bulk, Map<String, String> headers) {
            String context = current.get() == null ? "root" : current.get();
            starts.add(queue + "/" + jobName + "/" + jobCount + "/" + bulk + " in " + context);
            headers.put("traceparent", traceparent(context));
            return (ids, error) -> endedIds.add(ids);
        }

        @Override
        public Processing processStarting(String queue, Job<?> job, Map<String, String> headers) {
            processHeaders.put(queue + ":" + job.id(), headers);
            String before = current.get();
            current.set(job.id());
            return error -> current.set(before);
        }
    }

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

    private String storedTc(String queue, String id) {
        return redisson.<String, String>getMap(RedisCalls.map(new KeyScheme("bp", queue).job(id))).get("tc");
    }

    private static void refs(JobNode node, List<String> out) {
        out.add(node.queue() + ":" + node.id());
        node.children().forEach(c -> refs(c, out));
    }

    @Test
    void aStagedFlowOverTwoQueuesCarriesTheHeadersToEveryJobAndEveryAttempt() {
        Recording rec = new Recording();
        FlowProducer flows = FlowProducer.builder(redisson).instrumentation(rec).build();
        // 150 pages: the pages' queue gets its jobs in two addFlow calls, after the root's.
        FlowJob.Builder root = FlowJob.builder(reports, "assemble", 7);
        for (int i = 0; i < 150; i++) {
            root.child(FlowJob.builder(pages, "render", i).build());
        }
        JobNode added = flows.add(root.build());

        List<String> all = new ArrayList<>();
        refs(added, all);
        assertThat(all).hasSize(151);
        for (String ref : all) {
            int colon = ref.lastIndexOf(':');
            assertThat(storedTc(ref.substring(0, colon), ref.substring(colon + 1))).as(ref).isEqualTo(TRACEPARENT);
        }
        assertThat(rec.starts).containsExactly(reports + "/assemble/151/true");
        assertThat(rec.added).containsExactlyInAnyOrderElementsOf(all);
        assertThat(rec.endedIds).hasSize(1);
        assertThat(rec.endedIds.get(0)).containsExactlyInAnyOrderElementsOf(
                all.stream().map(r -> r.substring(r.lastIndexOf(':') + 1)).toList());
        assertThat(rec.endedErrors).isEmpty();
        assertThat(rec.startThreadMismatches).hasValue(0);

        Worker<Integer, String> pageWorker = Worker.builder(redisson, pages, Integer.class).instrumentation(rec)
                .concurrency(4).processor(c -> "page").build();
        Worker<Integer, String> reportWorker = Worker.builder(redisson, reports, Integer.class).instrumentation(rec)
                .processor(c -> "report").build();
        workers.add(pageWorker);
        workers.add(reportWorker);
        pageWorker.start();
        reportWorker.start();
        String rootRef = reports + ":" + added.id();
        String childRef = pages + ":" + added.children().get(0).id();
        await().atMost(Duration.ofSeconds(30)).until(() -> rec.processHeaders.containsKey(rootRef));
        assertThat(rec.processHeaders.get(rootRef)).containsExactly(Map.entry("traceparent", TRACEPARENT));
        assertThat(rec.processHeaders.get(childRef)).containsExactly(Map.entry("traceparent", TRACEPARENT));
    }

    @Test
    void aFlowInOneQueueIsOneBulkAddAndAReAddReportsNoJob() {
        Recording rec = new Recording();
        FlowProducer flows = FlowProducer.builder(redisson).instrumentation(rec).build();
        FlowJob flow = FlowJob.builder(reports, "assemble", 1).options(io.bullpen.JobOptions.builder().jobId("r1").build())
                .child(FlowJob.builder(reports, "render", 2).options(io.bullpen.JobOptions.builder().jobId("c1").build()).build())
                .build();
        flows.add(flow);

        assertThat(storedTc(reports, "r1")).isEqualTo(TRACEPARENT);
        assertThat(storedTc(reports, "c1")).isEqualTo(TRACEPARENT);
        assertThat(rec.starts).containsExactly(reports + "/assemble/2/true");
        assertThat(rec.added).containsExactly(reports + ":r1", reports + ":c1");
        assertThat(rec.endedIds).containsExactly(List.of("r1", "c1"));

        flows.add(flow); // the same custom ids: nothing is added
        assertThat(rec.starts).hasSize(2);
        assertThat(rec.added).hasSize(2);
        assertThat(rec.endedIds).containsExactly(List.of("r1", "c1"), List.of());
        assertThat(Queue.builder(redisson, reports, Integer.class).build().getState("c1")).isEqualTo(JobState.WAITING);
    }

    @Test
    void childrenAddedAtRuntimeAreOneBulkAddInTheAttemptsContextAndCarryItsHeaders() {
        Contextual rec = new Contextual();
        Queue<Integer> reportQueue = Queue.builder(redisson, reports, Integer.class).instrumentation(rec).build();
        Worker<Integer, String> reportWorker = Worker.builder(redisson, reports, Integer.class).instrumentation(rec)
                .processor(c -> {
                    if (c.childrenCount() == 0) {
                        c.addChildren(FlowJob.builder(pages, "render", 1).options(io.bullpen.JobOptions.builder().jobId("p1").build()).build(),
                                FlowJob.builder(pages, "render", 2).options(io.bullpen.JobOptions.builder().jobId("p2").build()).build());
                        c.waitForChildren();
                    }
                    return "assembled";
                }).build();
        Worker<Integer, String> pageWorker = Worker.builder(redisson, pages, Integer.class).instrumentation(rec)
                .processor(c -> "page").build();
        workers.add(reportWorker);
        workers.add(pageWorker);

        String parent = reportQueue.add("assemble", 0).id();
        reportWorker.start();
        pageWorker.start();

        await().atMost(Duration.ofSeconds(20)).until(() -> reportQueue.getState(parent) == JobState.COMPLETED);
        assertThat(rec.starts).containsExactly(reports + "/assemble/1/false in root", pages + "/render/2/true in " + parent);
        String attempt = Contextual.traceparent(parent);
        assertThat(storedTc(pages, "p1")).isEqualTo(attempt);
        assertThat(storedTc(pages, "p2")).isEqualTo(attempt);
        assertThat(rec.processHeaders.get(pages + ":p1")).containsExactly(Map.entry("traceparent", attempt));
        assertThat(rec.processHeaders.get(reports + ":" + parent))
                .containsExactly(Map.entry("traceparent", Contextual.traceparent("root")));
        await().atMost(Duration.ofSeconds(5)).until(() -> rec.endedIds.size() == 2);
        assertThat(rec.endedIds).contains(List.of("p1", "p2"));
    }

    @Test
    void aFlowWithoutInstrumentationStoresNoHeaders() {
        JobNode added = FlowProducer.builder(redisson).build().add(FlowJob.builder(reports, "assemble", 1)
                .child(FlowJob.builder(pages, "render", 2).build()).build());
        assertThat(storedTc(reports, added.id())).isNull();
        assertThat(storedTc(pages, added.children().get(0).id())).isNull();
    }
}
