package io.bullpen;

import io.bullpen.internal.Validation;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.DoubleSupplier;

/** The same delay before every retry; see {@link Backoff#fixed(Duration)}. */
final class FixedBackoff implements Backoff {

    private final long delayMillis;

    FixedBackoff(long delayMillis) {
        this.delayMillis = delayMillis;
    }

    static FixedBackoff fromDescription(Map<String, ?> description) {
        Object delay = description.get("delay");
        if (delay == null) {
            throw new IllegalArgumentException(
                    "fixed backoff description needs a \"delay\" but was " + description);
        }
        return (FixedBackoff) Backoff.fixed(
                Duration.ofMillis(Validation.wholeNumber("backoff delay", delay)));
    }

    @Override
    public Duration delay(int attemptsMade, DoubleSupplier random) {
        Validation.atLeast("attemptsMade", attemptsMade, 1);
        Objects.requireNonNull(random, "random must not be null");
        return Duration.ofMillis(delayMillis);
    }

    /** @return the description {@link BackoffText} stores (see there) */
    Map<String, Object> describe() {
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("type", "fixed");
        description.put("delay", delayMillis);
        return Collections.unmodifiableMap(description);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FixedBackoff other && other.delayMillis == delayMillis;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(delayMillis);
    }

    @Override
    public String toString() {
        return "Backoff.fixed(" + delayMillis + "ms)";
    }
}
