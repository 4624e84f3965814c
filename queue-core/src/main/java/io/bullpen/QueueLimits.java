package io.bullpen;

import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.Scripts;
import java.util.Optional;
import java.util.OptionalLong;
import org.redisson.api.RedissonClient;

/**
 * The queue-wide limits behind {@link Queue}'s flow-control methods: rate limit and global
 * concurrency, stored in the meta hash. Package-private: {@code Queue} is the API.
 */
final class QueueLimits {
    private final RedissonClient redisson;
    private final KeyScheme keys;
    private final Scripts scripts;

    QueueLimits(RedissonClient redisson, KeyScheme keys, Scripts scripts) {
        this.redisson = redisson;
        this.keys = keys;
        this.scripts = scripts;
    }

    void setRateLimit(RateLimit limit) {
        throw new UnsupportedOperationException("issue 15: rate limit not built yet");
    }

    Optional<RateLimit> getRateLimit() {
        throw new UnsupportedOperationException("issue 15: rate limit not built yet");
    }

    void removeRateLimit() {
        throw new UnsupportedOperationException("issue 15: rate limit not built yet");
    }

    void setGlobalConcurrency(long concurrency) {
        throw new UnsupportedOperationException("issue 15: global concurrency not built yet");
    }

    OptionalLong getGlobalConcurrency() {
        throw new UnsupportedOperationException("issue 15: global concurrency not built yet");
    }

    void removeGlobalConcurrency() {
        throw new UnsupportedOperationException("issue 15: global concurrency not built yet");
    }
}
