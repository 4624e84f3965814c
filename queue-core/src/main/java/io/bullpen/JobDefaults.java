package io.bullpen;

import static io.bullpen.JobOptions.ATTEMPTS;
import static io.bullpen.JobOptions.BACKOFF;
import static io.bullpen.JobOptions.DELAY;
import static io.bullpen.JobOptions.EXPIRY;
import static io.bullpen.JobOptions.GROUP;
import static io.bullpen.JobOptions.LIFO;
import static io.bullpen.JobOptions.PRIORITY;
import static io.bullpen.JobOptions.REMOVE_ON_COMPLETE;
import static io.bullpen.JobOptions.REMOVE_ON_FAIL;
import static io.bullpen.JobOptions.TIMEOUT;

import java.util.Objects;

/**
 * A queue's default job options ({@link Queue.Builder#defaultJobOptions}) and how they fill in an
 * add's own: option by option, a default applies where the add's options did not set that option
 * with a setter. A default that would clash with what the add set is left out (a default priority
 * for a LIFO add, a default LIFO for a prioritized add, a default delay for a debounced add), so a
 * merge never fails. Done in the caller's thread before anything is sent: no Redis call.
 */
final class JobDefaults {
    /** No defaults: {@link #apply} hands the add's options back untouched. */
    static final JobDefaults NONE = new JobDefaults(JobOptions.defaults());

    private final JobOptions defaults;
    private final boolean none;

    private JobDefaults(JobOptions defaults) {
        this.defaults = defaults;
        this.none = defaults.equals(JobOptions.defaults());
    }

    /**
     * @param defaults the queue's default options
     * @return them, checked
     * @throws IllegalArgumentException when they set a custom job id or a deduplication (both
     *     name one job, so a queue-wide default would make every add after the first a no-op)
     */
    static JobDefaults of(JobOptions defaults) {
        Objects.requireNonNull(defaults, "defaultJobOptions");
        if (defaults.jobId().isPresent()) {
            throw new IllegalArgumentException("defaultJobOptions cannot set a job id (every add would be the same job) "
                    + "but had " + defaults.jobId().get());
        }
        if (defaults.deduplication().isPresent()) {
            throw new IllegalArgumentException("defaultJobOptions cannot set a deduplication (every add would be "
                    + "deduplicated against the first) but had " + defaults.deduplication().get());
        }
        return new JobDefaults(defaults);
    }

    /** @return the default options as given */
    JobOptions options() {
        return defaults;
    }

    /**
     * @param own the add's options
     * @param withDelay false for a job scheduler's template (its schedule decides when jobs run)
     * @return the add's options with the defaults filled in
     */
    JobOptions apply(JobOptions own, boolean withDelay) {
        if (none) {
            return own;
        }
        JobOptions.Builder b = own.toBuilder();
        boolean debounced = own.deduplication().flatMap(Deduplication::debounceDuration).isPresent();
        if (withDelay && !debounced && take(DELAY, own)) {
            b.delay(defaults.delay());
        }
        if (!own.lifo() && take(PRIORITY, own)) {
            b.priority(defaults.priority());
        }
        if (take(ATTEMPTS, own)) {
            b.attempts(defaults.attempts());
        }
        if (take(BACKOFF, own)) {
            b.backoff(defaults.backoff().orElse(null));
        }
        if (take(REMOVE_ON_COMPLETE, own)) {
            b.removeOnComplete(defaults.removeOnComplete());
        }
        if (take(REMOVE_ON_FAIL, own)) {
            b.removeOnFail(defaults.removeOnFail());
        }
        if (take(TIMEOUT, own)) {
            b.timeout(defaults.timeout().orElse(null));
        }
        if (take(EXPIRY, own)) {
            defaults.expireAfter().ifPresent(b::expireAfter);
            defaults.expireAt().ifPresent(b::expireAt);
        }
        // Job id and deduplication never fill in: of() refuses them.
        if (take(GROUP, own)) {
            b.group(defaults.group().orElse(null));
        }
        JobOptions merged = b.build();
        if (merged.priority() == 0 && take(LIFO, own)) {
            merged = merged.toBuilder().lifo(defaults.lifo()).build();
        }
        return merged;
    }

    /** A default applies where the defaults set the option and the add did not. */
    private boolean take(int option, JobOptions own) {
        return defaults.sets(option) && !own.sets(option);
    }

    @Override
    public String toString() {
        return defaults.toString();
    }
}
