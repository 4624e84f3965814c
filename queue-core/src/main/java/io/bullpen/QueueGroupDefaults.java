package io.bullpen;

import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.MetaFields;
import io.bullpen.internal.RedisCalls;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import org.redisson.api.RedissonClient;

/**
 * Reads the queue's defaults for groups, behind {@link Queue#getDefaultGroupConcurrency()} and
 * {@link Queue#getDefaultGroupRateLimit()}: one HMGET of the meta hash (fields from {@link MetaFields}, written by
 * setGroupSettings).
 * Package-private: {@code Queue} is the API.
 */
final class QueueGroupDefaults {
    private static final String CONCURRENCY = MetaFields.GROUP_CONCURRENCY;
    private static final String RATE_MAX = MetaFields.GROUP_RATE_MAX;
    private static final String RATE_PER = MetaFields.GROUP_RATE_PER;
    private static final String RATE_BURST = MetaFields.GROUP_RATE_BURST;

    private QueueGroupDefaults() {
    }

    static CompletionStage<OptionalLong> concurrency(RedissonClient redisson, KeyScheme keys) {
        return redisson.getMap(RedisCalls.map(keys.meta())).getAsync(CONCURRENCY)
                .thenApply(v -> v == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(v)));
    }

    static CompletionStage<Optional<RateLimit>> rateLimit(RedissonClient redisson, KeyScheme keys) {
        return redisson.getMap(RedisCalls.map(keys.meta())).getAllAsync(Set.of(RATE_MAX, RATE_PER, RATE_BURST))
                .thenApply(QueueGroupDefaults::rateLimit);
    }

    private static Optional<RateLimit> rateLimit(Map<String, String> fields) {
        String max = fields.get(RATE_MAX);
        String per = fields.get(RATE_PER);
        if (max == null || per == null) {
            return Optional.empty();
        }
        String burst = fields.get(RATE_BURST);
        return Optional.of(new RateLimit(Long.parseLong(max), Duration.ofMillis(Long.parseLong(per)),
                burst == null ? 0 : Long.parseLong(burst)));
    }
}
