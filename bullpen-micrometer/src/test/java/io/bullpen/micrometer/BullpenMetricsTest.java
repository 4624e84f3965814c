package io.bullpen.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Backoff;
import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.worker.Worker;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.client.codec.StringCodec;

/** The meters after real jobs ran on a real Redis: timers, counters, gauges and their tags. */
@BullpenTest
class BullpenMetricsTest {
    private static final Duration WAIT = Duration.ofSeconds(15);

    private BullpenTestContext ctx;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final List<Worker<?, ?>> workers = new ArrayList<>();

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.ctx = ctx;
    }

    @AfterEach
    void tearDown() {
        workers.forEach(Worker::close);
    }

    private <R> Worker<String, R> start(Worker.Builder<String, R> builder) {
        Worker<String, R> w = builder.build();
        workers.add(w);
        return w.start();
    }

    @Test
    void completedJobsAreTimedAndCountedByQueueWithoutJobIdsOrNames() {
        BullpenMetrics metrics = BullpenMetrics.builder(registry).build();
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).instrumentation(metrics).build();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(queue.add("send", "d" + i).id());
        }
        start(Worker.builder(ctx.redisson(), queue.name(), String.class).instrumentation(metrics)
                .processor(c -> c.job().data().toUpperCase()));

        await().atMost(WAIT).until(() -> registry.find(BullpenMetrics.JOBS_COMPLETED).counters().stream()
                .mapToDouble(c -> c.count()).sum() == 3);
        assertThat(registry.get(BullpenMetrics.JOBS_COMPLETED).tag("queue", queue.name()).counter().count()).isEqualTo(3);
        assertThat(registry.get(BullpenMetrics.JOB_DURATION).tags("queue", queue.name(), "outcome", "completed")
                .timer().count()).isEqualTo(3);
        await().atMost(WAIT).until(() -> registry.find(BullpenMetrics.JOB_WAIT).timer() != null
                && registry.get(BullpenMetrics.JOB_WAIT).timer().count() == 3);
        assertThat(registry.find(BullpenMetrics.JOBS_FAILED).counter()).isNull();

        for (Meter m : registry.getMeters()) {
            Set<String> keys = m.getId().getTags().stream().map(Tag::getKey).collect(Collectors.toSet());
            if (m.getId().getName().startsWith("executor")) {
                // The worker's pool, through Micrometer's binder (its own "name" key).
                assertThat(keys).as("tag keys of %s", m.getId().getName()).containsExactlyInAnyOrder("name", "queue", "worker");
            } else {
                assertThat(keys).as("tag keys of %s", m.getId().getName()).isSubsetOf("queue", "outcome", "state");
            }
            assertThat(m.getId().getTags()).extracting(Tag::getValue).doesNotContainAnyElementsOf(ids);
        }
    }

    @Test
    void theJobNameIsATagOnlyWhenOptedIn() {
        BullpenMetrics metrics = BullpenMetrics.builder(registry).jobNameTag(true).build();
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        queue.add("send", "a");
        queue.add("resize", "b");
        start(Worker.builder(ctx.redisson(), queue.name(), String.class).instrumentation(metrics).processor(c -> "ok"));

        await().atMost(WAIT).until(() -> registry.find(BullpenMetrics.JOBS_COMPLETED).counters().size() == 2);
        assertThat(registry.get(BullpenMetrics.JOBS_COMPLETED).tags("queue", queue.name(), "name", "send").counter().count())
                .isEqualTo(1);
        assertThat(registry.get(BullpenMetrics.JOB_DURATION).tags("name", "resize", "outcome", "completed").timer().count())
                .isEqualTo(1);
    }

    @Test
    void aRetriedThenFailedJobCountsOneRetryAndOneFailure() {
        BullpenMetrics metrics = BullpenMetrics.builder(registry).build();
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        Job<String> job = queue.add("flaky", "x",
                JobOptions.builder().attempts(2).backoff(Backoff.fixed(Duration.ofMillis(10))).build());
        start(Worker.builder(ctx.redisson(), queue.name(), String.class).instrumentation(metrics)
                .processor(c -> {
                    throw new IllegalStateException("boom");
                }));

        await().atMost(WAIT).until(() -> registry.find(BullpenMetrics.JOBS_FAILED).counter() != null);
        assertThat(queue.getState(job.id())).isEqualTo(JobState.FAILED);
        assertThat(registry.get(BullpenMetrics.JOBS_RETRIED).tag("queue", queue.name()).counter().count()).isEqualTo(1);
        assertThat(registry.get(BullpenMetrics.JOBS_FAILED).tag("queue", queue.name()).counter().count()).isEqualTo(1);
        assertThat(registry.get(BullpenMetrics.JOB_DURATION).tag("outcome", "retrying").timer().count()).isEqualTo(1);
        assertThat(registry.get(BullpenMetrics.JOB_DURATION).tag("outcome", "failed").timer().count()).isEqualTo(1);
        assertThat(registry.find(BullpenMetrics.JOBS_COMPLETED).counter()).isNull();
    }

    @Test
    void aStalledJobPutBackToRunIsCounted() throws Exception {
        BullpenMetrics metrics = BullpenMetrics.builder(registry).build();
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        CountDownLatch firstAttemptRunning = new CountDownLatch(1);
        AtomicInteger attempts = new AtomicInteger();
        start(Worker.builder(ctx.redisson(), queue.name(), String.class).lockDuration(Duration.ofMillis(600))
                .instrumentation(metrics).processor(c -> {
                    if (attempts.incrementAndGet() == 1) {
                        firstAttemptRunning.countDown();
                        new CountDownLatch(1).await(10, TimeUnit.SECONDS);   // until cancelled (interrupted)
                    }
                    return "ok";
                }));
        Job<String> job = queue.add("long", "x");
        assertThat(firstAttemptRunning.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();

        // The lease runs out (as if the worker had been paused past it; score 1 is long past on
        // Redis's clock): the job is recovered as stalled.
        ctx.redisson().<String>getScoredSortedSet("bp:{" + queue.name() + "}:leases", StringCodec.INSTANCE)
                .addIfExists(1, job.id());

        await().atMost(WAIT).until(() -> queue.getState(job.id()) == JobState.COMPLETED);
        await().atMost(WAIT).until(() -> registry.find(BullpenMetrics.JOBS_STALLED).counter() != null);
        assertThat(registry.get(BullpenMetrics.JOBS_STALLED).counter().count()).isEqualTo(1);
        assertThat(registry.get(BullpenMetrics.JOBS_STALLED).counter().getId().getTags())
                .containsExactly(Tag.of("queue", queue.name()));
    }

    @Test
    void gaugesShowTheQueuesJobCounts() {
        BullpenMetrics metrics = BullpenMetrics.builder(registry).countsTtl(Duration.ZERO).build();
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        metrics.monitor(queue);
        queue.add("a", "1");
        queue.add("b", "2");
        queue.add("c", "3", JobOptions.builder().delay(Duration.ofHours(1)).build());

        assertThat(gauge(queue, "waiting")).isEqualTo(2);
        assertThat(gauge(queue, "delayed")).isEqualTo(1);
        assertThat(gauge(queue, "active")).isZero();
        assertThat(gauge(queue, "completed")).isZero();
        assertThat(registry.find(BullpenMetrics.QUEUE_JOBS).gauges()).extracting(g -> g.getId().getTag("state"))
                .containsExactlyInAnyOrder("waiting", "prioritized", "delayed", "active", "waiting-children", "completed",
                        "failed");

        start(Worker.builder(ctx.redisson(), queue.name(), String.class).processor(c -> "ok"));
        await().atMost(WAIT).until(() -> gauge(queue, "completed") == 2);
        assertThat(gauge(queue, "waiting")).isZero();
    }

    @Test
    void aWorkersExecutorIsMeasuredWhenGivenThroughTheMetrics() {
        BullpenMetrics metrics = BullpenMetrics.builder(registry).build();
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        ExecutorService pool = metrics.monitorExecutor(queue.name(), Executors.newFixedThreadPool(2));
        try {
            queue.add("a", "1");
            queue.add("b", "2");
            start(Worker.builder(ctx.redisson(), queue.name(), String.class).executor(pool).processor(c -> "ok"));
            await().atMost(WAIT).until(() -> queue.getJobCounts().completed() == 2);
            assertThat(registry.get("executor").tags("name", "bullpen-" + queue.name(), "queue", queue.name())
                    .timer().count()).isGreaterThanOrEqualTo(2);
        } finally {
            workers.forEach(Worker::close);
            pool.shutdownNow();
        }
    }

    @Test
    void aWorkersOwnPoolIsMeasuredWhileItRunsTaggedByQueueAndWorker() {
        BullpenMetrics metrics = BullpenMetrics.builder(registry).build();
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        queue.add("a", "1");
        queue.add("b", "2");
        Worker<String, String> worker = start(Worker.builder(ctx.redisson(), queue.name(), String.class).name("w-1")
                .concurrency(3).instrumentation(metrics).processor(c -> "ok"));
        await().atMost(WAIT).until(() -> queue.getJobCounts().completed() == 2);

        await().atMost(WAIT).until(() -> registry.find("executor.completed").tag("queue", queue.name()).functionCounter() != null
                && registry.get("executor.completed").tag("queue", queue.name()).functionCounter().count() >= 2);
        assertThat(registry.get("executor.pool.max").tags("name", "bullpen-" + queue.name(), "queue", queue.name(),
                "worker", "w-1").gauge().value()).isEqualTo(3);
        assertThat(registry.find("executor.active").tag("worker", "w-1").gauge()).isNotNull();
        assertThat(registry.find("executor.queued").tag("worker", "w-1").gauge()).isNotNull();

        worker.close();
        await().atMost(WAIT).until(() -> registry.find("executor.pool.max").tag("worker", "w-1").gauge() == null);
        assertThat(registry.getMeters()).noneMatch(m -> m.getId().getName().startsWith("executor"));
    }

    private double gauge(Queue<?> queue, String state) {
        return registry.get(BullpenMetrics.QUEUE_JOBS).tags("queue", queue.name(), "state", state).gauge().value();
    }
}
