package io.bullpen;

import io.bullpen.internal.MetaFields;
import java.util.List;
import java.util.Objects;

/**
 * A queue's settings and job schedulers as a configuration declares them, marked with the
 * configuration's owner (an application's name), so the configuration can later remove what it
 * declared and no longer declares, and only that. The mark is written atomically with the
 * setting. A write through {@link Queue} itself ({@link Queue#setRateLimit}, {@link
 * Queue#setGlobalConcurrency}, {@link Queue#upsertJobScheduler}, or the dashboard) clears the
 * mark: what an operator set by hand is never removed by a configuration. The Spring Boot
 * starters use it for {@code bullpen.queues.*} and {@code @BullpenScheduler}.
 *
 * <pre>{@code
 * DeclaredSettings<Report> declared = reports.declaredBy("billing");
 * declared.setRateLimit(RateLimit.of(2, Duration.ofSeconds(1)));
 * declared.upsertJobScheduler("nightly", Repeat.cron("0 2 * * *"), JobTemplate.of("nightly", new Report("all")));
 * // At the next start, where the configuration no longer declares them:
 * declared.removeRateLimit();              // only if still marked by "billing"
 * for (String id : declared.getJobSchedulerIds()) {
 *     if (!stillDeclared(id)) {
 *         declared.removeJobScheduler(id); // only if still marked by "billing"
 *     }
 * }
 * }</pre>
 *
 * @param <T> the type of the jobs' data
 */
public final class DeclaredSettings<T> {
    /** The longest owner accepted. */
    static final int MAX_OWNER_LENGTH = 200;

    private final String queue;
    private final QueueRegistration registration;
    private final QueueLimits limits;
    private final QueueSchedulers<T> schedulers;
    private final String owner;

    DeclaredSettings(String queue, QueueRegistration registration, QueueLimits limits, QueueSchedulers<T> schedulers,
                     String owner) {
        this.queue = queue;
        this.registration = registration;
        this.limits = limits;
        this.schedulers = schedulers;
        this.owner = checkOwner(owner);
    }

    private static String checkOwner(String owner) {
        Objects.requireNonNull(owner, "owner must not be null");
        if (owner.isBlank() || owner.length() > MAX_OWNER_LENGTH || owner.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("owner must be 1-" + MAX_OWNER_LENGTH
                    + " characters, not blank and without control characters, but was \"" + owner + "\"");
        }
        return owner;
    }

    /** @return the owner whose mark this writes and whose marked settings this removes */
    public String owner() {
        return owner;
    }

    /**
     * As {@link Queue#setRateLimit(RateLimit)}, marked with this owner.
     *
     * @param limit the limit
     */
    public void setRateLimit(RateLimit limit) {
        Objects.requireNonNull(limit, "limit");
        registration.register("setRateLimit");
        limits.setRateLimit(limit, owner);
    }

    /**
     * As {@link Queue#setGlobalConcurrency(long)}, marked with this owner.
     *
     * @param concurrency the cap, at least 1
     * @throws IllegalArgumentException for a cap under 1
     */
    public void setGlobalConcurrency(long concurrency) {
        registration.register("setGlobalConcurrency");
        limits.setGlobalConcurrency(concurrency, owner);
    }

    /**
     * As {@link Queue#upsertJobScheduler(String, Repeat, JobTemplate)}, marked with this owner
     * (also when the definition is unchanged: the call then only marks it).
     *
     * @param id the scheduler id
     * @param repeat when jobs run
     * @param template the jobs' name, data and options
     * @return whether the definition changed
     */
    public boolean upsertJobScheduler(String id, Repeat repeat, JobTemplate<T> template) {
        return schedulers.upsert(id, repeat, template, owner);
    }

    /**
     * Removes the queue's rate limit if it carries this owner's mark, and wakes waiting workers.
     *
     * @return whether it was removed (false: none, or set by someone else or by hand)
     */
    public boolean removeRateLimit() {
        return limits.removeRateLimit(owner);
    }

    /**
     * Removes the queue's global concurrency if it carries this owner's mark.
     *
     * @return whether it was removed (false: none, or set by someone else or by hand)
     */
    public boolean removeGlobalConcurrency() {
        return limits.removeGlobalConcurrency(owner);
    }

    /** @return whether the queue's rate limit carries this owner's mark */
    public boolean ownsRateLimit() {
        return owner.equals(limits.owners().get(MetaFields.RATE_OWNER));
    }

    /** @return whether the queue's global concurrency carries this owner's mark */
    public boolean ownsGlobalConcurrency() {
        return owner.equals(limits.owners().get(MetaFields.CONCURRENCY_OWNER));
    }

    /**
     * Removes a job scheduler and its pending iteration if it carries this owner's mark.
     *
     * @param id the scheduler id
     * @return whether it was removed (false: none, or upserted by someone else or by hand)
     */
    public boolean removeJobScheduler(String id) {
        return schedulers.remove(id, owner);
    }

    /** @return the ids of the queue's job schedulers that carry this owner's mark */
    public List<String> getJobSchedulerIds() {
        return schedulers.idsOwnedBy(owner);
    }

    @Override
    public String toString() {
        return "DeclaredSettings[queue=" + queue + ", owner=" + owner + "]";
    }
}
