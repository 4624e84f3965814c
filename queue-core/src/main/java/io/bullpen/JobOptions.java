package io.bullpen;

import io.bullpen.internal.Validation;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How a job is added and handled: delay, priority, retries, custom id, retention and timeout.
 * Build one with {@link #builder()}; every option has a default, see {@link #defaults()}:
 *
 * <pre>{@code
 * JobOptions options = JobOptions.builder()
 *         .attempts(5)
 *         .backoff(Backoff.exponential(Duration.ofSeconds(1)))
 *         .removeOnComplete(Retention.keepLast(1000))
 *         .build();
 * }</pre>
 *
 * <p>The options are stored with the job as JSON ({@link #describe()}), so every process that
 * touches the job, in Java or not, applies the same ones. Durations have millisecond
 * precision. Immutable; compares by value.
 *
 * <p>A queue's default options ({@code Queue.Builder.defaultJobOptions}) fill in every option the
 * builder's setters did not set: an option set explicitly wins even when set to its default value
 * (e.g. {@code attempts(1)} over a queue default of 5). Which options were set is not part of the
 * value ({@code equals} ignores it).
 */
public final class JobOptions {

    /** Highest priority value (2^21); the priority is part of a score that must stay exact. */
    public static final int MAX_PRIORITY = 1 << 21;

    private static final JobOptions DEFAULTS = new Builder().build();

    private final Duration delay;
    private final int priority;
    private final int attempts;
    private final Backoff backoff;
    private final String jobId;
    private final boolean lifo;
    private final Retention removeOnComplete;
    private final Retention removeOnFail;
    private final Duration timeout;
    private final String group;
    private final Deduplication deduplication;
    /** The options a builder's setter set (JobOptionsSetters bits); not part of the value. */
    private final int explicit;

    private JobOptions(Builder b) {
        Validation.nonNegative("delay", b.delay);
        Validation.between("priority", b.priority, 0, MAX_PRIORITY);
        Validation.atLeast("attempts", b.attempts, 1);
        if (b.jobId != null) {
            Validation.jobId(b.jobId);
        }
        if (b.lifo && b.priority > 0) {
            // LIFO orders the wait list; prioritized jobs live in a sorted set where it means nothing.
            throw new IllegalArgumentException("lifo cannot be combined with priority " + b.priority);
        }
        Objects.requireNonNull(b.removeOnComplete, "removeOnComplete must not be null");
        Objects.requireNonNull(b.removeOnFail, "removeOnFail must not be null");
        if (b.timeout != null) {
            Validation.positive("timeout", b.timeout);
        }
        if (b.deduplication != null && b.deduplication.debounceDuration().isPresent() && !b.delay.isZero()) {
            // The debounce is the delay: two would be ambiguous.
            throw new IllegalArgumentException("delay " + Validation.millis(b.delay)
                    + " cannot be combined with a deduplication debounce (the debounce is the delay)");
        }
        // Truncated to milliseconds so that describe() and fromDescription() round-trip exactly.
        this.delay = Duration.ofMillis(b.delay.toMillis());
        this.priority = b.priority;
        this.attempts = b.attempts;
        this.backoff = b.backoff;
        this.jobId = b.jobId;
        this.lifo = b.lifo;
        this.removeOnComplete = b.removeOnComplete;
        this.removeOnFail = b.removeOnFail;
        this.timeout = b.timeout == null ? null : Duration.ofMillis(b.timeout.toMillis());
        this.group = b.group == null ? null : Validation.groupName(b.group);
        this.deduplication = b.deduplication;
        this.explicit = b.explicit;
    }

    /**
     * Starts a builder holding the default options.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The default options: no delay, no priority, one attempt, no backoff, an automatic id,
     * FIFO, keep every finished job, no timeout.
     *
     * @return the default options
     */
    public static JobOptions defaults() {
        return DEFAULTS;
    }

    /**
     * Rebuilds options from the map produced by {@link #describe()}, as decoded by Jackson from
     * the job's stored {@code opts}: numbers may be Integer, Long or whole Doubles, and a
     * missing or null key means the default. Unknown keys are ignored so that older processes
     * can read options written by newer ones.
     *
     * @param description the described options
     * @return options equal to the ones described
     * @throws NullPointerException if {@code description} is null
     * @throws IllegalArgumentException if a value has the wrong type or is invalid
     */
    public static JobOptions fromDescription(Map<String, ?> description) {
        return JobOptionsText.read(description);
    }

    /**
     * Starts a builder holding these options, to derive changed copies.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.delay = delay;
        b.priority = priority;
        b.attempts = attempts;
        b.backoff = backoff;
        b.jobId = jobId;
        b.lifo = lifo;
        b.removeOnComplete = removeOnComplete;
        b.removeOnFail = removeOnFail;
        b.timeout = timeout;
        b.group = group;
        b.deduplication = deduplication;
        b.explicit = explicit;
        return b;
    }

    /**
     * How long after being added the job becomes ready.
     *
     * @return the delay, {@link Duration#ZERO} by default
     */
    public Duration delay() {
        return delay;
    }

    /**
     * The job's priority: 0 means none (the job goes to the plain wait list); 1 to
     * {@value #MAX_PRIORITY} prioritize it, lower values running first.
     *
     * @return the priority, 0 by default
     */
    public int priority() {
        return priority;
    }

    /**
     * How many times the job may run in total, the first attempt included.
     *
     * @return the attempts, 1 by default (no retry)
     */
    public int attempts() {
        return attempts;
    }

    /**
     * The wait before each retry. When absent, a failed job with attempts left is retried
     * immediately.
     *
     * @return the backoff, empty by default
     */
    public Optional<Backoff> backoff() {
        return Optional.ofNullable(backoff);
    }

    /**
     * The caller's id for the job; adding a job whose id already exists returns the existing
     * job and adds nothing.
     *
     * @return the custom id, or empty for an automatic numeric id
     */
    public Optional<String> jobId() {
        return Optional.ofNullable(jobId);
    }

    /**
     * Whether the job goes to the front of the wait list (last in, first out) instead of the
     * back.
     *
     * @return false by default
     */
    public boolean lifo() {
        return lifo;
    }

    /**
     * The group the job belongs to (see {@link Builder#group(String)}).
     *
     * @return the group, empty by default (no group)
     */
    public Optional<String> group() {
        return Optional.ofNullable(group);
    }

    /**
     * Which completed jobs to keep.
     *
     * @return the retention, {@link Retention#keepAll()} by default
     */
    public Retention removeOnComplete() {
        return removeOnComplete;
    }

    /**
     * Which failed jobs (out of attempts) to keep.
     *
     * @return the retention, {@link Retention#keepAll()} by default
     */
    public Retention removeOnFail() {
        return removeOnFail;
    }

    /**
     * How long one attempt may run before the worker interrupts it and fails the attempt.
     *
     * @return the timeout, empty by default (no limit)
     */
    public Optional<Duration> timeout() {
        return Optional.ofNullable(timeout);
    }

    /**
     * The job's deduplication (see {@link Builder#deduplication(Deduplication)}).
     *
     * @return the deduplication, empty by default
     */
    public Optional<Deduplication> deduplication() {
        return Optional.ofNullable(deduplication);
    }

    /** @return whether a setter set the option (a JobOptionsSetters bit), even to its default value */
    boolean sets(int option) {
        return (explicit & option) != 0;
    }

    /**
     * A JSON-friendly description holding only the options that differ from
     * {@link #defaults()}, so stored job hashes stay lean: keys {@code delay} (ms, Long),
     * {@code priority} and {@code attempts} (Integer), {@code backoff} ({@link Backoff#describe()}),
     * {@code jobId} (String), {@code lifo} (Boolean), {@code removeOnComplete} and
     * {@code removeOnFail} ({@link Retention#describe()}), {@code timeout} (ms, Long), {@code group}
     * (String), {@code deduplication} (an object: {@code id}, {@code ttl} and {@code debounce} in ms,
     * {@code keepLastIfActive}). The
     * default options describe as an empty map.
     *
     * @return an unmodifiable map with a stable key order
     */
    public Map<String, Object> describe() {
        return JobOptionsText.describe(this);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JobOptions other
                && other.delay.equals(delay)
                && other.priority == priority
                && other.attempts == attempts
                && Objects.equals(other.backoff, backoff)
                && Objects.equals(other.jobId, jobId)
                && other.lifo == lifo
                && other.removeOnComplete.equals(removeOnComplete)
                && other.removeOnFail.equals(removeOnFail)
                && Objects.equals(other.timeout, timeout)
                && Objects.equals(other.group, group)
                && Objects.equals(other.deduplication, deduplication);
    }

    @Override
    public int hashCode() {
        return Objects.hash(delay, priority, attempts, backoff, jobId, lifo,
                removeOnComplete, removeOnFail, timeout, group, deduplication);
    }

    /** Lists only the options that differ from the defaults, e.g. {@code JobOptions{attempts=3}}. */
    @Override
    public String toString() {
        return JobOptionsText.toString(this);
    }

    /**
     * Collects options fluently; {@link #build()} validates them all at once, so setters can
     * be called in any order. Not thread-safe; reusable after {@code build()}.
     */
    public static final class Builder extends JobOptionsSetters {

        private Builder() {
        }

        /**
         * Validates the options and creates them.
         *
         * @return the options
         * @throws NullPointerException if delay or a retention is null
         * @throws IllegalArgumentException if an option is out of range, naming the bad value
         */
        public JobOptions build() {
            return new JobOptions(this);
        }
    }
}
