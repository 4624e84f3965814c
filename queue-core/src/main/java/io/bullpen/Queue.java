package io.bullpen;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JavaType;
import io.bullpen.instrument.Instrumentation;
import io.bullpen.internal.AwaitScripts;
import io.bullpen.internal.CallerRuns;
import io.bullpen.internal.Completions;
import io.bullpen.internal.JsonCodec;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.MetaFields;
import io.bullpen.internal.QueueAdmin;
import io.bullpen.internal.QueueSettings;
import io.bullpen.internal.RedisCalls;
import io.bullpen.internal.SchedulerScripts;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.internal.Scripts;
import io.bullpen.internal.Validation;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.redisson.api.RedissonClient;

/**
 * A named queue of jobs in Redis: the producer and admin API. Add jobs (immediate, delayed,
 * prioritized, LIFO, with attempts and backoff), read them and their counts, and act on them
 * (promote, retry, remove, pause). Workers in any process take the jobs; each job is processed
 * at least once: a crash at any point loses no job, but a job whose worker dies mid-run is run
 * again.
 *
 * <p>Thread-safe; create one per queue name and share it. It does not own the
 * {@link RedissonClient}: closing the client is the caller's business. While Redis cannot be
 * reached every call throws {@link QueueUnavailableException}, naming the queue and the call.
 *
 * <pre>{@code
 * Queue<Order> orders = Queue.builder(redisson, "orders", Order.class).build();
 * Job<Order> job = orders.add("cancel-unpaid", order, JobOptions.builder()
 *         .delay(Duration.ofMinutes(30)).attempts(5)
 *         .backoff(Backoff.exponential(Duration.ofSeconds(1))).build());
 * }</pre>
 *
 * @param <T> the type of the jobs' data (serialized as JSON with Jackson)
 */
public final class Queue<T> {
    private final RedissonClient redisson;
    private final KeyScheme keys;
    private final Scripts scripts;
    private final JavaType dataType;
    private final Clock clock;
    private final QueueRegistration registration;
    // The roles Queue delegates to; each is package-private and owns one part of the API.
    private final JobAdder<T> adder;
    // Queue-wide operations run as a series of script calls of at most 1,000 jobs each, so a huge
    // queue never blocks Redis for long: each call is atomic, the whole operation is not.
    private final QueueAdmin admin;
    private final QueueSchedulers<T> schedulers;
    private final QueueLimits limits;
    private final QueueGroups groups;
    private final QueueWorkers workers;
    private final QueueCancels cancels;
    private final QueueDeduplication deduplication;
    private final QueueJobChanges<T> jobChanges;
    private final QueueAwaits<T> awaits;
    private final QueueSearch<T> search;

    private Queue(Builder<T> b) {
        this.redisson = b.redisson;
        this.keys = new KeyScheme(b.prefix, b.name);
        this.scripts = new Scripts(redisson, keys, b.addReplicas, b.addReplicaTimeout);
        this.dataType = b.dataType;
        this.clock = b.clock;
        this.registration = new QueueRegistration(redisson, keys, scripts, b.eventsMaxLength);
        this.adder = new JobAdder<>(redisson, keys, scripts, dataType, clock, b.maxPayloadBytes, b.instrumentations,
                registration::register, b.defaultJobOptions);
        this.admin = new QueueAdmin(redisson, keys, scripts);
        this.schedulers = new QueueSchedulers<>(keys.queue(), new SchedulerScripts(redisson, keys), adder, clock,
                registration::register);
        this.limits = new QueueLimits(redisson, keys, scripts);
        this.groups = new QueueGroups(redisson, keys, scripts);
        this.workers = new QueueWorkers(redisson, keys);
        this.cancels = new QueueCancels(redisson, keys, clock);
        this.deduplication = new QueueDeduplication(redisson, keys);
        this.jobChanges = new QueueJobChanges<>(redisson, keys, adder, clock);
        this.awaits = new QueueAwaits<>(redisson, new AwaitScripts(redisson, keys), adder);
        this.search = new QueueSearch<>(redisson, keys, dataType);
    }

    /**
     * Starts building a queue whose job data is of a plain class.
     *
     * @param redisson the Redis client (any codec: Bullpen always uses its own)
     * @param name the queue name: 1-256 characters, no braces, colons or whitespace
     * @param dataType the class of the jobs' data: {@code build()} checks that Jackson can read it
     *     back (a concrete class, a record, or an abstract type with {@code @JsonTypeInfo}); {@code
     *     Void} or {@code Object} for jobs without data
     * @param <T> the type of the jobs' data
     * @return a builder
     * @throws IllegalArgumentException for an illegal queue name
     */
    public static <T> Builder<T> builder(RedissonClient redisson, String name, Class<T> dataType) {
        return new Builder<>(redisson, name, JsonCodec.type(Objects.requireNonNull(dataType, "dataType")));
    }

    /**
     * Starts building a queue whose job data is of a generic type, e.g.
     * {@code new TypeReference<List<Order>>() {}}.
     *
     * @param redisson the Redis client
     * @param name the queue name
     * @param dataType the generic type of the jobs' data
     * @param <T> the type of the jobs' data
     * @return a builder
     */
    public static <T> Builder<T> builder(RedissonClient redisson, String name, TypeReference<T> dataType) {
        return new Builder<>(redisson, name, JsonCodec.type(Objects.requireNonNull(dataType, "dataType")));
    }

