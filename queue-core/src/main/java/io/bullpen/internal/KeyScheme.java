package io.bullpen.internal;

import io.bullpen.JobState;

/**
 * Forms every Redis key of one queue. Not API.
 *
 * <p>A queue's keys are named by three parts: the prefix, the queue name and the <em>hash
 * tag</em>, the part between braces that Redis Cluster hashes to choose the slot. Every key of
 * the queue carries the same tag, so each script touches one slot and runs on a cluster. The tag
 * is its own part so that several queues can share a slot (flows across queues) and one queue can
 * spread over several tags (sharding). Every key starts with {@link #base()}:
 * <ul>
 * <li>default tag, the queue name ({@link #KeyScheme(String, String)}):
 *     {@code <prefix>:{<queue>}:}, e.g. {@code bp:{orders}:wait}. Every queue uses it today.</li>
 * <li>any other tag ({@link #of(String, String, String)}): {@code <prefix>:{<tag>}:{<queue>}:},
 *     e.g. {@code bp:{flow-7}:{orders}:wait}. The name keeps the queues sharing a tag apart. It sits
 *     in braces because no key of the default layout has a brace after its base (names, job ids
 *     and scheduler ids have none), so no key here can equal a key of the queue named like the
 *     tag; spelled {@code bp:{flow-7}:job:wait}, a queue "job" would clash with job "wait" of
 *     queue "flow-7". Redis hashes only the first braces: the slot is the tag's.</li>
 * </ul>
 * After the base: the state keys ({@link JobState#key()}: {@code wait prioritized delayed leases
 * completed failed}), then
 * {@code marker meta events id fence schedulers groups groups:ready groups:limited workers workers:seen},
 * {@code scheduler:<id>}, per group {@code group:<g>} and {@code groupmeta:<g>},
 * {@code metrics:<kind>}, and per job {@code job:<id>} (its lock token in field {@code lock}),
 * {@code job:<id>:logs}; the {@code job:} segment keeps job ids from colliding with those. The
 * registry of queue names ({@code <prefix>:queues}) has no tag: it spans queues.
 *
 * <p>Scripts get {@link #jobPrefix()} and {@link #schedulerPrefix()} as arguments and build job
 * and scheduler keys from them; the fetch and scheduler scripts rebuild the base as the job
 * prefix without {@code job:}. Hence every key here is {@code base() + suffix}, whatever the tag.
 */
public final class KeyScheme {
    /** The prefix used when none is configured. */
    public static final String DEFAULT_PREFIX = "bp";

    private final String prefix;
    private final String queue;
    private final String tag;
    private final String base;

    /**
     * The keys of a queue under its default hash tag, its name: {@code <prefix>:{<queue>}:...}.
     *
     * @param prefix the key prefix, validated by {@link Validation#prefix(String)}
     * @param queue the queue name, validated by {@link Validation#queueName(String)}
     */
    public KeyScheme(String prefix, String queue) {
        this(prefix, queue, queue);
    }

    private KeyScheme(String prefix, String queue, String tag) {
        this.prefix = Validation.prefix(prefix);
        this.queue = Validation.queueName(queue);
        this.tag = Validation.hashTag(tag);
        this.base = hasDefaultTag() ? prefix + ":{" + queue + "}:" : prefix + ":{" + tag + "}:{" + queue + "}:";
    }

    /**
     * The keys of a queue under the given hash tag (see the class comment for the layout). A tag
     * equal to the queue name is the default tag: the same keys as {@link #KeyScheme(String, String)}.
     *
     * @param prefix the key prefix, validated by {@link Validation#prefix(String)}
     * @param queue the queue name, validated by {@link Validation#queueName(String)}
     * @param tag the hash tag without braces, validated by {@link Validation#hashTag(String)}
     * @return the key scheme
     */
    public static KeyScheme of(String prefix, String queue, String tag) {
        return new KeyScheme(prefix, queue, tag);
    }

    /** @return the key prefix */
    public String prefix() {
        return prefix;
    }

    /** @return the queue name */
    public String queue() {
        return queue;
    }

    /** @return the hash tag, without braces: the queue name unless {@link #of(String, String, String)} chose another */
    public String tag() {
        return tag;
    }

    /** @return whether the tag is the queue name, the layout {@code <prefix>:{<queue>}:} */
    public boolean hasDefaultTag() {
        return tag.equals(queue);
    }

    /** @return the start of every key of the queue: {@code <prefix>:{<queue>}:} or {@code <prefix>:{<tag>}:{<queue>}:} */
    public String base() {
        return base;
    }

    /** @return the LIST of ready job ids */
    public String waitList() {
        return stateKey(JobState.WAITING);
    }

    /** @return the ZSET of prioritized job ids */
    public String prioritized() {
        return stateKey(JobState.PRIORITIZED);
    }

    /** @return the ZSET of delayed job ids */
    public String delayed() {
        return stateKey(JobState.DELAYED);
    }

    /** @return the ZSET of completed job ids */
    public String completed() {
        return stateKey(JobState.COMPLETED);
    }

    /** @return the ZSET of failed job ids */
    public String failed() {
        return stateKey(JobState.FAILED);
    }

    /** @return the ZSET of parent jobs waiting for their children, to when they started waiting */
    public String waitingChildren() {
        return stateKey(JobState.WAITING_CHILDREN);
    }

