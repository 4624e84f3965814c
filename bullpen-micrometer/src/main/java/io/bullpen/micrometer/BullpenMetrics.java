package io.bullpen.micrometer;

import io.bullpen.Job;
import io.bullpen.JobCounts;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.instrument.Instrumentation;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ExecutorServiceMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

/**
 * Bullpen's Micrometer meters. Give it to the queues and workers as their {@link Instrumentation}
 * (or to {@code Bullpen.Builder.instrumentation} for everything a client hands out) for the job
 * timers and counters, and {@link #monitor(Queue)} the queues whose job counts you want as gauges:
 *
 * <pre>{@code
 * BullpenMetrics metrics = BullpenMetrics.builder(meterRegistry).build();
 * Bullpen bullpen = Bullpen.builder(redisson).instrumentation(metrics).build();
 * metrics.monitor(bullpen.queue("orders", Order.class));
 * }</pre>
 *
 * <p>Meters (tag keys are fixed; job ids are never tags):
 * <ul>
 *   <li>{@code bullpen.queue.jobs{queue,state}}: gauges, one per {@link JobState} label (waiting,
 *       prioritized, delayed, active, waiting-children, completed, failed), from one counts call per queue per
 *       scrape (reused for {@link Builder#countsTtl}).</li>
 *   <li>{@code bullpen.job.duration{queue,outcome}}: timer of each attempt, outcome
 *       {@code completed}, {@code retrying} or {@code failed}.</li>
 *   <li>{@code bullpen.job.wait{queue}}: timer from when a job was ready to run to when a worker
 *       took it (not recorded for retries and re-runs, a recovered stalled job or a job handed
 *       back at close, whose ready time is not stored).</li>
 *   <li>{@code bullpen.jobs.completed|failed|retried|stalled{queue}}: counters; {@code failed}
 *       counts jobs failed for good, {@code retried} failed attempts that will run again,
 *       {@code stalled} stalled jobs put back to run.</li>
 *   <li>{@code executor.*{name=bullpen-<queue>,queue,worker}}: the pool each worker owns (one
 *       thread per unit of concurrency), through Micrometer's {@link ExecutorServiceMetrics}:
 *       {@code executor.active}, {@code executor.completed}, {@code executor.queued},
 *       {@code executor.queue.remaining}, {@code executor.pool.size|core|max}. Bound when the worker
 *       starts (it hands its pool over through {@link Instrumentation#workerPool}) and removed when
 *       it closes; {@code worker} is the worker's name.</li>
 * </ul>
 * With {@link Builder#jobNameTag(boolean)} the timers and the completed, failed and retried
 * counters also carry the job's name as a {@code name} tag (off by default: names are the
 * application's, and may be many).
 *
 * <p>Thread safety: safe for any number of queues and workers at once.
 */
public final class BullpenMetrics implements Instrumentation, MeterBinder {
    /** Gauge of the number of jobs in a state. */
    public static final String QUEUE_JOBS = "bullpen.queue.jobs";
    /** Timer of each attempt. */
    public static final String JOB_DURATION = "bullpen.job.duration";
    /** Timer from ready to started. */
    public static final String JOB_WAIT = "bullpen.job.wait";
    /** Counter of completed jobs. */
    public static final String JOBS_COMPLETED = "bullpen.jobs.completed";
    /** Counter of jobs failed for good. */
    public static final String JOBS_FAILED = "bullpen.jobs.failed";
    /** Counter of failed attempts that will run again. */
    public static final String JOBS_RETRIED = "bullpen.jobs.retried";
    /** Counter of stalled jobs put back to run. */
    public static final String JOBS_STALLED = "bullpen.jobs.stalled";

    private final MeterRegistry registry;
    private final boolean jobNameTag;
    private final Duration countsTtl;
    private final Map<String, CachedCounts> monitored = new ConcurrentHashMap<>();
    private final List<MeterRegistry> boundTo = new CopyOnWriteArrayList<>();
    private final WorkerPools pools;

    private BullpenMetrics(Builder b) {
        this.registry = b.registry;
        this.jobNameTag = b.jobNameTag;
        this.countsTtl = b.countsTtl;
        this.boundTo.add(b.registry);
        this.pools = new WorkerPools(b.registry);
    }

    /**
     * @param registry where the meters are registered
     * @return a builder
     */
    public static Builder builder(MeterRegistry registry) {
        return new Builder(Objects.requireNonNull(registry, "registry"));
    }

    /**
     * Registers the {@code bullpen.queue.jobs} gauges of a queue. Monitoring the same queue name
     * again does nothing.
     *
     * @param queue the queue (its data type does not matter)
     * @return this
     */
    public BullpenMetrics monitor(Queue<?> queue) {
        Objects.requireNonNull(queue, "queue");
        return monitor(queue.name(), queue::getJobCounts);
    }

