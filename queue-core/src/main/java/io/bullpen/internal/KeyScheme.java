package io.bullpen.internal;

import io.bullpen.JobState;

/**
 * Forms every Redis key of one queue. Every key carries the queue's hash tag {@code {queue}}, so a
 * queue's scripts touch one slot and run on Redis Cluster; the {@code job:} segment keeps job ids
 * from colliding with state keys. Not API.
 */
public final class KeyScheme {
    /** The prefix used when none is configured. */
    public static final String DEFAULT_PREFIX = "bp";

    private final String prefix;
    private final String queue;
    private final String base;

    /**
     * @param prefix the key prefix, validated by {@link Validation#prefix(String)}
     * @param queue the queue name, validated by {@link Validation#queueName(String)}
     */
    public KeyScheme(String prefix, String queue) {
        this.prefix = Validation.prefix(prefix);
        this.queue = Validation.queueName(queue);
        this.base = prefix + ":{" + queue + "}:";
    }

    /** @return the key prefix */
    public String prefix() {
        return prefix;
    }

    /** @return the queue name */
    public String queue() {
        return queue;
    }

    /** @return {@code <prefix>:{<queue>}:}, the start of every key of the queue */
    public String base() {
        return base;
    }

    /** @return the LIST of ready job ids */
    public String waitList() {
        return base + "wait";
    }

    /** @return the ZSET of prioritized job ids */
    public String prioritized() {
        return base + "prioritized";
    }

    /** @return the ZSET of delayed job ids */
    public String delayed() {
        return base + "delayed";
    }

    /** @return the ZSET of completed job ids */
    public String completed() {
        return base + "completed";
    }

    /** @return the ZSET of failed job ids */
    public String failed() {
        return base + "failed";
    }

    /** @return the ZSET of active job id to lock expiry: the set of active jobs (there is no active list) */
    public String leases() {
        return base + "leases";
    }

    /** @return the ZSET workers block on to be woken */
    public String marker() {
        return base + "marker";
    }

    /** @return the queue's HASH of settings (paused, sequence, ...) */
    public String meta() {
        return base + "meta";
    }

    /** @return the STREAM of lifecycle events */
    public String events() {
        return base + "events";
    }

    /** @return the STRING counter of automatic job ids */
    public String id() {
        return base + "id";
    }

    /** @return the STRING counter of fencing tokens */
    public String fence() {
        return base + "fence";
    }

    /** @return the ZSET of job scheduler ids to their next run */
    public String schedulers() {
        return base + "schedulers";
    }

    /** @return the HASH defining one job scheduler */
    public String scheduler(String id) {
        return base + "scheduler:" + id;
    }

    /** @return {@code <prefix>:{<queue>}:scheduler:}, to which a scheduler id is appended */
    public String schedulerPrefix() {
        return base + "scheduler:";
    }

    /**
     * @param kind "completed" or "failed"
     * @return the LIST of per-minute counts of that kind (newest first, at most 24 hours)
     */
    public String metrics(String kind) {
        return base + "metrics:" + kind;
    }

    /** @return {@code <prefix>:{<queue>}:job:}, to which a job id is appended */
    public String jobPrefix() {
        return base + "job:";
    }

    /** @return the HASH of one job */
    public String job(String id) {
        return jobPrefix() + id;
    }

    /** @return the lock STRING of one job */
    public String lock(String id) {
        return job(id) + ":lock";
    }

    /** @return the log LIST of one job */
    public String logs(String id) {
        return job(id) + ":logs";
    }

    /** @return the global SET of queue names under this prefix (no hash tag: it spans queues) */
    public String registry() {
        return prefix + ":queues";
    }

    /**
     * @param state any state but {@link JobState#UNKNOWN}
     * @return the key holding the ids of jobs in that state
     */
    public String stateKey(JobState state) {
        return switch (state) {
            case WAITING -> waitList();
            case PRIORITIZED -> prioritized();
            case DELAYED -> delayed();
            case ACTIVE -> leases();
            case COMPLETED -> completed();
            case FAILED -> failed();
            case UNKNOWN -> throw new IllegalArgumentException("state UNKNOWN has no key");
        };
    }
}
