package io.bullpen.spring.boot.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.spring.boot.autoconfigure.BullpenAutoConfiguration;
import io.bullpen.spring.boot.autoconfigure.BullpenProperties;
import io.bullpen.spring.boot.test.TestBeans.BatchSizeOnAJobMethod;
import io.bullpen.spring.boot.test.TestBeans.BatchWithData;
import io.bullpen.spring.boot.test.TestBeans.ListCounter;
import io.bullpen.spring.boot.test.TestBeans.Pings;
import io.bullpen.spring.boot.test.TestBeans.Row;
import io.bullpen.spring.boot.test.TestBeans.Rows;
import io.bullpen.spring.boot.test.TestBeans.Shipping;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.ResolvableType;

/**
 * {@code @BullpenWorker} methods taking a {@code JobBatch<T, R>}, against a real Redis: batches as
 * the attributes and {@code bullpen.queues.<queue>.batch-*} properties say (the attribute wins),
 * results per job, and the startup errors naming the method and the bad value. A {@code List<T>}
 * parameter stays a per-job worker whose data is a list. Shared by both starters (each runs it
 * under its Boot line with {@code @BullpenTest}).
 */
public abstract class BatchWorkerTests {
    private static final AtomicInteger PREFIXES = new AtomicInteger();

    private BullpenTestContext ctx;
    private String prefix;
    private ApplicationContextRunner runner;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.ctx = ctx;
        prefix = "batch" + PREFIXES.incrementAndGet();
        runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(BullpenAutoConfiguration.class))
                .withBean("redisson", RedissonClient.class, ctx::redisson)
                .withPropertyValues("bullpen.prefix=" + prefix, "bullpen.worker.shutdown-timeout=2s");
    }

    private <T> Queue<T> queue(String name, Class<T> type) {
        return Queue.builder(ctx.redisson(), name, type).prefix(prefix).build();
    }

    /** Six rows added before the workers start: batches of exactly the minimum size form at once. */
    private List<Job<Row>> addSixRows() {
        Queue<Row> rows = queue("rows", Row.class);
        List<Job<Row>> jobs = new ArrayList<>();
        for (int n = 1; n <= 6; n++) {
            jobs.add(rows.add("row", new Row("r" + n, n)));
        }
        return jobs;
    }

    private void awaitFinished(Queue<Row> rows, List<Job<Row>> jobs) {
        await().atMost(Duration.ofSeconds(15)).until(() -> jobs.stream().allMatch(j -> {
            JobState state = rows.getState(j.id());
            return state == JobState.COMPLETED || state == JobState.FAILED;
        }));
    }

    @Test
    void theBatchPropertiesBind() {
        runner.withBean(Rows.class).withPropertyValues("bullpen.worker.enabled=false", "bullpen.queues.rows.batch-size=50",
                "bullpen.queues.rows.batch-min-size=5", "bullpen.queues.rows.batch-max-wait=500ms",
                "bullpen.queues.rows.batch-same-group=true").run(context -> {
            assertThat(context).hasNotFailed();
            BullpenProperties.QueueSettings rows = context.getBean(BullpenProperties.class).getQueues().get("rows");
            assertThat(rows.getBatchSize()).isEqualTo(50);
            assertThat(rows.getBatchMinSize()).isEqualTo(5);
            assertThat(rows.getBatchMaxWait()).isEqualTo(Duration.ofMillis(500));
            assertThat(rows.getBatchSameGroup()).isTrue();
        });
        runner.withBean("rows", Rows.class).withPropertyValues("bullpen.queues.rows.batch-max-wait=soon")
                .run(context -> assertThat(context.getStartupFailure())
                        .hasStackTraceContaining("bullpen.queues.rows.batch-max-wait"));
    }

    @Test
    void theQueuePropertiesFormTheBatchesAndEachJobEndsAsTheMethodReportedIt() {
        List<Job<Row>> jobs = addSixRows();
        runner.withBean(Rows.class).withPropertyValues("bullpen.queues.rows.batch-size=3",
                "bullpen.queues.rows.batch-min-size=3", "bullpen.queues.rows.batch-max-wait=30s").run(context -> {
            assertThat(context).hasNotFailed();
            Queue<Row> rows = queue("rows", Row.class);
            awaitFinished(rows, jobs);
            assertThat(context.getBean(Rows.class).batchSizes).containsExactly(3, 3);
            // n = 1, 5: not reported, the method's return value; 2, 4: their own; 3, 6: failed without retry.
            assertThat(rows.getJob(jobs.get(0).id()).orElseThrow().returnValue(String.class))
                    .contains("inserted in a batch of 3");
            assertThat(rows.getJob(jobs.get(1).id()).orElseThrow().returnValue(String.class))
                    .contains("row r2 inserted alone");
            assertThat(rows.getState(jobs.get(2).id())).isEqualTo(JobState.FAILED);
            assertThat(rows.getJob(jobs.get(2).id()).orElseThrow().failedReason()).contains("row r3 refused");
            assertThat(rows.getState(jobs.get(4).id())).isEqualTo(JobState.COMPLETED);
            assertThat(rows.getState(jobs.get(5).id())).isEqualTo(JobState.FAILED);
            ctx.assertInvariant(prefix, "rows");
        });
    }

    @Test
    void theAnnotationsAttributesWinOverTheQueueProperties() {
        List<Job<Row>> jobs = addSixRows();
        runner.withBean(Rows.class).withPropertyValues("rows.batch-size=2", "rows.batch-min-size=2",
                "rows.batch-max-wait=PT30S", "bullpen.queues.rows.batch-size=3", "bullpen.queues.rows.batch-min-size=3",
                "bullpen.queues.rows.batch-max-wait=0s").run(context -> {
            assertThat(context).hasNotFailed();
            awaitFinished(queue("rows", Row.class), jobs);
            assertThat(context.getBean(Rows.class).batchSizes).containsExactly(2, 2, 2);
        });
    }

    @Test
    void aVoidBatchMethodCompletesItsJobsWithoutAResult() {
        Queue<String> pings = queue("pings", String.class);
        List<Job<String>> jobs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            jobs.add(pings.add("ping", "p" + i));
        }
        runner.withBean(Pings.class).run(context -> {
            assertThat(context).hasNotFailed();
            await().atMost(Duration.ofSeconds(15))
                    .until(() -> jobs.stream().allMatch(j -> pings.getState(j.id()) == JobState.COMPLETED));
            assertThat(context.getBean(Pings.class).sent).hasSize(10);
            assertThat(pings.getJob(jobs.get(0).id()).orElseThrow().returnValue(Object.class)).isEmpty();
        });
    }

    @Test
    void aListParameterIsAJobWhoseDataIsAList() {
        runner.withBean(ListCounter.class).run(context -> {
            assertThat(context).hasNotFailed();
            @SuppressWarnings("unchecked")
            Queue<List<String>> lists = context.getBean("listsQueue", Queue.class);
            assertThat(context.getBeanProvider(ResolvableType.forClassWithGenerics(Queue.class,
                    ResolvableType.forClassWithGenerics(List.class, String.class))).getIfAvailable())
                    .as("a Queue<List<String>> bean").isSameAs(lists);
            Job<List<String>> job = lists.add("count", List.of("a", "b", "c"));
            await().atMost(Duration.ofSeconds(10)).until(() -> lists.getState(job.id()) == JobState.COMPLETED);
            assertThat(lists.getJob(job.id()).orElseThrow().returnValue(Integer.class)).contains(3);
        });
    }

    @Test
    void badBatchValuesFailTheContextNamingTheMethodAndTheValue() {
        runner.withBean("rows", Rows.class).withPropertyValues("rows.batch-size=0").run(context -> assertThat(
                context.getStartupFailure())
                .hasStackTraceContaining("@BullpenWorker bean 'rows' method Rows.insert(JobBatch): batchSize must be >= 1 "
                        + "but was 0"));
        runner.withBean("rows", Rows.class).withPropertyValues("rows.batch-size=abc").run(context -> assertThat(
                context.getStartupFailure())
                .hasStackTraceContaining("bean 'rows' method Rows.insert(JobBatch)")
                .hasStackTraceContaining("batchSize must be a number but was \"abc\""));
        runner.withBean("rows", Rows.class).withPropertyValues("rows.batch-max-wait=soon").run(context -> assertThat(
                context.getStartupFailure())
                .hasStackTraceContaining("bean 'rows' method Rows.insert(JobBatch)")
                .hasStackTraceContaining("batchMaxWait must be a duration such as \"500ms\" or \"PT0.5S\" but was \"soon\""));
        runner.withBean("rows", Rows.class).withPropertyValues("rows.batch-size=5", "bullpen.queues.rows.batch-min-size=8")
                .run(context -> assertThat(context.getStartupFailure())
                        .hasStackTraceContaining("@BullpenWorker bean 'rows' method Rows.insert(JobBatch): "
                                + "bullpen.queues.rows.batch-min-size must be between 1 and the batch size 5 (batchSize) "
                                + "but was 8"));
        runner.withBean("rows", Rows.class).withPropertyValues("bullpen.queues.rows.batch-size=0")
                .run(context -> assertThat(context.getStartupFailure())
                        .hasStackTraceContaining("@BullpenWorker bean 'rows' method Rows.insert(JobBatch): "
                                + "bullpen.queues.rows.batch-size must be >= 1 but was 0"));
    }

    @Test
    void batchSettingsForAMethodTakingOneJobFailTheContext() {
        runner.withBean("reports", BatchSizeOnAJobMethod.class).run(context -> assertThat(context.getStartupFailure())
                .hasStackTraceContaining("@BullpenWorker bean 'reports' method BatchSizeOnAJobMethod.run(String): "
                        + "batchSize = \"5\": the batch attributes apply to a batch worker, a method taking a "
                        + "JobBatch<T, R>, but this method takes java.lang.String"));
        runner.withBean("rows", BatchWithData.class).run(context -> assertThat(context.getStartupFailure())
                .hasStackTraceContaining("bean 'rows' method BatchWithData.insert(JobBatch, Row)")
                .hasStackTraceContaining("a batch worker must take exactly one parameter, the JobBatch<T, R>")
                .hasStackTraceContaining("but takes 2"));
        runner.withBean("shipping", Shipping.class).withPropertyValues("bullpen.queues.orders.batch-size=10")
                .run(context -> assertThat(context.getStartupFailure())
                        .hasStackTraceContaining("bullpen.queues.orders.batch-* apply to a batch worker")
                        .hasStackTraceContaining("bean 'shipping' method Shipping.ship(Order)"));
    }
}