    /** For tests: counts from anywhere. */
    BullpenMetrics monitor(String queue, Supplier<JobCounts> counts) {
        CachedCounts cached = new CachedCounts(queue, counts, System::currentTimeMillis, countsTtl.toMillis());
        if (monitored.putIfAbsent(queue, cached) == null) {
            boundTo.forEach(r -> registerGauges(r, queue, cached));
        }
        return this;
    }

    /**
     * Wraps an executor of the application's so it is measured by Micrometer's
     * {@link ExecutorServiceMetrics} ({@code executor.*} meters, tagged {@code name=bullpen-<queue>}
     * and {@code queue}), for {@code Worker.Builder.executor(...)} (shut it down yourself, as for
     * any executor of yours). Not needed for a worker's own pool: a worker given these metrics as
     * its instrumentation has its pool measured already.
     *
     * @param queue the worker's queue
     * @param executor the executor the worker will run its processors on
     * @return the measured executor, to pass to the worker
     */
    public ExecutorService monitorExecutor(String queue, ExecutorService executor) {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(executor, "executor");
        return ExecutorServiceMetrics.monitor(registry, executor, "bullpen-" + queue, Tags.of("queue", queue));
    }

    /**
     * Also registers the gauges of the monitored queues (present and future) in another registry.
     * The job timers and counters stay in the registry of the builder.
     *
     * @param other a registry
     */
    @Override
    public void bindTo(MeterRegistry other) {
        Objects.requireNonNull(other, "registry");
        if (!boundTo.contains(other)) {
            boundTo.add(other);
        }
        monitored.forEach((queue, cached) -> registerGauges(other, queue, cached));
    }

    private static void registerGauges(MeterRegistry r, String queue, CachedCounts cached) {
        for (JobState state : JobState.values()) {
            if (state == JobState.UNKNOWN) {
                continue;   // no job is ever counted in it
            }
            Gauge.builder(QUEUE_JOBS, cached, c -> c.count(state))
                    .tags("queue", queue, "state", state.label())
                    .description("Jobs of the queue in the state")
                    .strongReference(true)
                    .register(r);
        }
    }

    @Override
    public void jobStarted(String queue, Job<?> job, Optional<Duration> waited) {
        waited.filter(d -> !d.isNegative()).ifPresent(d ->
                Timer.builder(JOB_WAIT).description("From when a job was ready to run to when a worker took it")
                        .tags(tags(queue, job)).register(registry).record(d));
    }

    @Override
    public void jobFinished(String queue, Job<?> job, Outcome outcome, Duration duration, Throwable error) {
        Tags tags = tags(queue, job);
        Timer.builder(JOB_DURATION).description("Each attempt of a job, by how it ended")
                .tags(tags.and("outcome", outcome.name().toLowerCase(Locale.ROOT)))
                .register(registry).record(duration);
        String counter = switch (outcome) {
            case COMPLETED -> JOBS_COMPLETED;
            case RETRYING -> JOBS_RETRIED;
            case FAILED -> JOBS_FAILED;
        };
        Counter.builder(counter).tags(tags).register(registry).increment();
    }

    @Override
    public void workerPool(String queue, String worker, ExecutorService pool) {
        pools.bind(queue, worker, pool);
    }

    @Override
    public void workerStopped(String queue, String worker) {
        pools.unbind(queue, worker);
    }

    @Override
    public void stalledRecovered(String queue, String jobId) {
        Counter.builder(JOBS_STALLED).description("Stalled jobs put back to run").tag("queue", queue)
                .register(registry).increment();
    }

    private Tags tags(String queue, Job<?> job) {
        Tags tags = Tags.of("queue", queue);
        return jobNameTag ? tags.and("name", job.name()) : tags;
    }

    /** Settings of a {@link BullpenMetrics}. */
    public static final class Builder {
        private final MeterRegistry registry;
        private boolean jobNameTag;
        private Duration countsTtl = Duration.ofSeconds(5);

        private Builder(MeterRegistry registry) {
            this.registry = registry;
        }

        /**
         * @param enabled whether the timers and the completed, failed and retried counters carry
         *     the job's name as a {@code name} tag (default false)
         * @return this builder
         */
        public Builder jobNameTag(boolean enabled) {
            this.jobNameTag = enabled;
            return this;
        }

        /**
         * @param ttl how long a queue's job counts are reused by its gauges (default 5 s); one
         *     scrape reads every state's gauge, so this bounds the counts calls to one per queue
         *     per scrape at most
         * @return this builder
         */
        public Builder countsTtl(Duration ttl) {
            Objects.requireNonNull(ttl, "ttl");
            if (ttl.isNegative()) {
                throw new IllegalArgumentException("countsTtl must be >= 0 but was " + ttl);
            }
            this.countsTtl = ttl;
            return this;
        }

        /** @return the meters, ready to observe queues and workers */
        public BullpenMetrics build() {
            return new BullpenMetrics(this);
        }
    }
}