    /** @return the queue's name */
    public String name() {
        return keys.queue();
    }

    /**
     * @return the options filled in for every add where the add's own options do not set them
     *     (see {@link Builder#defaultJobOptions(JobOptions)}); {@link JobOptions#defaults()} when none
     */
    public JobOptions defaultJobOptions() {
        return adder.defaults().options();
    }

    /**
     * The settings and job schedulers of this queue as a configuration declares them, marked with
     * its owner, so that configuration can remove them once it no longer declares them (see
     * {@link DeclaredSettings}). Writes nothing by itself.
     *
     * @param owner the configuration's owner, e.g. the application's name
     * @return the declared settings of this queue for that owner
     * @throws IllegalArgumentException for a blank owner, one over 200 characters or with control characters
     */
    public DeclaredSettings<T> declaredBy(String owner) {
        return new DeclaredSettings<>(keys.queue(), registration, limits, schedulers, owner);
    }

    /** @return the prefix of the queue's Redis keys */
    public String prefix() {
        return keys.prefix();
    }

    /**
     * Adds a job with default options: it runs as soon as a worker is free, once.
     *
     * @param name the job name (free text, e.g. the kind of work)
     * @param data the job's data; serialized to JSON now. Null only on a queue of {@code Void} or
     *     {@code Object} (a worker of another type would get null)
     * @return the added job
     * @throws IllegalArgumentException naming the queue and the job when the data is null on a queue
     *     of another type, is not of the queue's data type (an unchecked call), cannot be serialized
     *     (a cycle, a class with no property Jackson can see) or read back as the queue's type (checked
     *     once per class), or is over the payload cap; nothing is written
     * @throws QueueUnavailableException when Redis cannot be reached
     */
    public Job<T> add(String name, T data) {
        return add(name, data, JobOptions.defaults());
    }

    /**
     * Adds a job. With a custom {@link JobOptions#jobId()} that already exists, nothing is added and
     * the existing job is returned.
     *
     * @param name the job name
     * @param data the job's data
     * @param options delay, priority, attempts, backoff, custom id, retention...
     * @return the added (or existing) job
     */
    public Job<T> add(String name, T data, JobOptions options) {
        // The work after Redis's reply runs on this thread, which waits anyway.
        return CallerRuns.join(here -> adder.addAll("add", List.of(JobSpec.of(name, data, options)), here)).get(0);
    }

    /**
     * Adds a job without blocking the caller. Validation and serialization happen before this
     * returns (bad input throws here, and nothing is written).
     *
     * @param name the job name
     * @param data the job's data
     * @param options the job's options
     * @return the added (or existing) job, when Redis has answered. The future completes on one of
     *     Bullpen's completion threads, never on a Redisson I/O thread: stages you chain to it run
     *     there (keep slow ones on an executor of your own)
     */
    public CompletableFuture<Job<T>> addAsync(String name, T data, JobOptions options) {
        return adder.addAll("add", List.of(JobSpec.of(name, data, options)), Completions.executor())
                .thenApply(jobs -> jobs.get(0)).toCompletableFuture();
    }

    /**
     * Adds many jobs in one atomic script call: either all are added or none (duplicate custom
     * ids are skipped and the existing jobs returned in their place). Very large lists block Redis
     * while they are written; add them in chunks of a few thousand.
     *
     * @param specs the jobs, in order
     * @return the jobs, in the same order
     */
    public List<Job<T>> addBulk(List<JobSpec<T>> specs) {
        return CallerRuns.join(here -> adder.addAll("addBulk", specs, here));
    }

    /**
     * @param id a job id
     * @return the job as stored now, or empty when there is no such job
     */
    public Optional<Job<T>> getJob(String id) {
        return RedisCalls.call(name(), "getJob", () -> CallerRuns.join(here -> adder.readJob(id, here)));
    }

    /** @return the number of jobs in each state and whether the queue is paused, read atomically */
    public JobCounts getJobCounts() {
        return join("getJobCounts", scripts.getCounts());
    }

    /**
     * A page of the jobs in one state. Order: waiting newest first; active latest lock expiry
     * (most recently taken or extended) first; delayed next due first; prioritized next to run
     * first; completed and failed most recently finished first.
     *
     * @param state the state (not UNKNOWN)
     * @param start first index, from 0
     * @param end last index, inclusive (-1 = to the end)
     * @return the jobs
     */
    public List<Job<T>> getJobs(JobState state, long start, long end) {
        Objects.requireNonNull(state, "state");
        if (state == JobState.UNKNOWN) {
            throw new IllegalArgumentException("cannot list jobs in state UNKNOWN");
        }
        List<RawJob> raw = join("getJobs", scripts.getJobs(state, start, end));
        List<Job<T>> jobs = new ArrayList<>(raw.size());
        for (RawJob r : raw) {
            jobs.add(Job.fromHash(r.id(), r.hash(), dataType));
        }
        return jobs;
    }

