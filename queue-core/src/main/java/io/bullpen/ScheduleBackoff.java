package io.bullpen;

import io.bullpen.internal.Validation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.function.DoubleSupplier;

/** A staged list of delays whose last step repeats; see {@link Backoff#schedule(Duration...)}. */
final class ScheduleBackoff implements Backoff {

    private final long[] stepsMillis;

    ScheduleBackoff(long[] stepsMillis) {
        this.stepsMillis = stepsMillis.clone();
    }

    static ScheduleBackoff fromDescription(Map<String, ?> description) {
        if (!(description.get("delays") instanceof List<?> delays)) {
            throw new IllegalArgumentException(
                    "schedule backoff description needs a \"delays\" list but was " + description);
        }
        List<Duration> steps = new ArrayList<>(delays.size());
        for (int i = 0; i < delays.size(); i++) {
            steps.add(Duration.ofMillis(
                    Validation.wholeNumber("backoff schedule step " + i, delays.get(i))));
        }
        return (ScheduleBackoff) Backoff.schedule(steps);
    }

    @Override
    public Duration delay(int attemptsMade, DoubleSupplier random) {
        Validation.atLeast("attemptsMade", attemptsMade, 1);
        Objects.requireNonNull(random, "random must not be null");
        return Duration.ofMillis(stepsMillis[Math.min(attemptsMade, stepsMillis.length) - 1]);
    }

    /** @return the description {@link BackoffText} stores (see there) */
    Map<String, Object> describe() {
        List<Long> delays = new ArrayList<>(stepsMillis.length);
        for (long step : stepsMillis) {
            delays.add(step);
        }
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("type", "schedule");
        description.put("delays", Collections.unmodifiableList(delays));
        return Collections.unmodifiableMap(description);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ScheduleBackoff other && Arrays.equals(other.stepsMillis, stepsMillis);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(stepsMillis);
    }

    @Override
    public String toString() {
        StringJoiner steps = new StringJoiner(", ", "Backoff.schedule(", ")");
        for (long step : stepsMillis) {
            steps.add(step + "ms");
        }
        return steps.toString();
    }
}
