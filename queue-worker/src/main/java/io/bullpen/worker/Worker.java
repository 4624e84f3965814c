package io.bullpen.worker;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JavaType;
import io.bullpen.JobOptions;
import io.bullpen.internal.JsonCodec;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.Validation;
import io.bullpen.internal.WireFormat;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.redisson.api.RedissonClient;

/**
 * Processes the jobs of one queue with a processor function, up to {@code concurrency} at a
 * time. Holds a lock per running job and renews it; a job whose worker dies is recovered by
 * any other worker once its lock expires, so every job runs at least once (and may run twice).
 * An idle worker blocks on Redis instead of polling. Nothing a processor does stops the worker:
 * an exception, an {@link Error} (even a {@link StackOverflowError} or an
 * {@link OutOfMemoryError}, logged at ERROR), a return value that cannot be stored or a timeout
 * fails that attempt only (see {@link JobProcessor}). Listeners run on a thread of their own
 * (see {@link WorkerListener}). A batch worker ({@link Builder#batchProcessor}) gets the jobs in
 * batches instead, each job still with its own lock, attempts and events (see {@link JobBatch}).
 *
 * <pre>{@code
 * Worker<Order, String> worker = Worker.builder(redisson, "orders", Order.class)
 *         .processor(ctx -> cancel(ctx.job().data()))
 *         .concurrency(8)
 *         .build();
 * worker.start();
 * ...
 * worker.close();
 * }</pre>
 *
 * @param <T> the type of the jobs' data
 * @param <R> the type of the processor's result
 */
public final class Worker<T, R> implements AutoCloseable {
    private final Builder<T, R> config;
    private final Object lifecycle = new Object();
    private volatile WorkerLifecycle<T, R> parts;
    private boolean started;
    private boolean closed;
    private boolean pausedBeforeStart;

    private Worker(Builder<T, R> config) {
        this.config = config;
    }

    /**
     * Starts building a worker for a queue whose job data is of a plain class.
     *
     * @param redisson the Redis client (the worker opens one small client of its own for waiting)
     * @param queue the queue name
     * @param dataType the class of the jobs' data
     * @param <T> the type of the jobs' data
     * @return a builder; set a processor before {@code build()}
     */
    public static <T> Builder<T, Object> builder(RedissonClient redisson, String queue, Class<T> dataType) {
        return new Builder<>(redisson, queue, JsonCodec.type(Objects.requireNonNull(dataType, "dataType")));
    }

    /**
     * Starts building a worker for a queue whose job data is of a generic type.
     *
     * @param redisson the Redis client
     * @param queue the queue name
     * @param dataType the generic type of the jobs' data
     * @param <T> the type of the jobs' data
     * @return a builder
     */
    public static <T> Builder<T, Object> builder(RedissonClient redisson, String queue, TypeReference<T> dataType) {
        return new Builder<>(redisson, queue, JsonCodec.type(Objects.requireNonNull(dataType, "dataType")));
    }

    /** A builder whose worker makes its calls to {@code store} instead of Redis (tests of threads and time). */
    static <T> Builder<T, Object> builder(WorkerStore store, String queue, Class<T> dataType) {
        return new Builder<>(null, Objects.requireNonNull(store, "store"), queue,
                JsonCodec.type(Objects.requireNonNull(dataType, "dataType")));
    }

    /** @return the worker's name (stored as processedBy on the jobs it runs when set with {@link Builder#name}) */
    public String name() {
        return config.name;
    }

    /** @return the queue this worker consumes */
    public String queue() {
        return config.queue;
    }

    /** @return true between {@link #start()} and {@link #close()} */
    public boolean isRunning() {
        WorkerLifecycle<T, R> p = parts;
        return p != null && p.intake.running();
    }

    /** @return the number of jobs this worker is running now */
    public int activeCount() {
        WorkerLifecycle<T, R> p = parts;
        return p == null ? 0 : p.slots.inFlightCount();
    }

    /**
     * Cancels a job this worker runs now, as {@code Queue.cancel} does (reason
     * {@code "cancelled by worker <name>"}), and applies it at once: the attempt's {@code ctx.isCancelled()} turns true and its
     * processor thread is interrupted; the job then fails as cancelled, without a retry.
     *
     * @param jobId the job id
     * @return true when this worker runs the job and it was flagged; false when it does not run it
     *     (use {@code Queue.cancel} for a job anywhere)
     */
    public boolean cancel(String jobId) {
        java.util.Objects.requireNonNull(jobId, "jobId");
        WorkerLifecycle<T, R> p = parts;
        return p != null && p.cancels.cancel(jobId);
    }