    /**
     * Finds jobs of one state by name, data, failed reason or time: one page of matches and a
     * cursor to continue. It scans: there is no index, so it reads the state's jobs (their name and
     * data) in the state's order until it has {@link JobSearch#limit(int)} matches or has read
     * {@link JobSearch#scanLimit(int)} jobs, in small pipelined commands, none of which holds Redis
     * for long. Jobs that move while it runs may be missed or returned twice (see {@link JobSearch}).
     * To look a job up directly, give it a custom id ({@link JobOptions.Builder#jobId(String)}).
     *
     * <pre>{@code
     * SearchPage<Order> page = orders.search(JobSearch.state(JobState.FAILED).data("/order/id", "o-17"));
     * while (page.cursor().isPresent()) {
     *     page = orders.search(JobSearch.state(JobState.FAILED).data("/order/id", "o-17").cursor(page.cursor().get()));
     * }
     * }</pre>
     *
     * @param search the state, filters and limits
     * @return the page: matching jobs read in full, and the cursor if the state goes on
     * @throws QueueUnavailableException when Redis cannot be reached
     */
    public SearchPage<T> search(JobSearch search) {
        return this.search.search(Objects.requireNonNull(search, "search"));
    }

    /**
     * @param id a job id
     * @return the job's state, {@link JobState#UNKNOWN} when there is no such job
     */
    public JobState getState(String id) {
        return join("getState", scripts.getState(Objects.requireNonNull(id, "id")));
    }

    /** Pauses the queue: jobs are still added, but workers take none until {@link #resume()}. */
    public void pause() {
        register("pause");
        join("pause", scripts.pause(true));
    }

    /** Resumes a paused queue and wakes its workers. */
    public void resume() {
        join("resume", scripts.pause(false));
    }

    /**
     * @return the approximate number of events the queue's stream keeps, as stored in Redis for
     *     every client of the queue (see {@link Builder#eventsMaxLength(long)}); 10,000 when none
     *     was set
     */
    public long getEventsMaxLength() {
        return RedisCalls.call(name(), "getEventsMaxLength", () -> QueueSettings.eventsMaxLength(redisson, keys));
    }

    /** @return whether the queue is paused */
    public boolean isPaused() {
        return join("isPaused", redisson.getMap(RedisCalls.map(keys.meta())).containsKeyAsync(MetaFields.PAUSED));
    }

    /**
     * The queues registered under the default prefix "bp": every queue that has had a job added
     * (or was paused) and was not obliterated since.
     *
     * @param redisson the Redis client
     * @return the queue names, sorted
     */
    public static Set<String> listQueues(RedissonClient redisson) {
        return listQueues(redisson, KeyScheme.DEFAULT_PREFIX);
    }

    /**
     * The queues registered under a key prefix.
     *
     * @param redisson the Redis client
     * @param prefix the key prefix the queues were built with
     * @return the queue names, sorted
     * @throws IllegalArgumentException for an illegal prefix
     */
    public static Set<String> listQueues(RedissonClient redisson, String prefix) {
        return RedisCalls.call(null, "listQueues", () -> QueueAdmin.listQueues(redisson, prefix));
    }

    // --- flow control: settings stored in Redis, shared by every client (docs/flow-control.md) ---

    /**
     * Limits how many jobs of this queue start, across all workers: at most {@code limit.max()}
     * in any window of {@code limit.per()} (plus its burst). Stored in Redis and applied at once
     * by every worker; replaces the previous limit and wakes waiting workers. A limit a
     * configuration declared ({@link Queue#declaredBy(String)}) loses its owner's mark: the
     * configuration no longer removes it.
     *
     * @param limit the limit
     */
    public void setRateLimit(RateLimit limit) {
        register("setRateLimit");
        limits.setRateLimit(Objects.requireNonNull(limit, "limit"), null);
    }

    /** @return the queue's rate limit, empty when none is set */
    public Optional<RateLimit> getRateLimit() {
        return limits.getRateLimit();
    }

    /** Removes the queue's rate limit and wakes waiting workers. */
    public void removeRateLimit() {
        limits.removeRateLimit(null);
    }

    /**
     * Caps how many jobs of this queue are active at once across all workers, counted from the
     * live leases (a crashed worker's jobs stop counting when their locks expire). As with
     * {@link #setRateLimit(RateLimit)}, a declaring configuration's mark is cleared.
     *
     * @param concurrency the cap, at least 1
     * @throws IllegalArgumentException for a cap under 1
     */
    public void setGlobalConcurrency(long concurrency) {
        register("setGlobalConcurrency");
        limits.setGlobalConcurrency(concurrency, null);
    }

    /** @return the queue's global concurrency, empty when none is set */
    public OptionalLong getGlobalConcurrency() {
        return limits.getGlobalConcurrency();
    }

    /** Removes the queue's global concurrency cap and wakes waiting workers. */
    public void removeGlobalConcurrency() {
        limits.removeGlobalConcurrency(null);
    }

    /**
     * Caps how many jobs of a group are active at once (see {@link JobOptions.Builder#group(String)}).
     *
     * @param group the group
     * @param concurrency the cap, at least 1
     */
    public void setGroupConcurrency(String group, long concurrency) {
        register("setGroupConcurrency");
        groups.setGroupConcurrency(group, concurrency);
    }

    /**
     * Removes a group's own concurrency cap (the default for groups applies again).
     *
     * @param group the group
     */
    public void removeGroupConcurrency(String group) {
        groups.removeGroupConcurrency(group);
    }

