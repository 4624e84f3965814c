package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.bullpen.internal.Futures;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.ScriptTypes.FetchArgs;
import io.bullpen.internal.ScriptTypes.Finish;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.internal.Scripts;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import io.bullpen.testing.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.redisson.api.RedissonClient;

/** clean, drain, obliterate, retryJobs, promoteJobs, getJobLogs, listQueues and getMetrics as a user calls them. */
@BullpenTest
class QueueAdminTest {
    record Order(String id) {
    }

    private static final Instant T0 = Instant.parse("2030-01-01T10:00:10Z");

    private BullpenTestContext ctx;
    private RedissonClient redisson;
    private SettableClock clock;
    private Queue<Order> orders;
    private Scripts scripts;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.ctx = ctx;
        this.redisson = ctx.redisson();
        this.clock = ctx.clock();
        clock.set(T0);
        this.orders = Queue.builder(redisson, ctx.queueName(), Order.class).clock(clock).build();
        this.scripts = new Scripts(redisson, new KeyScheme("bp", orders.name()));
    }

    private List<Job<Order>> addMany(int n, JobOptions options) {
        List<JobSpec<Order>> specs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            specs.add(JobSpec.of("n", new Order("o" + i), options));
        }
        return orders.addBulk(specs);
    }

    /** A worker takes up to n jobs now (they become active). */
    private List<RawJob> take(int n) {
        return Futures.join(scripts.moveToActive(clock.millis(), new FetchArgs(n, "w", 30_000, "worker", 0, 0, 1))).jobs();
    }

    /** A worker takes n jobs and finishes them now: completed, or failed for good. */
    private List<String> finish(int n, boolean completed) {
        List<String> ids = new ArrayList<>();
        for (RawJob job : take(n)) {
            Finish f = completed
                    ? new Finish.Completed(job.id(), job.lockToken(), 1, "1", Retention.keepAll(), null, null, null, 0)
                    : new Finish.Failed(job.id(), job.lockToken(), 1, "boom", null, 10, Retention.keepAll(), null, null,
                            null, 0);
            Futures.join(scripts.moveToFinished(clock.millis(), new FetchArgs(0, "w", 30_000, "worker", 0, 0, 1), f));
            ids.add(job.id());
        }
        return ids;
    }

    private long eventCount(String name) {
        return ctx.snapshot(orders.name()).eventNames().stream().filter(name::equals).count();
    }

    @Test
    void cleanRemovesFinishedJobsOlderThanTheGraceByFinishTime() {
        addMany(3, JobOptions.defaults());
        List<String> old = finish(2, true);
        finish(1, false);
        clock.advance(Duration.ofHours(1));
        addMany(2, JobOptions.defaults());
        finish(2, true);

        assertThat(orders.clean(Duration.ofMinutes(30), 0, JobState.COMPLETED)).isEqualTo(2);

        assertThat(old).allSatisfy(id -> assertThat(orders.getState(id)).isEqualTo(JobState.UNKNOWN));
        JobCounts counts = orders.getJobCounts();
        assertThat(counts.completed()).isEqualTo(2);
        assertThat(counts.failed()).isEqualTo(1);
        assertThat(ctx.snapshot(orders.name()).events()).filteredOn(e -> "cleaned".equals(e.get("event")))
                .singleElement().satisfies(e -> assertThat(e).contains(entry("count", "2"), entry("state", "completed")));
        ctx.assertInvariant(orders.name());
    }

    @Test
    void cleanOfWaitingJobsGoesByAddTimeAndHonoursTheLimit() {
        addMany(5, JobOptions.defaults());
        clock.advance(Duration.ofMinutes(10));
        addMany(2, JobOptions.defaults());

        assertThat(orders.clean(Duration.ofMinutes(5), 3, JobState.WAITING)).isEqualTo(3);
        assertThat(orders.getJobCounts().waiting()).isEqualTo(4);
        assertThat(orders.clean(Duration.ofMinutes(5), 0, JobState.WAITING)).isEqualTo(2);

        assertThat(orders.getJobs(JobState.WAITING, 0, -1)).extracting(Job::id).containsExactly("7", "6");
        ctx.assertInvariant(orders.name());
    }

    @Test
    void cleanWithoutALimitWorksThroughMoreThanOneChunkAndAnnouncesOnce() {
        addMany(2_500, JobOptions.builder().delay(Duration.ofHours(1)).build());
        addMany(1, JobOptions.builder().delay(Duration.ofHours(1)).priority(3).build());

        assertThat(orders.clean(Duration.ZERO, 0, JobState.DELAYED)).isEqualTo(2_501);

        assertThat(orders.getJobCounts().total()).isZero();
        assertThat(eventCount("cleaned")).isEqualTo(1);
        assertThat(ctx.snapshot(orders.name()).jobIds()).isEmpty();
    }

    @Test
    void cleanRejectsActiveJobsAndBadArguments() {
        assertThatThrownBy(() -> orders.clean(Duration.ZERO, 0, JobState.ACTIVE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ACTIVE");
        assertThatThrownBy(() -> orders.clean(Duration.ZERO, 0, JobState.UNKNOWN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("UNKNOWN");
        assertThatThrownBy(() -> orders.clean(Duration.ofMillis(-5), 0, JobState.FAILED))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-5ms");
        assertThatThrownBy(() -> orders.clean(Duration.ZERO, -1, JobState.FAILED))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
    }

    @ParameterizedTest(name = "includeDelayed = {0}")
    @ValueSource(booleans = {false, true})
    void drainRemovesJobsWaitingToRunButNotActiveOrFinishedOnes(boolean includeDelayed) {
        addMany(2, JobOptions.defaults());
        finish(1, true);
        take(1);
        addMany(2, JobOptions.defaults());
        addMany(1, JobOptions.builder().priority(2).build());
        addMany(1, JobOptions.builder().delay(Duration.ofMinutes(1)).build());

        orders.drain(includeDelayed);

        assertThat(orders.getJobCounts()).isEqualTo(new JobCounts(0, 1, includeDelayed ? 0 : 1, 0, 1, 0, false));
        assertThat(ctx.snapshot(orders.name()).events()).filteredOn(e -> "cleaned".equals(e.get("event")))
                .singleElement().satisfies(e -> assertThat(e).containsEntry("count", includeDelayed ? "4" : "3")
                        .containsEntry("state", "waiting"));
        ctx.assertInvariant(orders.name());
    }

    @Test
    void obliterateRefusesWhileJobsAreActiveAndLeavesTheQueueAsItWas() {
        addMany(3, JobOptions.defaults());
        take(2);

        assertThatThrownBy(() -> orders.obliterate(false)).isInstanceOfSatisfying(QueueBusyException.class,
                        e -> assertThat(e.activeJobs()).isEqualTo(2))
                .hasMessageContaining("2 jobs are active").hasMessageContaining(orders.name());

        assertThat(orders.isPaused()).isFalse();
        assertThat(orders.getJobCounts()).isEqualTo(new JobCounts(1, 2, 0, 0, 0, 0, false));
        assertThat(Queue.listQueues(redisson)).contains(orders.name());
    }

    @Test
    void aRefusedObliterateEmitsNoEventAndChangesNothing() {
        addMany(3, JobOptions.defaults());
        take(2);
        QueueSnapshot before = ctx.snapshot(orders.name());

        assertThatThrownBy(() -> orders.obliterate(false)).isInstanceOf(QueueBusyException.class);

        QueueSnapshot after = ctx.snapshot(orders.name());
        assertThat(after.eventNames()).doesNotContain("paused", "resumed").isEqualTo(before.eventNames());
        assertThat(after.events()).isEqualTo(before.events());
        assertThat(after.keys()).isEqualTo(before.keys());
        assertThat(after.meta()).isEqualTo(before.meta());
        assertThat(after.waiting()).isEqualTo(before.waiting());
        assertThat(after.leases()).isEqualTo(before.leases());
    }

    @Test
    void obliterateKeepsAPauseThatWasThereBefore() {
        addMany(1, JobOptions.defaults());
        take(1);
        orders.pause();

        assertThatThrownBy(() -> orders.obliterate(false)).isInstanceOf(QueueBusyException.class);

        assertThat(orders.isPaused()).isTrue();
    }

    @Test
    void forcedObliterateDeletesEveryKeyAndTheRegistryEntry() {
        addMany(4, JobOptions.defaults());
        finish(1, true);
        finish(1, false);
        List<RawJob> active = take(1);
        Futures.join(scripts.addLog(active.get(0).id(), "working", -1));
        addMany(1, JobOptions.builder().delay(Duration.ofMinutes(5)).build());
        addMany(1, JobOptions.builder().priority(1).build());
        orders.upsertJobScheduler("hourly", Repeat.every(Duration.ofHours(1)), JobTemplate.of("report", new Order("r")));
        QueueSnapshot before = ctx.snapshot(orders.name());
        assertThat(before.keys()).contains("id", "fence", "events", "meta", "job:3", "job:3:logs", "schedulers",
                "scheduler:hourly");
        assertThat(before.meta()).containsKeys("mc:completed", "mc:failed");

        orders.obliterate(true);

        assertThat(ctx.snapshot(orders.name()).keys()).isEmpty();
        assertThat(Queue.listQueues(redisson)).doesNotContain(orders.name());
        // The same Queue object starts afresh and registers again.
        assertThat(orders.add("again", new Order("x")).id()).isEqualTo("1");
        assertThat(Queue.listQueues(redisson)).contains(orders.name());
    }

    @Test
    void obliterateOfAQueueWithoutActiveJobsNeedsNoForce() {
        addMany(3, JobOptions.defaults());

        orders.obliterate(false);

        assertThat(ctx.snapshot(orders.name()).keys()).isEmpty();
    }

    @Test
    void retryJobsRetriesEveryFailedOrCompletedJobWithFreshAttempts() {
        addMany(5, JobOptions.defaults());
        List<String> failed = finish(3, false);
        finish(2, true);

        assertThat(orders.retryJobs(JobState.FAILED)).isEqualTo(3);

        JobCounts counts = orders.getJobCounts();
        assertThat(counts.waiting()).isEqualTo(3);
        assertThat(counts.failed()).isZero();
        assertThat(failed).allSatisfy(id -> {
            Job<Order> job = orders.getJob(id).orElseThrow();
            assertThat(job.attemptsMade()).isZero();
            assertThat(job.failedReason()).isEmpty();
        });
        assertThat(orders.retryJobs(JobState.COMPLETED)).isEqualTo(2);
        assertThat(orders.retryJobs(JobState.FAILED)).isZero();
        assertThat(orders.getJobCounts().waiting()).isEqualTo(5);
        assertThatThrownBy(() -> orders.retryJobs(JobState.WAITING)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("WAITING");
        ctx.assertInvariant(orders.name());
    }

    @Test
    void promoteJobsRunsEveryDelayedJobNow() {
        addMany(3, JobOptions.builder().delay(Duration.ofHours(2)).build());
        addMany(1, JobOptions.builder().delay(Duration.ofHours(1)).priority(4).build());

        assertThat(orders.promoteJobs()).isEqualTo(4);

        assertThat(orders.getJobCounts()).isEqualTo(new JobCounts(3, 0, 0, 1, 0, 0, false));
        assertThat(orders.getJob("1").orElseThrow().delay()).isZero();
        assertThat(orders.promoteJobs()).isZero();
        ctx.assertInvariant(orders.name());
    }

    @Test
    void getJobLogsReadsTheLinesInOrder() {
        Job<Order> job = orders.add("n", new Order("a"));
        Futures.join(scripts.addLog(job.id(), "first", -1));
        Futures.join(scripts.addLog(job.id(), "second", -1));

        assertThat(orders.getJobLogs(job.id())).containsExactly("first", "second");
        assertThat(orders.getJobLogs("404")).isEmpty();
    }

    @Test
    void listQueuesReadsTheRegistryOfAPrefix() {
        Queue<Order> paused = Queue.builder(redisson, ctx.newQueueName(), Order.class).build();
        Queue<Order> elsewhere = Queue.builder(redisson, ctx.newQueueName(), Order.class).prefix("other").build();
        orders.add("n", new Order("a"));
        paused.pause();
        elsewhere.add("n", new Order("b"));

        assertThat(Queue.listQueues(redisson)).contains(orders.name(), paused.name()).doesNotContain(elsewhere.name());
        assertThat(Queue.listQueues(redisson, "other")).containsExactly(elsewhere.name());
        assertThat(Queue.listQueues(redisson, "nothing-here")).isEmpty();
        assertThatThrownBy(() -> Queue.listQueues(redisson, "")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void getMetricsTakesOneTo1441MinutesAsTheGuideSays() throws Exception {
        addMany(1, JobOptions.defaults());
        finish(1, true);

        assertThat(QueueMetrics.MAX_MINUTES).isEqualTo(1441);
        assertThat(orders.getMetrics(MetricsType.COMPLETED, 1).counts()).containsExactly(1L);
        QueueMetrics day = orders.getMetrics(MetricsType.COMPLETED, QueueMetrics.MAX_MINUTES);
        assertThat(day.counts()).hasSize(1441).startsWith(1L);
        assertThatThrownBy(() -> orders.getMetrics(MetricsType.COMPLETED, QueueMetrics.MAX_MINUTES + 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1442").hasMessageContaining("1441");
        assertThatThrownBy(() -> orders.getMetrics(MetricsType.FAILED, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0");
        // The guide states the same limit (surefire runs in the module's directory).
        String guide = java.nio.file.Files.readString(java.nio.file.Path.of("..", "docs", "jobs.md"));
        assertThat(guide).contains("`getMetrics` takes 1 to 1,441 minutes");
    }

    @Test
    void drainDocsNameTheEventDrainEmits() throws Exception {
        addMany(2, JobOptions.defaults());

        orders.drain(false);

        assertThat(ctx.snapshot(orders.name()).eventNames()).containsOnlyOnce("cleaned").doesNotContain("drained");
        io.bullpen.lua.ScriptHeader header = io.bullpen.lua.ScriptCatalog.classpath().get("drain").header();
        assertThat(header.events()).startsWith("cleaned");
        assertThat(header.description()).contains("\"cleaned\" event").doesNotContain("\"drained\" event");
        String queueSource = java.nio.file.Files.readString(
                java.nio.file.Path.of("src/main/java/io/bullpen/Queue.java"));
        String drainDoc = queueSource.substring(queueSource.lastIndexOf("/**", queueSource.indexOf("public void drain(")),
                queueSource.indexOf("public void drain("));
        assertThat(drainDoc).contains("one {@code cleaned} event").doesNotContain("one {@code drained} event");
    }

    @Test
    void getMetricsGivesOneCountPerMinuteNewestFirst() {
        addMany(6, JobOptions.defaults());
        finish(2, true);                          // 10:00
        clock.advance(Duration.ofMinutes(1));
        finish(1, true);                          // 10:01
        finish(1, false);
        clock.advance(Duration.ofMinutes(2));     // now 10:03:10
        finish(1, true);

        QueueMetrics completed = orders.getMetrics(MetricsType.COMPLETED, 60);
        QueueMetrics failed = orders.getMetrics(MetricsType.FAILED, 60);

        assertThat(completed.counts()).hasSize(60).startsWith(1L, 0L, 1L, 2L);
        assertThat(completed.counts().subList(4, 60)).containsOnly(0L);
        assertThat(completed.total()).isEqualTo(4);
        assertThat(completed.since()).isEqualTo(Instant.parse("2030-01-01T09:04:00Z"));
        assertThat(failed.counts()).startsWith(0L, 0L, 1L, 0L);
        assertThat(failed.total()).isEqualTo(1);
        assertThat(Map.of("completed", completed.type(), "failed", failed.type()))
                .containsEntry("completed", MetricsType.COMPLETED).containsEntry("failed", MetricsType.FAILED);
        // A minute later, with no finishes, everything shifts by one.
        clock.advance(Duration.ofMinutes(1));
        assertThat(orders.getMetrics(MetricsType.COMPLETED, 5).counts()).containsExactly(0L, 1L, 0L, 1L, 2L);
    }
}