    /** Jobs a started worker holds taken ahead, for tests. */
    int buffered() {
        WorkerLifecycle<T, R> p = parts;
        return p == null ? 0 : p.buffer.size();
    }

    /** The slots of a started worker, for tests of their invariant. */
    Slots<T> slots() {
        return parts.slots;
    }

    /**
     * Starts taking jobs. Returns at once; processing happens on the worker's threads.
     *
     * @return this worker
     * @throws IllegalStateException when already started or closed
     */
    public Worker<T, R> start() {
        synchronized (lifecycle) {
            if (started || closed) {
                throw new IllegalStateException("worker " + config.name + " was already " + (closed ? "closed" : "started"));
            }
            started = true;
            parts = new WorkerLifecycle<>(config, pausedBeforeStart);
            return this;
        }
    }

    /** Closes gracefully, waiting up to the configured close timeout (default 30 s). */
    @Override
    public void close() {
        close(config.closeTimeout);
    }

    /**
     * Stops taking jobs and waits up to {@code timeout} for the running ones to finish. Jobs still
     * running then are interrupted and handed back to the queue at once (to the front of their
     * line, through a script that checks this worker still holds their lock): they run again
     * without waiting for their lock to expire, and neither a stall nor a failed attempt is counted
     * (their start is: {@code attemptsStarted} counts every time a processor began).
     * A result such a processor returns afterwards is rejected. Idempotent.
     *
     * @param timeout how long to wait for running jobs
     */
    public void close(Duration timeout) {
        close(timeout, true);
    }

    /** For tests simulating a crash: closes leaving the running jobs' locks to expire. */
    void closeAsIfCrashed() {
        close(Duration.ZERO, false);
    }