    /**
     * Limits how many jobs of a group start per window, across all workers.
     *
     * @param group the group
     * @param limit the limit
     */
    public void setGroupRateLimit(String group, RateLimit limit) {
        register("setGroupRateLimit");
        groups.setGroupRateLimit(group, Objects.requireNonNull(limit, "limit"));
    }

    /**
     * Removes a group's own rate limit (the default for groups applies again).
     *
     * @param group the group
     */
    public void removeGroupRateLimit(String group) {
        groups.removeGroupRateLimit(group);
    }

    /**
     * Caps how many jobs of a group may wait: an add beyond it throws {@link GroupFullException}.
     *
     * @param group the group
     * @param maxSize the most waiting jobs, at least 1
     */
    public void setGroupMaxSize(String group, long maxSize) {
        register("setGroupMaxSize");
        groups.setGroupMaxSize(group, maxSize);
    }

    /**
     * Removes a group's max size.
     *
     * @param group the group
     */
    public void removeGroupMaxSize(String group) {
        groups.removeGroupMaxSize(group);
    }

    /**
     * Sets a group's share of the round robin: a group of weight 3 gets 3 jobs for every job of a
     * group of weight 1 while both have jobs ready.
     *
     * @param group the group
     * @param weight the weight, 1 to 1000 (default 1)
     */
    public void setGroupWeight(String group, int weight) {
        register("setGroupWeight");
        groups.setGroupWeight(group, weight);
    }

    /**
     * Pauses a group: its jobs are still added, but none starts until {@link #resumeGroup(String)}.
     *
     * @param group the group
     */
    public void pauseGroup(String group) {
        register("pauseGroup");
        groups.pauseGroup(group);
    }

    /**
     * Resumes a paused group and wakes waiting workers.
     *
     * @param group the group
     */
    public void resumeGroup(String group) {
        groups.resumeGroup(group);
    }

    /**
     * Caps the active jobs of every group that has no cap of its own.
     *
     * @param concurrency the cap, at least 1
     */
    public void setDefaultGroupConcurrency(long concurrency) {
        register("setDefaultGroupConcurrency");
        groups.setDefaultGroupConcurrency(concurrency);
    }

    /** Removes the default concurrency cap for groups. */
    public void removeDefaultGroupConcurrency() {
        groups.removeDefaultGroupConcurrency();
    }

    /**
     * Rate-limits every group that has no rate limit of its own, each group on its own.
     *
     * @param limit the limit per group
     */
    public void setDefaultGroupRateLimit(RateLimit limit) {
        register("setDefaultGroupRateLimit");
        groups.setDefaultGroupRateLimit(Objects.requireNonNull(limit, "limit"));
    }

    /** Removes the default rate limit for groups. */
    public void removeDefaultGroupRateLimit() {
        groups.removeDefaultGroupRateLimit();
    }

    /**
     * Pages through the queue's groups in name order.
     *
     * @param after the last group of the previous page, or null for the first page
     * @param limit the most groups returned, 1 to 1000
     * @return the groups after {@code after}, with their counts and settings
     */
    public List<GroupInfo> getGroups(String after, int limit) {
        return groups.getGroups(after, limit);
    }

    /**
     * @param group the group
     * @return the group's counts and settings, empty when the queue has no such group
     */
    public Optional<GroupInfo> getGroup(String group) {
        return groups.getGroup(group);
    }

    /**
     * @return the concurrency cap of every group that has none of its own (see
     *     {@link #setDefaultGroupConcurrency(long)}), empty when none is set
     */
    public OptionalLong getDefaultGroupConcurrency() {
        return join("getDefaultGroupConcurrency", groups.defaultConcurrency());
    }

    /**
     * @return the rate limit of every group that has none of its own (see
     *     {@link #setDefaultGroupRateLimit(RateLimit)}), empty when none is set
     */
    public Optional<RateLimit> getDefaultGroupRateLimit() {
        return join("getDefaultGroupRateLimit", groups.defaultRateLimit());
    }

    // --- acting on one job ---

    /**
     * Runs a delayed job now.
     *
     * @param id the job id
     * @throws JobNotFoundException when there is no such job
     * @throws JobStateException when the job is not delayed
     */
    public void promote(String id) {
        join("promote", scripts.promote(Objects.requireNonNull(id, "id")));
    }

    /**
     * Runs a failed job again, with a fresh set of attempts.
     *
     * @param id the job id
     * @throws JobNotFoundException when there is no such job
     * @throws JobStateException when the job is not failed
     */
    public void retry(String id) {
        join("retry", scripts.retryJob(Objects.requireNonNull(id, "id"), JobState.FAILED));
    }

    /**
     * Removes a job with its logs, in any state but active. An active job is refused with a
     * {@link JobLockedException}: a worker runs it and holds its lock, and removing it under the
     * worker would lose what the worker records. To stop a running job,
     * {@link #cancel(String, String) cancel} it instead: its processor is interrupted and the job
     * fails as cancelled, without retry; remove it then, if it should not stay in failed. A flow
     * child removed before it ended counts as failed for its parents (reason {@code removed}); a
     * flow parent's pending children that no other live parent waits for are cancelled,
     * recursively, as by {@link #cancel(String, String)}.
     *
     * @param id the job id
     * @return true when removed, false when there was no such job
     * @throws JobLockedException when the job is active and a worker holds its lock (cancel it instead)
     */
    public boolean remove(String id) {
        Objects.requireNonNull(id, "id");
        return cancels.remove(id, () -> join("remove", scripts.removeJob(id)));
    }

