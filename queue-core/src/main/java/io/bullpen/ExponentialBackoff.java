package io.bullpen;

import io.bullpen.internal.Validation;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/**
 * A backoff that doubles after every failed attempt: the n-th retry waits base x 2^(n-1),
 * optionally capped by {@link #maxDelay(Duration)} and spread by {@link #jitter(double)}.
 * Create one with {@link Backoff#exponential(Duration)}:
 *
 * <pre>{@code
 * Backoff.exponential(Duration.ofSeconds(1)).maxDelay(Duration.ofMinutes(10)).jitter(0.5)
 * }</pre>
 *
 * <p>Without a cap the delay grows until it saturates at {@link Long#MAX_VALUE} milliseconds
 * instead of overflowing. Immutable: the configuration methods return new instances.
 */
public final class ExponentialBackoff implements Backoff {

    static final long NO_MAX = -1;

    private final long baseMillis;
    private final long maxMillis;
    private final double jitter;

    ExponentialBackoff(long baseMillis, long maxMillis, double jitter) {
        this.baseMillis = baseMillis;
        this.maxMillis = maxMillis;
        this.jitter = jitter;
    }

    static ExponentialBackoff fromDescription(Map<String, ?> description) {
        Object base = description.get("delay");
        if (base == null) {
            throw new IllegalArgumentException(
                    "exponential backoff description needs a \"delay\" but was " + description);
        }
        ExponentialBackoff backoff = Backoff.exponential(
                Duration.ofMillis(Validation.wholeNumber("backoff base delay", base)));
        Object max = description.get("max");
        if (max != null) {
            backoff = backoff.maxDelay(
                    Duration.ofMillis(Validation.wholeNumber("backoff max delay", max)));
        }
        Object jitter = description.get("jitter");
        if (jitter != null) {
            backoff = backoff.jitter(Validation.number("backoff jitter", jitter));
        }
        return backoff;
    }

    /**
     * Caps every delay at {@code maxDelay}, so late retries keep happening at a steady pace.
     *
     * @param maxDelay the longest delay, >= the base delay
     * @return a new backoff with the cap, keeping this one's base and jitter
     * @throws NullPointerException if {@code maxDelay} is null
     * @throws IllegalArgumentException if {@code maxDelay} is negative or below the base delay
     */
    public ExponentialBackoff maxDelay(Duration maxDelay) {
        Validation.nonNegative("backoff max delay", maxDelay);
        long max = maxDelay.toMillis();
        if (max < baseMillis) {
            throw new IllegalArgumentException("backoff max delay must be >= the base delay "
                    + baseMillis + "ms but was " + max + "ms");
        }
        return new ExponentialBackoff(baseMillis, max, jitter);
    }

    /**
     * Spreads delays randomly: each delay is scaled by {@code (1 - fraction * random)} with
     * random in [0, 1). 0 means no jitter, 0.5 a delay between half and all of the computed one,
     * 1 "full jitter" (anywhere from 0 to the computed delay), which best spreads the retries of
     * many jobs that failed at the same moment.
     *
     * @param fraction the jitter fraction, in [0, 1]
     * @return a new backoff with the jitter, keeping this one's base and cap
     * @throws IllegalArgumentException if {@code fraction} is outside [0, 1] or NaN
     */
    public ExponentialBackoff jitter(double fraction) {
        if (!(fraction >= 0 && fraction <= 1)) {
            throw new IllegalArgumentException(
                    "backoff jitter must be between 0 and 1 but was " + fraction);
        }
        // + 0.0 turns -0.0 into 0.0, so equals and describe() agree on "no jitter".
        return new ExponentialBackoff(baseMillis, maxMillis, fraction + 0.0);
    }

    /**
     * The first retry's delay.
     *
     * @return the base delay
     */
    public Duration base() {
        return Duration.ofMillis(baseMillis);
    }

    /**
     * The cap on every delay, if one was set.
     *
     * @return the cap, or empty when uncapped
     */
    public Optional<Duration> maxDelay() {
        return maxMillis == NO_MAX ? Optional.empty() : Optional.of(Duration.ofMillis(maxMillis));
    }

    /**
     * The jitter fraction, 0 when there is none.
     *
     * @return a value in [0, 1]
     */
    public double jitter() {
        return jitter;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Computes base x 2^(attemptsMade - 1), saturating instead of overflowing, applies the
     * cap, then the jitter.
     */
    @Override
    public Duration delay(int attemptsMade, DoubleSupplier random) {
        Validation.atLeast("attemptsMade", attemptsMade, 1);
        Objects.requireNonNull(random, "random must not be null");
        long delay = doubled(baseMillis, attemptsMade - 1);
        if (maxMillis != NO_MAX) {
            delay = Math.min(delay, maxMillis);
        }
        if (jitter == 0) {
            return Duration.ofMillis(delay);
        }
        double r = random.getAsDouble();
        if (!(r >= 0 && r < 1)) {
            throw new IllegalArgumentException("random must return a value in [0, 1) but returned "
                    + r);
        }
        // r == 0 is exact; otherwise the double product is precise enough for a delay.
        return Duration.ofMillis(r == 0 ? delay : (long) Math.floor(delay * (1 - jitter * r)));
    }

    private static long doubled(long base, int doublings) {
        if (base == 0) {
            return 0;
        }
        if (doublings >= Long.SIZE - 1 || base > (Long.MAX_VALUE >> doublings)) {
            return Long.MAX_VALUE;
        }
        return base << doublings;
    }

    /** @return the description {@link BackoffText} stores (see there) */
    Map<String, Object> describe() {
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("type", "exponential");
        description.put("delay", baseMillis);
        if (maxMillis != NO_MAX) {
            description.put("max", maxMillis);
        }
        if (jitter > 0) {
            description.put("jitter", jitter);
        }
        return Collections.unmodifiableMap(description);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ExponentialBackoff other
                && other.baseMillis == baseMillis
                && other.maxMillis == maxMillis
                && Double.compare(other.jitter, jitter) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(baseMillis, maxMillis, jitter);
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder("Backoff.exponential(").append(baseMillis).append("ms)");
        if (maxMillis != NO_MAX) {
            out.append(".maxDelay(").append(maxMillis).append("ms)");
        }
        if (jitter > 0) {
            out.append(".jitter(").append(jitter).append(')');
        }
        return out.toString();
    }
}
