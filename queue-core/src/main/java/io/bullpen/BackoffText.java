package io.bullpen;

import io.bullpen.internal.Validation;
import java.util.Map;
import java.util.Objects;

/**
 * The stored form of a {@link Backoff}, part of a job's options: {@code {"type":"fixed","delay":ms}},
 * {@code {"type":"exponential","delay":baseMs,"max":ms,"jitter":fraction}} (max and jitter only
 * when set) or {@code {"type":"schedule","delays":[ms, ...]}}. Milliseconds are Longs, the jitter
 * a Double. Every process rebuilds an equal backoff from it.
 */
final class BackoffText {

    private BackoffText() {
    }

    /**
     * @param backoff a backoff
     * @return its description, an unmodifiable map with a stable key order
     */
    static Map<String, Object> describe(Backoff backoff) {
        Objects.requireNonNull(backoff, "backoff must not be null");
        if (backoff instanceof FixedBackoff fixed) {
            return fixed.describe();
        }
        if (backoff instanceof ExponentialBackoff exponential) {
            return exponential.describe();
        }
        return ((ScheduleBackoff) backoff).describe();
    }

    /**
     * Rebuilds a backoff from its description, as decoded by Jackson from a job's stored options:
     * numbers may be Integer, Long or whole Doubles. Keys not used by the given type are ignored.
     *
     * @param description a map with a {@code "type"} of fixed, exponential or schedule
     * @return a backoff equal to the one described
     * @throws NullPointerException if {@code description} is null
     * @throws IllegalArgumentException if the type is unknown or a value is missing or invalid
     */
    static Backoff fromDescription(Map<String, ?> description) {
        Objects.requireNonNull(description, "backoff description must not be null");
        Object type = description.get("type");
        if ("fixed".equals(type)) {
            return FixedBackoff.fromDescription(description);
        }
        if ("exponential".equals(type)) {
            return ExponentialBackoff.fromDescription(description);
        }
        if ("schedule".equals(type)) {
            return ScheduleBackoff.fromDescription(description);
        }
        throw new IllegalArgumentException("unknown backoff type "
                + (type instanceof String s ? Validation.quote(s) : String.valueOf(type))
                + "; expected fixed, exponential or schedule");
    }
}