    // --- flows ---

    /**
     * A page of a parent job's children, in child order ({@code <queue>:<id>}): each with its
     * outcome once it ended (copied to the parent, so it stays after the child is removed), or its
     * state now while the parent still waits for it.
     *
     * @param parentId the parent job of this queue
     * @param after the last child of the previous page as {@code <queue>:<id>}, or null for the first page
     * @param limit the most children returned, 1 to 1000
     * @return the children after {@code after}
     * @throws IllegalArgumentException for a limit out of range
     */
    public List<io.bullpen.flow.ChildResult> getChildren(String parentId, String after, int limit) {
        Objects.requireNonNull(parentId, "parentId");
        return io.bullpen.internal.RedisCalls.call(name(), "getChildren", () -> flowReads().children(name(), parentId, after, limit));
    }

    /**
     * The flow under a job of any queue: the job with its children, {@code depth} levels deep.
     *
     * @param queue the job's queue
     * @param id the job id
     * @param depth how many levels of children to read (0 = the job alone)
     * @param maxChildren the most children read per job (1 to 1000)
     * @return the tree
     */
    public io.bullpen.flow.JobNode getFlow(String queue, String id, int depth, int maxChildren) {
        Validation.queueName(queue);
        Objects.requireNonNull(id, "id");
        Validation.atLeast("depth", depth, 0);
        Validation.between("maxChildren", maxChildren, 1, 1000);
        return io.bullpen.internal.RedisCalls.call(name(), "getFlow", () -> flowReads().flow(queue, id, depth, maxChildren));
    }

    private io.bullpen.internal.FlowReads flowReads() {
        io.bullpen.internal.FlowReads reads = flowReads;
        if (reads == null) {
            reads = new io.bullpen.internal.FlowReads(redisson, keys.prefix());
            flowReads = reads;
        }
        return reads;
    }

    private volatile io.bullpen.internal.FlowReads flowReads;

    // --- job schedulers ---

    /**
     * Creates or updates a repeating job: a scheduler that keeps exactly one pending iteration
     * (a job with the id {@code repeat-<id>-<due millis>}) and creates the next one when a worker
     * takes it. Calling it again with the same definition changes nothing, however many
     * producers do so at once; a new definition replaces the pending iteration. A scheduler a
     * configuration declared ({@link Queue#declaredBy(String)}) loses its owner's mark: the
     * configuration no longer removes it.
     *
     * @param id the scheduler id (same rules as job ids)
     * @param repeat when jobs run
     * @param template the jobs' name, data and options
     * @return whether anything changed
     * @throws IllegalArgumentException for an illegal id, data that cannot be serialized, a template
     *     without data (null) on a queue whose data type is not {@code Void} or {@code Object} (the
     *     message names the scheduler), an {@code endAt} before {@code startAt}, or a schedule with
     *     no run at all (a cron date that never comes, such as February 30, or an {@code endAt}
     *     before the first run); nothing is written
     */
    public boolean upsertJobScheduler(String id, Repeat repeat, JobTemplate<T> template) {
        return schedulers.upsert(id, repeat, template, null);
    }

    /**
     * @return every job scheduler of this queue, next to run first (ended ones last)
     */
    public List<JobScheduler> getJobSchedulers() {
        return schedulers.list();
    }

    /**
     * Deletes a job scheduler and its pending iteration (an iteration a worker is running
     * finishes normally).
     *
     * @param id the scheduler id
     * @return true when there was such a scheduler
     */
    public boolean removeJobScheduler(String id) {
        return schedulers.remove(id, null);
    }

    // --- queue-wide operations, in chunks of at most 1,000 jobs (QueueAdmin) ---

    /**
     * Removes jobs of one state that are older than a grace period, with their hashes and logs.
     * Age is measured from when the job finished (COMPLETED, FAILED) or was added (DELAYED,
     * WAITING, PRIORITIZED), against this queue's clock. Works in chunks of at most 1,000 jobs
     * (jobs that move meanwhile may be skipped); when anything was removed, one {@code cleaned}
     * event (fields {@code count} and {@code state}) follows. WAITING covers the jobs without a
     * group; a group's waiting jobs are removed with {@link #drain(boolean)}, {@link #remove(String)}
     * or {@link #obliterate(boolean)}.
     *
     * @param grace jobs younger than this are kept ({@link Duration#ZERO}: all of them are old)
     * @param limit the most jobs removed; 0 = no limit
     * @param state COMPLETED, FAILED, DELAYED, WAITING or PRIORITIZED
     * @return how many jobs were removed
     * @throws IllegalArgumentException for ACTIVE or UNKNOWN, a negative grace or a negative limit
     */
    public long clean(Duration grace, int limit, JobState state) {
        return RedisCalls.call(name(), "clean", () -> admin.clean(clock.millis(), grace, limit, state));
    }

