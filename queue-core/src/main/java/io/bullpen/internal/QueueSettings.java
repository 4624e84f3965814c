package io.bullpen.internal;

import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The settings that belong to a queue rather than to one client: stored in the queue's meta
 * hash, where the scripts of every producer, worker and admin read them (readMeta.lua), so a
 * worker built without them follows what the queue was given. Today the events cap; the queue's
 * limits go here too. Not API.
 */
public final class QueueSettings {
    /** The events cap when none is stored (as readMeta.lua assumes). */
    public static final long DEFAULT_EVENTS_MAX_LENGTH = 10_000;

    private static final Logger log = LoggerFactory.getLogger(QueueSettings.class);

    private QueueSettings() {
    }

    /**
     * Stores the queue's settings; logs when another value was stored before (two services that
     * build the queue with different settings overwrite each other's).
     *
     * @param scripts the queue's scripts
     * @param eventsMaxLength the events cap, >= 1
     */
    public static void store(Scripts scripts, long eventsMaxLength) {
        String previous = Futures.join(scripts.setQueueSettings(eventsMaxLength));
        if (previous != null && !previous.isEmpty() && !previous.equals(Long.toString(eventsMaxLength))) {
            log.info("queue {}: eventsMaxLength changed from {} to {}", scripts.keys().queue(), previous, eventsMaxLength);
        }
    }

    /**
     * @param redisson the client
     * @param keys the queue's keys
     * @return the stored events cap, or the default when none is stored
     */
    public static long eventsMaxLength(RedissonClient redisson, KeyScheme keys) {
        String stored = redisson.getMap(RedisCalls.map(keys.meta())).get(MetaFields.EVENTS_MAX_LENGTH);
        return stored == null ? DEFAULT_EVENTS_MAX_LENGTH : Long.parseLong(stored);
    }
}
