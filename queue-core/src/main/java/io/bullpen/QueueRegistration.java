package io.bullpen;

import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.QueueSettings;
import io.bullpen.internal.RedisCalls;
import io.bullpen.internal.RedisChecks;
import io.bullpen.internal.Scripts;
import java.util.concurrent.atomic.AtomicBoolean;
import org.redisson.api.RedissonClient;

/**
 * {@link Queue}'s registration: the first call that writes (an add, a pause, a limit, a job
 * scheduler upsert) puts the queue's name in the registry, stores the queue-wide settings given
 * to the builder and checks the server once; cheap afterwards. Package-private: {@code Queue} is
 * the API.
 */
final class QueueRegistration {
    private final RedissonClient redisson;
    private final KeyScheme keys;
    private final Scripts scripts;
    private final long eventsMaxLength; // 0: not set here, the stored setting stays
    private final AtomicBoolean registered = new AtomicBoolean();

    QueueRegistration(RedissonClient redisson, KeyScheme keys, Scripts scripts, long eventsMaxLength) {
        this.redisson = redisson;
        this.keys = keys;
        this.scripts = scripts;
        this.eventsMaxLength = eventsMaxLength;
    }

    /**
     * Registers the queue unless done already. Sent once, without Redisson's retries (they held a
     * first call for ~5 s with Redis down); a failed registration is tried again by the next call.
     */
    void register(String operation) {
        if (!registered.get()) {
            RedisCalls.join(keys.queue(), operation,
                    redisson.getSet(RedisCalls.plain(keys.registry())).addAsync(keys.queue()));
            if (eventsMaxLength > 0) {
                RedisCalls.call(keys.queue(), operation, () -> {
                    QueueSettings.store(scripts, eventsMaxLength);
                    return null;
                });
            }
            registered.set(true);
            RedisChecks.warnIfEvicting(redisson);
        }
    }

    /** The queue was obliterated: the next call that writes registers it again. */
    void forget() {
        registered.set(false);
    }
}