    /**
     * Removes every job waiting to run (waiting and prioritized; delayed too when asked), with
     * their hashes and logs. Active, completed and failed jobs stay. When anything was removed,
     * one {@code cleaned} event (fields {@code count}, {@code state} = {@code waiting} and
     * {@code delayed} = {@code 1} or {@code 0}) follows; no {@code removed} event per job. (A
     * {@code drained} event means something else: a worker found the queue empty.)
     *
     * @param includeDelayed whether delayed jobs (and retries backing off) go too
     */
    public void drain(boolean includeDelayed) {
        RedisCalls.call(name(), "drain", () -> admin.drain(includeDelayed));
    }

    /**
     * Deletes the queue: every job (hash, lock, logs), every job scheduler, the state keys, meta,
     * events, metrics and the id and fencing counters, and removes the name from
     * {@link Queue#listQueues(RedissonClient, String)}. Pauses the queue first, so workers take nothing
     * meanwhile, then deletes in chunks of at most 1,000 jobs. Stop producers first: a job added
     * while this runs may be deleted too. Using this {@code Queue} afterwards starts an empty
     * queue of the same name.
     *
     * @param force also delete active jobs (their workers then fail to report them: job not
     *     found); without it the queue must have no active jobs
     * @throws QueueBusyException when jobs are active and {@code force} is false; the queue is
     *     then left as it was (resumed, if this call paused it)
     */
    public void obliterate(boolean force) {
        RedisCalls.call(name(), "obliterate", () -> admin.obliterate(force));
        registration.forget();
    }

    /**
     * Runs every failed (or completed) job again with a fresh set of attempts, as
     * {@link #retry(String)} does, oldest finished first, in chunks of at most 1,000 jobs. Jobs
     * that finish again while this runs are not retried twice.
     *
     * @param state FAILED or COMPLETED
     * @return how many jobs were retried
     * @throws IllegalArgumentException for any other state
     */
    public long retryJobs(JobState state) {
        return RedisCalls.call(name(), "retryJobs", () -> admin.retryJobs(state));
    }

    /**
     * Runs every delayed job now (retries backing off included), earliest due first, as
     * {@link #promote(String)} does, in chunks of at most 1,000 jobs.
     *
     * @return how many jobs were promoted
     */
    public long promoteJobs() {
        return RedisCalls.call(name(), "promoteJobs", admin::promoteJobs);
    }

    /**
     * @param id a job id
     * @return the job's log lines, oldest first; empty when it has none or does not exist
     */
    public List<String> getJobLogs(String id) {
        return RedisCalls.call(name(), "getJobLogs", () -> admin.jobLogs(id));
    }

    /**
     * Per-minute counts of jobs that completed, or failed for good, over the last minutes. Counts
     * are kept for 24 hours and updated by the workers in the same script that finishes a job;
     * a minute is a whole UTC minute by the finishing worker's clock, and "now" is this queue's
     * clock (or the last counted minute, if that is later).
     *
     * @param type COMPLETED or FAILED
     * @param minutes how many minutes, the current one included: 1 to {@link QueueMetrics#MAX_MINUTES}
     * @return the counts, newest first, one per minute
     * @throws IllegalArgumentException when minutes is out of range
     */
    public QueueMetrics getMetrics(MetricsType type, int minutes) {
        return RedisCalls.call(name(), "getMetrics", () -> admin.metrics(clock.millis(), type, minutes));
    }

    // --- workers ---

    /**
     * Lists the queue's live workers, from the heartbeats each worker keeps in the queue's own
     * keys (no {@code CLIENT LIST}: works on Cluster, with restricted ACLs and on managed Redis).
     * A worker that closed is gone at once; one that died drops off 3 lock durations after its
     * last heartbeat. Entries that expired are deleted by this call.
     *
     * @return the live workers in name order (at most 1,000)
     */
    public List<WorkerInfo> getWorkers() {
        return workers.getWorkers();
    }

    // --- cancel ---

    /**
     * Cancels a job from any process. A waiting (also grouped, or in a paused queue or group),
     * delayed or prioritized job is taken out of its state and failed for good in the same call:
     * {@code failedReason} {@code "cancelled: <reason>"}, its removeOnFail retention applied, a
     * {@code failed} event with {@code cancelled} = 1. An active job is flagged: its worker learns
     * of it within about half a second, sets {@code ctx.isCancelled()}, interrupts the processor,
     * and the job fails as cancelled without a retry; a processor that returns a value anyway
     * completes the job (the cancel came too late). A job whose worker died fails as cancelled
     * when its stall is recovered. A flow parent waiting for its children is cancelled like a
     * waiting job ({@link CancelResult#CANCELLED_WAITING}), and its pending children that no other
     * live parent waits for are cancelled, recursively (each child one call: not atomic across
     * them); a cancelled child counts as failed for its parents.
     *
     * @param jobId the job id
     * @param reason why (at most 1,000 characters; may be empty)
     * @return what happened
     * @throws IllegalArgumentException for a blank id, or a null or too long reason; nothing is written
     */
    public CancelResult cancel(String jobId, String reason) {
        return cancels.cancel(jobId, reason);
    }

    // --- deduplication ---

    /**
     * The job that owns a deduplication id ({@link JobOptions.Builder#deduplication}): the one an
     * add with that id would return now.
     *
     * @param deduplicationId the deduplication id
     * @return the owner's job id, empty when no job owns the id (ended, or its ttl passed)
     * @throws IllegalArgumentException if the id is not a valid deduplication id, naming it
     * @throws QueueUnavailableException if Redis cannot be reached
     */
    public Optional<String> getDeduplicationJobId(String deduplicationId) {
        return join("getDeduplicationJobId", deduplication.ownerOf(deduplicationId));
    }