    private void close(Duration timeout, boolean handBack) {
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            if (!started) {
                return;
            }
        }
        parts.close(timeout, handBack);
    }

    // --- pause, resume, heartbeat ---

    /**
     * Stops taking jobs; the jobs running now finish as usual (their results are recorded, and
     * no next job is taken for their slots). A fetch already under way when this is called may
     * still return jobs: they run. A paused worker makes no call to Redis for jobs (its blocking
     * wait ends at once) and keeps its heartbeat, which says it is paused. Paused before
     * {@link #start()}, the worker starts paused. Idempotent; does nothing after {@link #close()}.
     *
     * @return this worker
     */
    public Worker<T, R> pause() {
        return paused(true);
    }

    /**
     * Takes jobs again, at once, after {@link #pause()}. Idempotent; does nothing after
     * {@link #close()}.
     *
     * @return this worker
     */
    public Worker<T, R> resume() {
        return paused(false);
    }

    /** @return whether the worker is paused (see {@link #pause()}); after close, as it was then */
    public boolean isPaused() {
        synchronized (lifecycle) {
            return started ? parts.intake.paused() : pausedBeforeStart;
        }
    }

    private Worker<T, R> paused(boolean paused) {
        synchronized (lifecycle) {
            if (closed) {
                return this;
            }
            if (!started) {
                pausedBeforeStart = paused;
                return this;
            }
            parts.paused(paused);
            return this;
        }
    }

    /**
     * Builds a {@link Worker}.
     *
     * @param <T> the type of the jobs' data
     * @param <R> the type of the processor's result
     */
    public static final class Builder<T, R> {
        private static final AtomicInteger SEQUENCE = new AtomicInteger();
        /** The batch size of a batch worker without {@link #batch} options. */
        private static final int DEFAULT_BATCH_SIZE = 10;

        /** Null when {@link #store} is given. */
        final RedissonClient redisson;
        /** The worker's calls to Redis; null: the scripts on {@link #redisson} ({@link RedisWorkerStore}). */
        final WorkerStore store;
        private final String queue;
        final JavaType dataType;
        JobProcessor<T, R> processor;
        /** Set instead of {@link #processor} for a batch worker. */
        BatchProcessor<T, R> batchProcessor;
        /** The batches of a batch worker; null: {@link #batchProcessor} not used. */
        JobBatchOptions batch;
        final List<WorkerListener<T, ? super R>> listeners = new ArrayList<>();
        /** How many of {@link #listeners} were added before any processor: typed for any result. */
        private int anyResultListeners;
        final List<io.bullpen.instrument.Instrumentation> instrumentations = new ArrayList<>();
        final Map<String, JobOptions> defaultJobOptions = new LinkedHashMap<>();
        String prefix = KeyScheme.DEFAULT_PREFIX;
        String name = defaultName();
        boolean named;
        int concurrency = 1;
        Duration lockDuration = Duration.ofSeconds(30);
        Duration stalledInterval = Duration.ofSeconds(30);
        int maxStalledCount = 1;
        Duration closeTimeout = Duration.ofSeconds(30);
        Duration blockTimeout = Duration.ofSeconds(5);
        Duration janitorInterval = Duration.ofSeconds(5);
        int stackTraceLimit = 10;
        int keepLogs = 1_000;
        Clock clock = Clock.systemUTC();
        ExecutorService executor;
        int takeAhead = TakeAhead.DEFAULT;

        private Builder(RedissonClient redisson, String queue, JavaType dataType) {
            this(Objects.requireNonNull(redisson, "redisson"), null, queue, dataType);
        }

        private Builder(RedissonClient redisson, WorkerStore store, String queue, JavaType dataType) {
            this.redisson = redisson;
            this.store = store;
            this.queue = Validation.queueName(queue);
            this.dataType = dataType;
        }

        private Builder(Builder<T, ?> from, JobProcessor<T, R> processor, BatchProcessor<T, R> batchProcessor) {
            this(from.redisson, from.store, from.queue, from.dataType);
            this.processor = processor;
            this.batchProcessor = batchProcessor;
            carryListeners(from);
            copySettings(from);
        }

        /** Copies every setting here from the builder a processor call replaces. */
        private void copySettings(Builder<T, ?> from) {
            this.prefix = from.prefix;
            this.name = from.name;
            this.named = from.named;
            this.concurrency = from.concurrency;
            this.lockDuration = from.lockDuration;
            this.stalledInterval = from.stalledInterval;
            this.maxStalledCount = from.maxStalledCount;
            this.closeTimeout = from.closeTimeout;
            this.blockTimeout = from.blockTimeout;
            this.janitorInterval = from.janitorInterval;
            this.stackTraceLimit = from.stackTraceLimit;
            this.keepLogs = from.keepLogs;
            this.clock = from.clock;
            this.executor = from.executor;
            this.takeAhead = from.takeAhead;
            this.batch = from.batch;
            this.instrumentations.addAll(from.instrumentations);
            this.defaultJobOptions.putAll(from.defaultJobOptions);
        }

        /**
         * Sets the processor; every other setting, listeners included, is kept, whatever the order
         * of the calls.
         *
         * @param processor the code that processes each job
         * @param <R2> the type of its result
         * @return a builder for workers with that result type
         * @throws IllegalStateException when a {@link #batchProcessor} was set, or listeners were
         *     added for another processor's result type (they could not take this one's results)
         */
        public <R2> Builder<T, R2> processor(JobProcessor<T, R2> processor) {
            Objects.requireNonNull(processor, "processor");
            if (batchProcessor != null) {
                throw new IllegalStateException("a worker has a processor or a batchProcessor, not both: "
                        + "a batchProcessor was set already");
            }
            checkListenersTakeAnyResult();
            return new Builder<>(this, processor, null);
        }

        /**
         * Makes this a batch worker: {@code processor} gets the jobs in batches (see
         * {@link JobBatch}), formed as {@link #batch} says (default {@code JobBatchOptions.of(10)}).
         * Each batch takes one of the {@link #concurrency} slots; each job of it keeps its own lock,
         * attempts, backoff, events and metrics, and rate limits and global concurrency count jobs.
         * Every other setting, listeners included, is kept, whatever the order of the calls.
         *
         * <pre>{@code
         * Worker<Row, Void> worker = Worker.builder(redisson, "rows", Row.class)
         *         .batchProcessor(batch -> { insertAll(batch.jobs()); return null; })
         *         .batch(JobBatchOptions.of(500).minSize(50).maxWait(Duration.ofSeconds(2)))
         *         .build();
         * }</pre>
         *
         * @param processor the code that processes each batch
         * @param <R2> the type of its results
         * @return a builder for workers with that result type
         * @throws IllegalStateException when a {@link #processor} was set, or listeners were added
         *     for another processor's result type
         */
        public <R2> Builder<T, R2> batchProcessor(BatchProcessor<T, R2> processor) {
            Objects.requireNonNull(processor, "batchProcessor");
            if (this.processor != null) {
                throw new IllegalStateException("a worker has a processor or a batchProcessor, not both: "
                        + "a processor was set already");
            }
            checkListenersTakeAnyResult();
            return new Builder<>(this, null, processor);
        }

        /**
         * Sets how a batch worker forms its batches (see {@link JobBatchOptions}).
         *
         * @param options the batch size, minimum size, longest wait and group rule
         * @return this builder
         * @throws IllegalStateException at {@link #build()} when the worker has no {@link #batchProcessor}
         */
        public Builder<T, R> batch(JobBatchOptions options) {
            this.batch = Objects.requireNonNull(options, "batch options");
            return this;
        }

        private void checkListenersTakeAnyResult() {
            if (listeners.size() > anyResultListeners) {
                throw new IllegalStateException("listeners were added for the previous processor's result type and "
                        + "cannot take another's: set the processor once, or add those listeners after it");
            }
        }

        /**
         * Listeners added before any processor were typed for {@code Object} results (the builder's
         * result type until then), so they take any processor's results.
         */
        @SuppressWarnings("unchecked")
        private void carryListeners(Builder<T, ?> from) {
            for (int i = 0; i < from.anyResultListeners; i++) {
                listeners.add((WorkerListener<T, ? super R>) from.listeners.get(i));
            }
            anyResultListeners = from.anyResultListeners;
        }

        /**
         * Adds in-process callbacks. Listeners add up: each gets every callback, in the order they
         * were added, on the worker's events thread (see {@link WorkerListener}).
         *
         * @param listener the callbacks; one typed for {@code Object} results may be added before
         *                 {@link #processor}
         * @return this builder
         */
        public Builder<T, R> listener(WorkerListener<T, ? super R> listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
            if (processor == null && batchProcessor == null) {
                anyResultListeners = listeners.size();
            }
            return this;
        }

        /**
         * @param concurrency how many jobs run at once (default 1)
         * @return this builder
         */
        public Builder<T, R> concurrency(int concurrency) {
            Validation.atLeast("concurrency", concurrency, 1);
            this.concurrency = concurrency;
            return this;
        }

        /**
         * @param duration how long a job's lock lasts unless renewed (default 30 s); renewed every
         *                 duration / 2, so a crashed worker's jobs return after about this long
         * @return this builder
         */
        public Builder<T, R> lockDuration(Duration duration) {
            Validation.positive("lockDuration", duration);
            this.lockDuration = duration;
            return this;
        }

        /**
         * @param interval how often a worker whose slots are all busy looks for stalled jobs
         *                 (default 30 s; idle and fetching workers do it as they go)
         * @return this builder
         */
        public Builder<T, R> stalledInterval(Duration interval) {
            Validation.positive("stalledInterval", interval);
            this.stalledInterval = interval;
            return this;
        }

        /**
         * @param count how many times a job may be recovered after its worker lost the lock before
         *              it fails (default 1)
         * @return this builder
         */
        public Builder<T, R> maxStalledCount(int count) {
            Validation.atLeast("maxStalledCount", count, 0);
            this.maxStalledCount = count;
            return this;
        }

        /**
         * Runs the processors on an executor of the application's. The worker hands it each job
         * from a thread of its own ({@code bullpen-<queue>-handoff}), since such an executor may
         * block or run the task in the caller. A processor that outlives its job's timeout keeps
         * one of its threads until it returns (the worker's own pool grows by a thread instead),
         * so size it for the stuck processors you may have.
         *
         * @param executor runs the processors; not shut down by the worker (default: a pool of
         *                 {@code concurrency} threads owned by the worker)
         * @return this builder
         */
        public Builder<T, R> executor(ExecutorService executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /**
         * @param prefix the prefix of the queue's keys (default "bp")
         * @return this builder
         */
        public Builder<T, R> prefix(String prefix) {
            this.prefix = Validation.prefix(prefix);
            return this;
        }

        /**
         * @param name the worker's name, stored as each job's processedBy (as in BullMQ, a worker
         *     without one stores none; it is then named after the JVM and a number in logs)
         * @return this builder
         */
        public Builder<T, R> name(String name) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("worker name must not be blank but was " + Validation.quote(name));
            }
            this.name = name;
            this.named = true;
            return this;
        }

        /**
         * @param timeout how long {@link Worker#close()} waits for running jobs (default 30 s)
         * @return this builder
         */
        public Builder<T, R> closeTimeout(Duration timeout) {
            Validation.nonNegative("closeTimeout", timeout);
            this.closeTimeout = timeout;
            return this;
        }

        /**
         * @param timeout the longest single blocking wait of an idle worker, rounded to whole
         *                seconds, at least 1 (default 5 s: 4 round trips per 10 idle seconds)
         * @return this builder
         */
        public Builder<T, R> blockTimeout(Duration timeout) {
            Validation.positive("blockTimeout", timeout);
            this.blockTimeout = timeout;
            return this;
        }

        /**
         * @param limit stack traces kept per job, oldest dropped (default 10)
         * @return this builder
         */
        public Builder<T, R> stackTraceLimit(int limit) {
            Validation.atLeast("stackTraceLimit", limit, 0);
            this.stackTraceLimit = limit;
            return this;
        }

        /**
         * @param lines log lines kept per job, oldest dropped (default 1,000)
         * @return this builder
         */
        public Builder<T, R> keepLogs(int lines) {
            Validation.atLeast("keepLogs", lines, 0);
            this.keepLogs = lines;
            return this;
        }

        /**
         * @param clock the clock for timestamps and due times (tests may pass their own)
         * @return this builder
         */
        public Builder<T, R> clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Adds an observer of this worker and its jobs, for metrics and tracing (several may be
         * added). Called on the listeners' thread, next to them: it takes no listener's place.
         * The children a processor adds at runtime are one bulk add to it, started on the
         * processor's thread while the attempt's own context is current (so the children's trace
         * descends from the attempt); the headers it puts are stored with every child.
         *
         * @param instrumentation the observer
         * @return this builder
         */
        public Builder<T, R> instrumentation(io.bullpen.instrument.Instrumentation instrumentation) {
            instrumentations.add(Objects.requireNonNull(instrumentation, "instrumentation"));
            return this;
        }

        /**
         * Options filled in for the children a processor adds at runtime
         * ({@link JobContext#addChildren}) in that queue, where the child's own options do not set
         * them: option by option, as {@code Queue.Builder#defaultJobOptions} does for plain adds and
         * {@code FlowProducer.Builder#defaultJobOptions} for flows (an option the child set wins,
         * even when set to its default value). Give the same as the queue's, so a job gets the same
         * options however it is added; a {@code Bullpen} client gives its workers its own defaults
         * for every queue. Costs no Redis call.
         *
         * @param queue the children's queue (any queue, not only this worker's)
         * @param options the default options (no job id, no deduplication)
         * @return this builder
         * @throws IllegalArgumentException for an illegal queue name or defaults setting a job id or
         *     a deduplication
         */
        public Builder<T, R> defaultJobOptions(String queue, JobOptions options) {
            Objects.requireNonNull(options, "options");
            // The check FlowProducer.Builder makes: a job id or a deduplication is refused.
            WireFormat.withDefaults(options, JobOptions.defaults());
            defaultJobOptions.put(Validation.queueName(queue), options);
            return this;
        }

        /**
         * Take-ahead: a worker with short jobs takes up to {@code max} jobs more than its free slots in
         * one call and holds them in a local queue, so a processor thread that frees starts the next
         * job without a round trip to Redis. Adaptive: nothing is taken ahead while jobs take longer
         * than a round trip (other workers get them), more the shorter they are, at most {@code max}.
         * A job held ahead is active and leased (its lock renewed); it is handed back at once on
         * {@link Worker#close()}, and on a crash it is recovered without counting a stall. On a queue
         * with a rate limit, a global concurrency or any group setting (a group's concurrency, weight,
         * pause, size or rate limit, or a default for groups), nothing is taken ahead.
         *
         * @param max the most jobs held beyond the running ones (default: adaptive up to 200);
         *            0 turns take-ahead off
         * @return this builder
         * @throws IllegalArgumentException when {@code max} is negative
         */
        public Builder<T, R> takeAhead(int max) {
            if (max < 0) {
                throw new IllegalArgumentException("takeAhead must be >= 0 but was " + max);
            }
            this.takeAhead = max;
            return this;
        }

        /**
         * @return the worker, not yet started
         * @throws IllegalStateException when no processor was set, or batch options were set for a
         *     worker without a batchProcessor
         */
        public Worker<T, R> build() {
            if (processor == null && batchProcessor == null) {
                throw new IllegalStateException("a worker needs a processor: call processor(...) or batchProcessor(...) "
                        + "before build()");
            }
            if (batch != null && batchProcessor == null) {
                throw new IllegalStateException("batch(" + batch + ") applies to a batchProcessor, but this worker has "
                        + "a processor: use batchProcessor(...)");
            }
            return new Worker<>(this);
        }

        /** @return the batch options of a batch worker (the default when none were set); null for a per-job worker */
        JobBatchOptions batchOptions() {
            return batchProcessor == null ? null : batch != null ? batch : JobBatchOptions.of(DEFAULT_BATCH_SIZE);
        }

        WorkerSettings settings() {
            return new WorkerSettings(queue, prefix, name, named, concurrency, lockDuration, stalledInterval, maxStalledCount,
                    closeTimeout, blockTimeout, janitorInterval, stackTraceLimit, keepLogs, clock,
                    Map.copyOf(defaultJobOptions));
        }

        private static String defaultName() {
            String host = ManagementFactory.getRuntimeMXBean().getName();
            return host + ":" + SEQUENCE.incrementAndGet();
        }
    }
}
