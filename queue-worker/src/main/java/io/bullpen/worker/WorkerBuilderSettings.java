package io.bullpen.worker;

import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.Validation;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The plain settings of {@link Worker.Builder} and their setters, split off only to keep each class
 * small; users see these methods as {@code Worker.Builder}'s own.
 *
 * @param <T> the type of the jobs' data
 * @param <R> the type of the processor's result
 */
abstract class WorkerBuilderSettings<T, R> {
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    final List<io.bullpen.instrument.Instrumentation> instrumentations = new ArrayList<>();
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

    /** Copies every setting here from the builder a processor call replaces. */
    final void copySettings(WorkerBuilderSettings<T, ?> from) {
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
        this.instrumentations.addAll(from.instrumentations);
    }

    @SuppressWarnings("unchecked")
    private Worker.Builder<T, R> self() {
        return (Worker.Builder<T, R>) this; // the only subclass
    }

    /**
     * @param concurrency how many jobs run at once (default 1)
     * @return this builder
     */
    public Worker.Builder<T, R> concurrency(int concurrency) {
        Validation.atLeast("concurrency", concurrency, 1);
        this.concurrency = concurrency;
        return self();
    }

    /**
     * @param duration how long a job's lock lasts unless renewed (default 30 s); renewed every
     *                 duration / 2, so a crashed worker's jobs return after about this long
     * @return this builder
     */
    public Worker.Builder<T, R> lockDuration(Duration duration) {
        Validation.positive("lockDuration", duration);
        this.lockDuration = duration;
        return self();
    }

    /**
     * @param interval how often a worker whose slots are all busy looks for stalled jobs
     *                 (default 30 s; idle and fetching workers do it as they go)
     * @return this builder
     */
    public Worker.Builder<T, R> stalledInterval(Duration interval) {
        Validation.positive("stalledInterval", interval);
        this.stalledInterval = interval;
        return self();
    }

    /**
     * @param count how many times a job may be recovered after its worker lost the lock before
     *              it fails (default 1)
     * @return this builder
     */
    public Worker.Builder<T, R> maxStalledCount(int count) {
        Validation.atLeast("maxStalledCount", count, 0);
        this.maxStalledCount = count;
        return self();
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
    public Worker.Builder<T, R> executor(ExecutorService executor) {
        this.executor = Objects.requireNonNull(executor, "executor");
        return self();
    }

    /**
     * @param prefix the prefix of the queue's keys (default "bp")
     * @return this builder
     */
    public Worker.Builder<T, R> prefix(String prefix) {
        this.prefix = Validation.prefix(prefix);
        return self();
    }

    /**
     * @param name the worker's name, stored as each job's processedBy (as in BullMQ, a worker
     *     without one stores none; it is then named after the JVM and a number in logs)
     * @return this builder
     */
    public Worker.Builder<T, R> name(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("worker name must not be blank but was " + Validation.quote(name));
        }
        this.name = name;
        this.named = true;
        return self();
    }

    /**
     * @param timeout how long {@link Worker#close()} waits for running jobs (default 30 s)
     * @return this builder
     */
    public Worker.Builder<T, R> closeTimeout(Duration timeout) {
        Validation.nonNegative("closeTimeout", timeout);
        this.closeTimeout = timeout;
        return self();
    }

    /**
     * @param timeout the longest single blocking wait of an idle worker, rounded to whole
     *                seconds, at least 1 (default 5 s: 4 round trips per 10 idle seconds)
     * @return this builder
     */
    public Worker.Builder<T, R> blockTimeout(Duration timeout) {
        Validation.positive("blockTimeout", timeout);
        this.blockTimeout = timeout;
        return self();
    }

    /**
     * @param limit stack traces kept per job, oldest dropped (default 10)
     * @return this builder
     */
    public Worker.Builder<T, R> stackTraceLimit(int limit) {
        Validation.atLeast("stackTraceLimit", limit, 0);
        this.stackTraceLimit = limit;
        return self();
    }

    /**
     * @param lines log lines kept per job, oldest dropped (default 1,000)
     * @return this builder
     */
    public Worker.Builder<T, R> keepLogs(int lines) {
        Validation.atLeast("keepLogs", lines, 0);
        this.keepLogs = lines;
        return self();
    }

    /**
     * @param clock the clock for timestamps and due times (tests may pass their own)
     * @return this builder
     */
    public Worker.Builder<T, R> clock(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        return self();
    }

    /**
     * Adds an observer of this worker and its jobs, for metrics and tracing (several may be
     * added). Called on the listeners' thread, next to them: it takes no listener's place.
     *
     * @param instrumentation the observer
     * @return this builder
     */
    public Worker.Builder<T, R> instrumentation(io.bullpen.instrument.Instrumentation instrumentation) {
        instrumentations.add(Objects.requireNonNull(instrumentation, "instrumentation"));
        return self();
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
    public Worker.Builder<T, R> takeAhead(int max) {
        if (max < 0) {
            throw new IllegalArgumentException("takeAhead must be >= 0 but was " + max);
        }
        this.takeAhead = max;
        return self();
    }

    private static String defaultName() {
        String host = ManagementFactory.getRuntimeMXBean().getName();
        return host + ":" + SEQUENCE.incrementAndGet();
    }
}
