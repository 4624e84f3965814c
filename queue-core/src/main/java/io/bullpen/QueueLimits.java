package io.bullpen;

import io.bullpen.internal.Futures;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.MetaFields;
import io.bullpen.internal.RedisCalls;
import io.bullpen.internal.Scripts;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.redisson.api.RedissonClient;

/**
 * The queue-wide limits behind {@link Queue}'s flow-control methods: rate limit and global
 * concurrency, stored in the meta hash, where every worker's take reads them (limitTake.lua).
 * Every change wakes the blocked workers (setQueueLimits.lua). Package-private: {@code Queue}
 * is the API.
 */
final class QueueLimits {
    private static final String REMOVE = "-";

    private final RedissonClient redisson;
    private final KeyScheme keys;
    private final Scripts scripts;

    QueueLimits(RedissonClient redisson, KeyScheme keys, Scripts scripts) {
        this.redisson = redisson;
        this.keys = keys;
        this.scripts = scripts;
    }

    /** @param owner the declaring configuration's owner, null for none (the API: clears the mark) */
    void setRateLimit(RateLimit limit, String owner) {
        // RateLimit validated itself; per is stored in whole ms (at least 1, checked there).
        Futures.join(scripts.setQueueLimits(Long.toString(limit.max()), limit.per().toMillis(), limit.burst(), null,
                owner));
    }

    Optional<RateLimit> getRateLimit() {
        Map<String, String> stored = meta(MetaFields.RATE_MAX, MetaFields.RATE_PER, MetaFields.RATE_BURST);
        String max = stored.get(MetaFields.RATE_MAX);
        String per = stored.get(MetaFields.RATE_PER);
        if (max == null || per == null) {
            return Optional.empty();
        }
        String burst = stored.get(MetaFields.RATE_BURST);
        return Optional.of(new RateLimit(Long.parseLong(max), Duration.ofMillis(Long.parseLong(per)),
                burst == null ? 0 : Long.parseLong(burst)));
    }

    /**
     * @param owner null: remove whoever wrote it; else only when it carries this owner's mark
     * @return whether a rate limit was removed
     */
    boolean removeRateLimit(String owner) {
        return Futures.join(scripts.setQueueLimits(REMOVE, 0, 0, null, owner)) > 0;
    }

    /** @param owner the declaring configuration's owner, null for none (the API: clears the mark) */
    void setGlobalConcurrency(long concurrency, String owner) {
        if (concurrency < 1 || concurrency > 1_000_000_000L) {
            throw new IllegalArgumentException("global concurrency must be between 1 and 1000000000 but was " + concurrency);
        }
        Futures.join(scripts.setQueueLimits(null, 0, 0, Long.toString(concurrency), owner));
    }

    OptionalLong getGlobalConcurrency() {
        String stored = meta(MetaFields.CONCURRENCY).get(MetaFields.CONCURRENCY);
        return stored == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(stored));
    }

    /**
     * @param owner null: remove whoever wrote it; else only when it carries this owner's mark
     * @return whether a global concurrency was removed
     */
    boolean removeGlobalConcurrency(String owner) {
        return Futures.join(scripts.setQueueLimits(null, 0, 0, REMOVE, owner)) > 0;
    }

    /** @return the owners whose marks the rate limit and the global concurrency carry (absent: none) */
    Map<String, String> owners() {
        return meta(MetaFields.RATE_OWNER, MetaFields.CONCURRENCY_OWNER);
    }

    private Map<String, String> meta(String... fields) {
        return redisson.<String, String>getMap(RedisCalls.map(keys.meta())).getAll(Set.of(fields));
    }
}
