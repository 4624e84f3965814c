package io.bullpen.internal;

import io.bullpen.Retention;
import io.bullpen.internal.QueueModelTypes.Options;
import java.time.Duration;
import java.util.Random;

/**
 * {@link QueueModelTest}'s random source: the seeded sequence itself (a {@link Random}) and the
 * random job options drawn from it, biased toward the boundaries the model must get right.
 */
final class QueueModelRandom extends Random {
    private static final long serialVersionUID = 1L;

    QueueModelRandom(long seed) {
        super(seed);
    }

    /** A job's options; an expiry deadline is drawn against {@code redisNow}, Redis's clock (this host's). */
    Options options(long redisNow) {
        String customId = nextInt(100) < 30 ? "c-" + nextInt(12) : null;
        long delay = nextInt(100) < 60 ? 0 : roundOr(1 + nextInt(5000), 500, 1000, 1500, 2000);
        int priority = nextInt(100) < 70 ? 0 : 1 + nextInt(5);
        boolean lifo = priority == 0 && nextInt(100) < 25;
        int attempts = 1 + nextInt(3);
        long backoff = nextBoolean() ? 0 : roundOr(100 + nextInt(1901), 500, 1000);
        Retention onComplete = retention();
        Retention onFail = retention();
        String dedupId = nextInt(100) < 25 ? "d-" + nextInt(4) : null;
        long expireAt = -1;
        long expireAfter = -1;
        int e = nextInt(100);
        if (e < 8) {
            expireAt = redisNow - 1 - nextInt(1000); // already past: the next fetch fails it
        } else if (e < 11) {
            expireAt = redisNow + 20 + nextInt(200); // passes during the run (the run waits for it)
        } else if (e < 15) {
            expireAt = redisNow + 7_200_000; // never passes during the run
        } else if (e < 21) {
            expireAfter = 7_200_000; // never passes; moves with the due time
        } else if (e < 23) {
            expireAfter = 20 + nextInt(200);
        }
        return new Options(customId, delay, priority, lifo, attempts, backoff, onComplete, onFail, dedupId,
                expireAt, expireAfter);
    }

    Retention retention() {
        int r = nextInt(100);
        if (r < 30) {
            return Retention.keepAll();
        } else if (r < 45) {
            return Retention.keepNone();
        } else if (r < 65) {
            return Retention.keepLast(nextInt(6));
        } else if (r < 85) {
            return Retention.keepFor(Duration.ofMillis(age()));
        }
        return Retention.keep(nextInt(6), Duration.ofMillis(age()));
    }

    /** 0-5000 ms, often 0 or a round value so that finish times land exactly on the age limit. */
    long age() {
        return nextInt(100) < 20 ? 0 : roundOr(nextInt(5001), 500, 1000, 1500, 2000);
    }

    /**
     * {@code value}, or (30%) one of {@code round}: the clock often moves by round steps too, so
     * due times and age limits hit {@code now} exactly and the boundaries (due <= now, finished
     * at or before now - age) get exercised.
     */
    long roundOr(long value, long... round) {
        return nextInt(100) < 30 ? round[nextInt(round.length)] : value;
    }

    /** A job's options, short, for the failure messages. */
    static String describe(Options o) {
        StringBuilder b = new StringBuilder(o.customId() == null ? "auto" : o.customId());
        if (o.delayMs() > 0) {
            b.append(" delay=").append(o.delayMs());
        }
        if (o.priority() > 0) {
            b.append(" prio=").append(o.priority());
        }
        if (o.lifo()) {
            b.append(" lifo");
        }
        b.append(" att=").append(o.attempts());
        if (o.backoffMs() > 0) {
            b.append(" backoff=").append(o.backoffMs());
        }
        b.append(" ok:").append(o.onComplete()).append(" fail:").append(o.onFail());
        if (o.dedupId() != null) {
            b.append(" dedup=").append(o.dedupId());
        }
        if (o.expireAt() >= 0) {
            b.append(" expireAt=").append(o.expireAt());
        }
        if (o.expireAfterMs() > 0) {
            b.append(" expireAfter=").append(o.expireAfterMs());
        }
        return "{" + b + "}";
    }
}
