package io.bullpen;

import com.fasterxml.jackson.databind.JavaType;
import io.bullpen.internal.AwaitScripts;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.QueueAdmin;
import io.bullpen.internal.QueueSettings;
import io.bullpen.internal.RedisCalls;
import io.bullpen.internal.RedisChecks;
import io.bullpen.internal.SchedulerScripts;
import io.bullpen.internal.Scripts;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import org.redisson.api.RedissonClient;

/**
 * The base of {@link Queue}: the state every part of it shares (keys, scripts, the feature
 * delegates) and the flow-control settings (rate limits, concurrency, groups). Split off only to
 * keep each class small; users see these methods as {@link Queue}'s own.
 *
 * @param <T> the type of the jobs' data
 */
abstract class QueueFlowControl<T> {
    final RedissonClient redisson;
    final KeyScheme keys;
    final Scripts scripts;
    // Queue-wide operations (QueueAdmin) run as a series of script calls of at most 1,000 jobs each,
    // so a huge queue never blocks Redis for long: each call is atomic, the whole operation is not.
    final QueueAdmin admin;
    final JobAdder<T> adder;
    final QueueSchedulers<T> schedulers;
    final QueueLimits limits;
    final QueueGroups groups;
    final QueueWorkers workers;
    final QueueCancels cancels;
    final QueueJobChanges<T> jobChanges;
    final QueueAwaits<T> awaits;
    final JavaType dataType;
    final Clock clock;
    final long eventsMaxLength; // 0: not set here, the stored setting stays
    final AtomicBoolean registered = new AtomicBoolean();

    QueueFlowControl(Queue.Builder<T> b) {
        this.redisson = b.redisson;
        this.keys = new KeyScheme(b.prefix, b.name);
        this.scripts = new Scripts(redisson, keys, b.addReplicas, b.addReplicaTimeout);
        this.admin = new QueueAdmin(redisson, keys, scripts);
        this.dataType = b.dataType;
        this.clock = b.clock;
        this.eventsMaxLength = b.eventsMaxLength;
        this.adder = new JobAdder<>(redisson, keys, scripts, dataType, clock, b.maxPayloadBytes, b.instrumentations,
                this::register, b.defaultJobOptions);
        this.schedulers = new QueueSchedulers<>(keys.queue(), new SchedulerScripts(redisson, keys), adder, clock,
                this::register);
        this.limits = new QueueLimits(redisson, keys, scripts);
        this.groups = new QueueGroups(redisson, keys, scripts);
        this.workers = new QueueWorkers(redisson, keys);
        this.cancels = new QueueCancels(redisson, keys, clock);
        this.jobChanges = new QueueJobChanges<>(redisson, keys, adder, clock);
        this.awaits = new QueueAwaits<>(redisson, new AwaitScripts(redisson, keys), adder);
    }

    /** @return the queue's name */
    public String name() {
        return keys.queue();
    }

    final <R> R join(String operation, CompletionStage<R> stage) {
        return RedisCalls.join(name(), operation, stage);
    }


    /**
     * Registers the queue for discovery, stores the queue-wide settings given to the builder and
     * checks the server once; cheap after the first call. Sent once, without Redisson's retries
     * (they held a first call for ~5 s with Redis down); a failed registration is tried again by
     * the next call.
     */
    final void register(String operation) {
        if (!registered.get()) {
            join(operation, redisson.getSet(RedisCalls.plain(keys.registry())).addAsync(keys.queue()));
            if (eventsMaxLength > 0) {
                RedisCalls.call(name(), operation, () -> {
                    QueueSettings.store(scripts, eventsMaxLength);
                    return null;
                });
            }
            registered.set(true);
            RedisChecks.warnIfEvicting(redisson);
        }
    }

    // ---- Flow control (docs/flow-control.md): settings stored in Redis, shared by every client.

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
        return join("getDefaultGroupConcurrency", QueueGroupDefaults.concurrency(redisson, keys));
    }

    /**
     * @return the rate limit of every group that has none of its own (see
     *     {@link #setDefaultGroupRateLimit(RateLimit)}), empty when none is set
     */
    public Optional<RateLimit> getDefaultGroupRateLimit() {
        return join("getDefaultGroupRateLimit", QueueGroupDefaults.rateLimit(redisson, keys));
    }
}