    /**
     * Frees a deduplication id now, whatever its mode (also a ttl), and drops an add kept for after
     * its owner (keepLastIfActive): the next add with the id creates a job. The owner, if any,
     * keeps running.
     *
     * @param deduplicationId the deduplication id
     * @return true when a job owned the id
     * @throws IllegalArgumentException if the id is not a valid deduplication id, naming it
     * @throws QueueUnavailableException if Redis cannot be reached
     */
    public boolean removeDeduplicationKey(String deduplicationId) {
        return join("removeDeduplicationKey", deduplication.removeKey(deduplicationId));
    }

    // --- change a job ---

    /**
     * Gives a delayed job a new delay, counted from now; {@link Duration#ZERO} runs it now (as
     * {@link #promote(String)} does: while the queue is paused it waits, like an add). Emits
     * {@code delayChanged}.
     *
     * @param id the job id
     * @param delay the new delay from now, {@code >= 0}
     * @return the job's state afterwards: {@link JobState#DELAYED}, or where a zero delay put it
     * @throws IllegalArgumentException for a null or blank id or a negative delay; nothing is written
     * @throws JobNotFoundException when there is no such job
     * @throws JobStateException when the job is not delayed (the message names its state)
     */
    public JobState changeDelay(String id, Duration delay) {
        return jobChanges.changeDelay(id, delay);
    }

    /**
     * Gives a waiting or prioritized job a new priority: it moves between the wait list and
     * prioritized as 0 / non-0 requires, and goes after the jobs that already have that
     * priority; a job of a group is re-sorted within its group. Emits {@code priorityChanged}.
     *
     * @param id the job id
     * @param priority 0 (none) to {@link JobOptions#MAX_PRIORITY}, lower runs first
     * @return the job's state afterwards: {@link JobState#WAITING} or {@link JobState#PRIORITIZED}
     * @throws IllegalArgumentException for a null or blank id or a priority out of range; nothing is written
     * @throws JobNotFoundException when there is no such job
     * @throws JobStateException when the job is not waiting or prioritized (the message names its state)
     */
    public JobState changePriority(String id, int priority) {
        return jobChanges.changePriority(id, priority);
    }

    /**
     * Replaces the data of a job that has not finished (waiting, prioritized, delayed or active:
     * a running attempt keeps the data it read, the next attempt reads the new data). Emits
     * {@code dataUpdated}.
     *
     * @param id the job id
     * @param data the new data; serialized and size-checked as an add does
     * @throws IllegalArgumentException for a null or blank id, or data that is null (on a queue
     *     not of {@code Void} or {@code Object}), cannot be serialized or is over the payload cap;
     *     nothing is written
     * @throws JobNotFoundException when there is no such job
     * @throws JobStateException when the job is completed or failed
     */
    public void updateData(String id, T data) {
        jobChanges.updateData(id, data);
    }

    // --- awaiting a result ---

    /**
     * Awaits a job's result: the future completes with the processor's return value once the job
     * completes, or exceptionally with {@link JobFailedException} (its {@code failedReason}; also
     * for a cancelled job) once it fails for good, with {@link java.util.concurrent.TimeoutException}
     * after {@code timeout}, or with {@link JobNotFoundException} when the job does not exist and no
     * result of it is kept. A job that finished before the call answers from its hash or its kept
     * result. Results are never missed: the job is marked awaited and its finish keeps the result
     * in Redis (at least 1 h, longer than the timeout), which the awaiter re-reads after a dropped
     * connection. All awaits of a {@code RedissonClient} share one thread and one blocking
     * connection; futures complete on Bullpen's completion threads, never on Redisson's threads or
     * the common {@code ForkJoinPool}.
     *
     * @param jobId the job's id
     * @param resultType the class the return value (JSON) is read as
     * @param timeout how long to wait, &gt; 0
     * @param <R> the result type
     * @return the future result
     * @throws IllegalArgumentException for a blank id or a timeout that is not positive
     */
    public <R> CompletableFuture<R> awaitResult(String jobId, Class<R> resultType, Duration timeout) {
        return awaits.awaitResult(jobId, resultType, timeout);
    }

    /**
     * Adds a job and awaits its result (see {@link #awaitResult}): the add itself marks the job
     * awaited, so its worker keeps the result at the finish without an extra read.
     *
     * @param name the job name
     * @param data the job data
     * @param options the job's options
     * @param resultType the class the return value (JSON) is read as
     * @param timeout how long to wait for the result, &gt; 0
     * @param <R> the result type
     * @return the future result
     * @throws IllegalArgumentException for invalid data or options, or a timeout that is not positive
     */
    public <R> CompletableFuture<R> addAndAwait(String name, T data, JobOptions options, Class<R> resultType,
                                                Duration timeout) {
        return awaits.addAndAwait(name, data, options, resultType, timeout);
    }

    private <R> R join(String operation, CompletionStage<R> stage) {
        return RedisCalls.join(name(), operation, stage);
    }

    private void register(String operation) {
        registration.register(operation);
    }