    /**
     * @return the LIST of child ends to be applied to parents in other slots (flows): written by a
     *     child's finish in the child's slot, drained by a relay
     */
    public String flowOutbox() {
        return base + "flow:outbox";
    }

    /** @return {@code <base>flow:}, the start of a staged flow's key (flow:<flowId>) and the flows index */
    public String flowPrefix() {
        return base + "flow:";
    }

    /** @return the ZSET of committed flows whose jobs are still being created, to their commit time */
    public String flowsPending() {
        return base + "flows:pending";
    }

    /** @return the SET of a parent job's pending children: their indexes in {@link #children} */
    public String pendingChildren(String jobId) {
        return job(jobId) + ":deps";
    }

    /** @return the LIST of every child of a parent job ({@code <queue>:<id>}), in the order they were added */
    public String children(String jobId) {
        return job(jobId) + ":kids";
    }

    /** @return the LIST beside {@link #children}: each child's edge policy while pending, its outcome once ended */
    public String childResults(String jobId) {
        return job(jobId) + ":res";
    }

    /** @return the ZSET of active job id to lock expiry (Redis clock, ms): the set of active jobs (there is no active list) */
    public String leases() {
        return stateKey(JobState.ACTIVE);
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
        return schedulerPrefix() + id;
    }

    /** @return {@code <base>scheduler:}, to which a scheduler id is appended */
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

    /** @return the ZSET registry of the queue's groups (score 0, paged by name) */
    public String groups() {
        return base + "groups";
    }

    /** @return the ZSET of groups that may run now, to their virtual start tag (fair queueing); member "" = the ungrouped jobs */
    public String groupsReady() {
        return base + "groups:ready";
    }

    /** @return the ZSET of groups held back by their rate limit, to the time their next job may start */
    public String groupsLimited() {
        return base + "groups:limited";
    }

    /** @return the HASH of the queue's live workers: worker name to its heartbeat (JSON) */
    public String workers() {
        return base + "workers";
    }

    /** @return the ZSET of worker names to the expiry of their last heartbeat (Redis clock, ms) */
    public String workersSeen() {
        return base + "workers:seen";
    }

    /** @return the ZSET of one group's ready jobs (built in Lua from the base, like job keys) */
    public String group(String group) {
        return base + "group:" + group;
    }

    /** @return the HASH of one group's settings and state (built in Lua from the base) */
    public String groupMeta(String group) {
        return base + "groupmeta:" + group;
    }

    /**
     * @return the STRING naming the job that owns a deduplication id (built in Lua from the base,
     *     like group keys)
     */
    public String dedup(String id) {
        return base + "dedup:" + id;
    }

    /** @return the STRING holding the add kept for after the owner of a deduplication id (keepLastIfActive) */
    public String dedupNext(String id) {
        return dedup(id) + ":next";
    }

    /** @return {@code <base>job:}, to which a job id is appended */
    public String jobPrefix() {
        return base + "job:";
    }

    /** @return the HASH of one job */
    public String job(String id) {
        return jobPrefix() + id;
    }

    /** @return the STRING (JSON) of an awaited job's kept result, written by its finish with a TTL (built in Lua) */
    public String result(String id) {
        return base + "result:" + id;
    }

    /** @return the log LIST of one job */
    public String logs(String id) {
        return job(id) + ":logs";
    }

    /** @return the ZSET of expiry deadlines: job id -> ms on Redis's clock (built in Lua from the base) */
    public String expiry() {
        return base + "expiry";
    }

    /**
     * @return the global SET of queue names under this prefix (no hash tag: it spans queues). It
     *     holds names only: a queue under another tag cannot be found from it yet.
     */
    public String registry() {
        return prefix + ":queues";
    }

    /**
     * The queue key a script header names (its KEYS entries): the scripts' KEYS lists are built
     * from these names, so a header name with no key here fails the first call (and the tests).
     * Keys chosen per call (a job's hash, a state picked by the caller) are bound by the caller.
     *
     * @param name a header key name: {@code wait prioritized delayed leases completed failed marker
     *     meta events id fence schedulers metricsCompleted metricsFailed groups groupsReady groupsLimited
     *     workers workersSeen}
     * @return the key
     * @throws IllegalArgumentException naming {@code name} when no queue key has that name
     */
    public String key(String name) {
        return switch (name) {
            case "wait" -> waitList();
            case "prioritized" -> prioritized();
            case "delayed" -> delayed();
            case "leases" -> leases();
            case "completed" -> completed();
            case "failed" -> failed();
            case "waitingChildren" -> waitingChildren();
            case "flowOutbox" -> flowOutbox();
            case "flowsPending" -> flowsPending();
            case "marker" -> marker();
            case "meta" -> meta();
            case "events" -> events();
            case "id" -> id();
            case "fence" -> fence();
            case "schedulers" -> schedulers();
            case "groups" -> groups();
            case "groupsReady" -> groupsReady();
            case "groupsLimited" -> groupsLimited();
            case "workers" -> workers();
            case "workersSeen" -> workersSeen();
            case "metricsCompleted" -> metrics("completed");
            case "metricsFailed" -> metrics("failed");
            default -> throw new IllegalArgumentException("no queue key named '" + name + "'");
        };
    }

    /**
     * @param state any state but {@link JobState#UNKNOWN}
     * @return the key holding the ids of jobs in that state
     */
    public String stateKey(JobState state) {
        if (state == JobState.UNKNOWN) {
            throw new IllegalArgumentException("state UNKNOWN has no key");
        }
        return base + state.key();
    }
}
