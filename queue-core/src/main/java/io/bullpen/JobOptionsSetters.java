package io.bullpen;

import java.time.Duration;

/**
 * The fields of {@link JobOptions.Builder} and their setters, split off only to keep each class
 * small; users see these methods as {@code JobOptions.Builder}'s own. {@link JobOptions.Builder#build()}
 * validates them.
 */
abstract class JobOptionsSetters {
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
    /** Which options a setter set (bits below), so a queue's default options fill in only the others. */
    int explicit;

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

    private JobOptions.Builder self() {
        return (JobOptions.Builder) this; // the only subclass
    }

    /**
     * Sets how long after being added the job becomes ready.
     *
     * @param delay the delay, >= 0
     * @return this builder
     */
    public JobOptions.Builder delay(Duration delay) {
        this.delay = delay;
        explicit |= DELAY;
        return self();
    }

    /**
     * Sets the priority: 0 for none, 1 to {@value JobOptions#MAX_PRIORITY} where lower
     * values run first.
     *
     * @param priority the priority
     * @return this builder
     */
    public JobOptions.Builder priority(int priority) {
        this.priority = priority;
        explicit |= PRIORITY;
        return self();
    }

    /**
     * Sets how many times the job may run in total, the first attempt included.
     *
     * @param attempts the attempts, >= 1
     * @return this builder
     */
    public JobOptions.Builder attempts(int attempts) {
        this.attempts = attempts;
        explicit |= ATTEMPTS;
        return self();
    }

    /**
     * Sets the wait before each retry.
     *
     * @param backoff the backoff, or null to retry immediately
     * @return this builder
     */
    public JobOptions.Builder backoff(Backoff backoff) {
        this.backoff = backoff;
        explicit |= BACKOFF;
        return self();
    }

    /**
     * Sets a custom job id, which makes adding idempotent: a second add with the same id
     * returns the existing job. Numeric ids are reserved for automatic ids.
     *
     * @param jobId the id: up to 256 characters, not all digits, without {@code { } :} or
     *     whitespace; or null for an automatic id
     * @return this builder
     */
    public JobOptions.Builder jobId(String jobId) {
        this.jobId = jobId;
        explicit |= JOB_ID;
        return self();
    }

    /**
     * Sets whether the job goes to the front of the wait list; cannot be combined with a
     * priority.
     *
     * @param lifo true for last in, first out
     * @return this builder
     */
    public JobOptions.Builder lifo(boolean lifo) {
        this.lifo = lifo;
        explicit |= LIFO;
        return self();
    }

    /**
     * Sets which completed jobs to keep.
     *
     * @param retention the retention
     * @return this builder
     */
    public JobOptions.Builder removeOnComplete(Retention retention) {
        this.removeOnComplete = retention;
        explicit |= REMOVE_ON_COMPLETE;
        return self();
    }

    /**
     * Sets which failed jobs to keep.
     *
     * @param retention the retention
     * @return this builder
     */
    public JobOptions.Builder removeOnFail(Retention retention) {
        this.removeOnFail = retention;
        explicit |= REMOVE_ON_FAIL;
        return self();
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
    public JobOptions.Builder timeout(Duration timeout) {
        this.timeout = timeout;
        explicit |= TIMEOUT;
        return self();
    }

    /**
     * Puts the job in a group (e.g. a tenant): the queue takes jobs round robin over the
     * groups that have ready jobs, FIFO (or by priority) inside a group, and applies the
     * group's concurrency, rate limit, max size and pause.
     *
     * @param group the group: 1-128 characters, no control characters; or null for none
     * @return this builder
     */
    public JobOptions.Builder group(String group) {
        this.group = group;
        explicit |= GROUP;
        return self();
    }

    /**
     * Deduplicates the add by an id (see {@link Deduplication}): while another job owns the
     * id, the add creates no job and returns the owner ({@link Job#isDeduplicated()}).
     *
     * @param deduplication the deduplication, or null for none
     * @return this builder
     */
    public JobOptions.Builder deduplication(Deduplication deduplication) {
        this.deduplication = deduplication;
        explicit |= DEDUPLICATION;
        return self();
    }
}