    /**
     * Builds a {@link Queue}.
     *
     * @param <T> the type of the jobs' data
     */
    public static final class Builder<T> {
        // Package-private: read by the Queue constructor.
        final RedissonClient redisson;
        final String name;
        final JavaType dataType;
        String prefix = KeyScheme.DEFAULT_PREFIX;
        Clock clock = Clock.systemUTC();
        int maxPayloadBytes = JsonCodec.DEFAULT_MAX_PAYLOAD_BYTES;
        long eventsMaxLength;
        int addReplicas;
        Duration addReplicaTimeout = Duration.ZERO;
        final List<Instrumentation> instrumentations = new ArrayList<>();
        JobDefaults defaultJobOptions = JobDefaults.NONE;

        private Builder(RedissonClient redisson, String name, JavaType dataType) {
            this.redisson = Objects.requireNonNull(redisson, "redisson");
            this.name = Validation.queueName(name);
            this.dataType = dataType;
        }

        /**
         * @param prefix the prefix of every key of the queue (default "bp")
         * @return this builder
         */
        public Builder<T> prefix(String prefix) {
            this.prefix = Validation.prefix(prefix);
            return this;
        }

        /**
         * @param clock the clock for timestamps and due times (tests pass a settable one)
         * @return this builder
         */
        public Builder<T> clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * @param bytes the largest job data accepted, as UTF-8 JSON (default 512 KiB)
         * @return this builder
         */
        public Builder<T> maxPayloadBytes(int bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("maxPayloadBytes must be >= 1 but was " + bytes);
            }
            this.maxPayloadBytes = bytes;
            return this;
        }

        /**
         * Caps the queue's events stream at about {@code length} events (default 10,000; Redis
         * trims whole stream nodes of 100 entries, so it may keep up to about 100 more). A setting
         * of the queue, not of this client: it is stored in Redis when this {@code Queue} is first
         * used (an add, a pause or a job scheduler upsert) and from then on every client of the
         * queue applies it, workers and other {@code Queue}s included. A {@code Queue} built
         * without it leaves the stored value alone; the last one stored wins.
         *
         * @param length approximate number of events kept in the queue's stream, at least 1
         * @return this builder
         * @see Queue#getEventsMaxLength()
         */
        public Builder<T> eventsMaxLength(long length) {
            if (length < 1) {
                throw new IllegalArgumentException("eventsMaxLength must be >= 1 but was " + length);
            }
            this.eventsMaxLength = length;
            return this;
        }

        /**
         * Durable adds: every add (single or bulk) completes only once {@code replicas} replicas
         * acknowledged it (Redis {@code WAIT} on the same connection), so an acknowledged job
         * survives a failover of the master (Redis Cluster or Sentinel), which asynchronous
         * replication alone does not promise. Costs one replication round trip per add call, and
         * at most once a second one more call that counts the connected replicas. With fewer
         * replicas connected than required, the add throws {@link NotReplicatedException} at once
         * and writes nothing ({@code written()} false); when fewer answer within {@code timeout},
         * it throws after the timeout with the jobs on the master ({@code written()} true): add
         * them again with the same custom ids to stay idempotent. Off by default.
         *
         * @param replicas replicas to reach, at least 1
         * @param timeout how long to wait for them, more than zero
         * @return this builder
         */
        public Builder<T> durableAdds(int replicas, Duration timeout) {
            if (replicas < 1) {
                throw new IllegalArgumentException("durableAdds replicas must be >= 1 but was " + replicas);
            }
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("durableAdds timeout must be > 0 but was " + timeout);
            }
            this.addReplicas = replicas;
            this.addReplicaTimeout = timeout;
            return this;
        }

        /**
         * Adds an observer of the jobs this queue adds (several may be added); see
         * {@link Instrumentation} for the threads it is called on.
         *
         * @param instrumentation the observer
         * @return this builder
         */
        public Builder<T> instrumentation(Instrumentation instrumentation) {
            instrumentations.add(Objects.requireNonNull(instrumentation, "instrumentation"));
            return this;
        }

        /**
         * Options for every job this {@code Queue} adds (add, addBulk, addAndAwait, and the
         * templates of the job schedulers it upserts), filled in option by option where the add's
         * own options did not set that option: an option the add set wins, even when set to its
         * default value ({@code attempts(1)} over a default of 5). A default that would clash with
         * the add's own options is left out (a default priority for a LIFO add, a default LIFO for a
         * prioritized add, a default delay for a debounced add or a scheduler's template). A setting
         * of this client, not of the queue in Redis: the added jobs store the merged options, so
         * workers need no configuration. Costs no Redis call.
         *
         * @param options the defaults, e.g. {@code JobOptions.builder().attempts(5)
         *     .backoff(Backoff.exponential(Duration.ofSeconds(1))).build()}
         * @return this builder
         * @throws IllegalArgumentException when the options set a custom job id or a deduplication
         *     (each names one job: as a default every add after the first would be a no-op)
         */
        public Builder<T> defaultJobOptions(JobOptions options) {
            this.defaultJobOptions = JobDefaults.of(options);
            return this;
        }

        /**
         * @return the queue; nothing is written to Redis until it is first used
         * @throws IllegalArgumentException naming the queue and its data type when Jackson cannot
         *     read that type back (an abstract type without type information, a type Jackson does
         *     not support, a class it finds no way to create): a worker could not read its jobs
         */
        public Queue<T> build() {
            return new Queue<>(this);
        }
    }
}
