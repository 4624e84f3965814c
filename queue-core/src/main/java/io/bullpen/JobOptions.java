package io.bullpen;

import io.bullpen.internal.Validation;

import java.time.Duration;
import java.time.Instant;
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
 * <p>The options are stored with the job as JSON, so every process that touches the job, in Java
 * or not, applies the same ones. Durations have millisecond
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

    static {
        // Hands the package-private codec (describe, fromDescription, Job.fromHash) to the internals.
        io.bullpen.internal.WireFormat.install(new WireAccess());
    }

    private static final JobOptions DEFAULTS = new Builder().build();

    // The bits of the options a builder's setter set, so a queue's default options fill in only the others.
    static final int DELAY = 1;
    static final int PRIORITY = 1 << 1;
    static final int ATTEMPTS = 1 << 2;
    static final int BACKOFF = 1 << 3;
    static final int JOB_ID = 1 << 4;
    static final int LIFO = 1 << 5;
    static final int REMOVE_ON_COMPLETE = 1 << 6;
    static final int REMOVE_ON_FAIL = 1 << 7;
    static final int TIMEOUT = 1 << 8;
    static final int GROUP = 1 << 9;
    static final int DEDUPLICATION = 1 << 10;
    static final int EXPIRY = 1 << 11;

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
    private final Duration expireAfter;
    private final Instant expireAt;
    /** The options a builder's setter set (the bits above); not part of the value. */
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
        if (b.expireAfter != null && b.expireAt != null) {
            throw new IllegalArgumentException("expireAfter " + Validation.millis(b.expireAfter)
                    + " cannot be combined with expireAt " + b.expireAt + " (one deadline per job)");
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
        this.expireAfter = b.expireAfter == null ? null : Duration.ofMillis(b.expireAfter.toMillis());
        this.expireAt = b.expireAt == null ? null : Instant.ofEpochMilli(b.expireAt.toEpochMilli());
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
    static JobOptions fromDescription(Map<String, ?> description) {
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
        b.expireAfter = expireAfter;
        b.expireAt = expireAt;
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

    /**
     * How long after the job is due (its add, or the end of its delay) its first attempt must
     * have started, on Redis's clock; see {@link Builder#expireAfter(Duration)}.
     *
     * @return the expiry, empty by default (the job never expires)
     */
    public Optional<Duration> expireAfter() {
        return Optional.ofNullable(expireAfter);
    }

    /**
     * The instant by which the job's first attempt must have started, on Redis's clock; see
     * {@link Builder#expireAt(Instant)}.
     *
     * @return the deadline, empty by default (the job never expires)
     */
    public Optional<Instant> expireAt() {
        return Optional.ofNullable(expireAt);
    }

    /** @return whether a setter set the option (one of the bits above), even to its default value */
    boolean sets(int option) {
        return (explicit & option) != 0;
    }

    /**
     * A JSON-friendly description holding only the options that differ from
     * {@link #defaults()}, so stored job hashes stay lean: keys {@code delay} (ms, Long),
     * {@code priority} and {@code attempts} (Integer), {@code backoff} ({@link BackoffText#describe(Backoff)}),
     * {@code jobId} (String), {@code lifo} (Boolean), {@code removeOnComplete} and
     * {@code removeOnFail} ({@link Retention#describe()}), {@code timeout} (ms, Long), {@code group}
     * (String), {@code deduplication} (an object: {@code id}, {@code ttl} and {@code debounce} in ms,
     * {@code keepLastIfActive}). The
     * default options describe as an empty map.
     *
     * @return an unmodifiable map with a stable key order
     */
    Map<String, Object> describe() {
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
                && Objects.equals(other.deduplication, deduplication)
                && Objects.equals(other.expireAfter, expireAfter)
                && Objects.equals(other.expireAt, expireAt);
    }

    @Override
    public int hashCode() {
        return Objects.hash(delay, priority, attempts, backoff, jobId, lifo,
                removeOnComplete, removeOnFail, timeout, group, deduplication, expireAfter, expireAt);
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
    public static final class Builder {
        Duration delay = Duration.ZERO;
        int priority;
        int attempts = 1;
        Backoff backoff;
        String jobId;
        boolean lifo;
        Retention removeOnComplete = Retention.keepAll();
        Retention removeOnFail = Retention.keepAll();
        Duration timeout;
        String group;
        Deduplication deduplication;
        Duration expireAfter;
        Instant expireAt;
        /** Which options a setter set (the bits of JobOptions). */
        int explicit;

        private Builder() {
        }

        /**
         * Sets how long after being added the job becomes ready.
         *
         * @param delay the delay, >= 0
         * @return this builder
         */
        public Builder delay(Duration delay) {
            this.delay = delay;
            explicit |= DELAY;
            return this;
        }

        /**
         * Sets the priority: 0 for none, 1 to {@value JobOptions#MAX_PRIORITY} where lower
         * values run first.
         *
         * @param priority the priority
         * @return this builder
         */
        public Builder priority(int priority) {
            this.priority = priority;
            explicit |= PRIORITY;
            return this;
        }

        /**
         * Sets how many times the job may run in total, the first attempt included.
         *
         * @param attempts the attempts, >= 1
         * @return this builder
         */
        public Builder attempts(int attempts) {
            this.attempts = attempts;
            explicit |= ATTEMPTS;
            return this;
        }

        /**
         * Sets the wait before each retry.
         *
         * @param backoff the backoff, or null to retry immediately
         * @return this builder
         */
        public Builder backoff(Backoff backoff) {
            this.backoff = backoff;
            explicit |= BACKOFF;
            return this;
        }

        /**
         * Sets a custom job id, which makes adding idempotent: a second add with the same id
         * returns the existing job. Numeric ids are reserved for automatic ids.
         *
         * @param jobId the id: up to 256 characters, not all digits, without {@code { } :} or
         *     whitespace; or null for an automatic id
         * @return this builder
         */
        public Builder jobId(String jobId) {
            this.jobId = jobId;
            explicit |= JOB_ID;
            return this;
        }

        /**
         * Sets whether the job goes to the front of the wait list; cannot be combined with a
         * priority.
         *
         * @param lifo true for last in, first out
         * @return this builder
         */
        public Builder lifo(boolean lifo) {
            this.lifo = lifo;
            explicit |= LIFO;
            return this;
        }

        /**
         * Sets which completed jobs to keep.
         *
         * @param retention the retention
         * @return this builder
         */
        public Builder removeOnComplete(Retention retention) {
            this.removeOnComplete = retention;
            explicit |= REMOVE_ON_COMPLETE;
            return this;
        }

        /**
         * Sets which failed jobs to keep.
         *
         * @param retention the retention
         * @return this builder
         */
        public Builder removeOnFail(Retention retention) {
            this.removeOnFail = retention;
            explicit |= REMOVE_ON_FAIL;
            return this;
        }

        /**
         * Sets how long one attempt may run. At the timeout the worker interrupts the processor
         * and fails the attempt ("timed out after ...ms", retried per attempts and backoff) at
         * once, whether the processor stops or not: its lock is released and its slot runs the
         * next job. Java cannot stop a thread that ignores interrupts; such a processor runs on
         * until it returns, and what it returns then is discarded.
         *
         * @param timeout the timeout, >= 1ms, or null for no limit
         * @return this builder
         */
        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            explicit |= TIMEOUT;
            return this;
        }

        /**
         * Puts the job in a group (e.g. a tenant): the queue takes jobs round robin over the
         * groups that have ready jobs, FIFO (or by priority) inside a group, and applies the
         * group's concurrency, rate limit, max size and pause.
         *
         * @param group the group: 1-128 characters, no control characters; or null for none
         * @return this builder
         */
        public Builder group(String group) {
            this.group = group;
            explicit |= GROUP;
            return this;
        }

        /**
         * Deduplicates the add by an id (see {@link Deduplication}): while another job owns the
         * id, the add creates no job and returns the owner ({@link Job#isDeduplicated()}).
         *
         * @param deduplication the deduplication, or null for none
         * @return this builder
         */
        public Builder deduplication(Deduplication deduplication) {
            this.deduplication = deduplication;
            explicit |= DEDUPLICATION;
            return this;
        }

        /**
         * Makes the job expire when its first attempt has not started within {@code expireAfter}
         * of the job being due (its add, or the end of its delay), on Redis's clock. "Started"
         * means its processor was called: a job still waiting in any state (wait, prioritized,
         * delayed, its group, held by a limit, a paused queue, a worker's take-ahead buffer) at
         * the deadline ends in failed with failedReason {@code "expired"}, no attempt used and no
         * retry; its failed event has {@code expired = true}. A job that started once never
         * expires (its retries follow attempts and backoff). A change of its due time before it
         * starts ({@code Queue.changeDelay}, {@code promote}, a debounced add) moves the deadline
         * with it. Replaces an {@link #expireAt(Instant)}.
         *
         * @param expireAfter how long the job may wait once due, >= 1ms
         * @return this builder
         * @throws IllegalArgumentException if {@code expireAfter} is null, zero or negative
         */
        public Builder expireAfter(Duration expireAfter) {
            if (expireAfter == null) {
                throw new IllegalArgumentException("expireAfter must not be null but was null");
            }
            Validation.positive("expireAfter", expireAfter);
            this.expireAfter = expireAfter;
            this.expireAt = null;
            explicit |= EXPIRY;
            return this;
        }

        /**
         * Makes the job expire when its first attempt has not started by {@code expireAt}, on
         * Redis's clock; otherwise as {@link #expireAfter(Duration)}. A deadline already past
         * when the job is added expires it at once; a change of the job's due time leaves it where
         * it is. Replaces an {@link #expireAfter(Duration)}.
         *
         * @param expireAt the deadline
         * @return this builder
         * @throws IllegalArgumentException if {@code expireAt} is null or before the epoch
         */
        public Builder expireAt(Instant expireAt) {
            if (expireAt == null) {
                throw new IllegalArgumentException("expireAt must not be null but was null");
            }
            if (expireAt.isBefore(Instant.EPOCH)) {
                throw new IllegalArgumentException("expireAt must not be before the epoch but was " + expireAt);
            }
            this.expireAt = expireAt;
            this.expireAfter = null;
            explicit |= EXPIRY;
            return this;
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
