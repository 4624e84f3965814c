package io.bullpen;

import java.time.Duration;
import java.util.Objects;

/**
 * A rate limit: at most {@code max} job starts in any window of {@code per}, plus an optional
 * {@code burst} of extra starts after an idle spell. Enforced in Redis for every worker of the
 * queue (or of a group) together, as a smooth GCRA schedule: starts are spaced {@code per / max}
 * apart, so there is no burst of 2x the limit at a window's edge as with fixed windows.
 *
 * <pre>{@code
 * queue.setRateLimit(RateLimit.of(100, Duration.ofSeconds(1)));          // 100/s, evenly spaced
 * queue.setRateLimit(RateLimit.of(100, Duration.ofSeconds(1)).burst(20)); // up to 20 more at once
 * }</pre>
 *
 * @param max starts allowed per window, at least 1
 * @param per the window, at least 1 ms
 * @param burst extra starts allowed at once after idling, at least 0
 */
public record RateLimit(long max, Duration per, long burst) {
    /** The largest window accepted: 30 days. */
    public static final Duration MAX_PER = Duration.ofDays(30);

    /**
     * Validates the limit.
     *
     * @throws IllegalArgumentException naming the bad value
     */
    public RateLimit {
        Objects.requireNonNull(per, "per");
        if (max < 1 || max > 1_000_000_000L) {
            throw new IllegalArgumentException("rate limit max must be between 1 and 1000000000 but was " + max);
        }
        if (per.toMillis() < 1 || per.compareTo(MAX_PER) > 0) {
            throw new IllegalArgumentException("rate limit per must be between 1ms and 30 days but was " + per);
        }
        if (burst < 0 || burst > 1_000_000_000L) {
            throw new IllegalArgumentException("rate limit burst must be between 0 and 1000000000 but was " + burst);
        }
    }

    /**
     * A limit of {@code max} starts per {@code per}, without burst.
     *
     * @param max starts allowed per window, at least 1
     * @param per the window, at least 1 ms
     * @return the limit
     */
    public static RateLimit of(long max, Duration per) {
        return new RateLimit(max, per, 0);
    }

    /**
     * @param burst extra starts allowed at once after the limit was idle, at least 0
     * @return a copy with this burst
     */
    public RateLimit burst(long burst) {
        return new RateLimit(max, per, burst);
    }

    /** @return the time between two starts at the limit, {@code per / max} */
    public Duration interval() {
        return Duration.ofNanos(per.toNanos() / max);
    }

    @Override
    public String toString() {
        return max + " per " + per + (burst > 0 ? " (burst " + burst + ")" : "");
    }
}
