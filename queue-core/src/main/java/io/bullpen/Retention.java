package io.bullpen;

import io.bullpen.internal.Validation;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How many finished jobs to keep: the policy behind {@link JobOptions#removeOnComplete()} and
 * {@link JobOptions#removeOnFail()}. A policy may limit the number of jobs kept (the newest
 * survive), their age, or both; a job is removed as soon as it breaks either limit.
 *
 * <p>Ages have millisecond precision. Immutable; compares by value.
 */
public final class Retention {

    private static final int NO_COUNT_LIMIT = -1;
    private static final long NO_AGE_LIMIT = -1;

    private static final Retention KEEP_ALL = new Retention(NO_COUNT_LIMIT, NO_AGE_LIMIT);
    private static final Retention KEEP_NONE = new Retention(0, NO_AGE_LIMIT);

    private final int count;
    private final long maxAgeMillis;

    private Retention(int count, long maxAgeMillis) {
        this.count = count;
        this.maxAgeMillis = maxAgeMillis;
    }

    /**
     * Keeps every finished job (the default); they stay until removed or cleaned explicitly.
     *
     * @return the keep-all policy
     */
    public static Retention keepAll() {
        return KEEP_ALL;
    }

    /**
     * Removes each job as soon as it finishes.
     *
     * @return the keep-none policy
     */
    public static Retention keepNone() {
        return KEEP_NONE;
    }

    /**
     * Keeps the {@code count} most recently finished jobs.
     *
     * @param count how many jobs to keep, >= 0 (0 is {@link #keepNone()})
     * @return the policy
     * @throws IllegalArgumentException if {@code count} is negative
     */
    public static Retention keepLast(int count) {
        Validation.atLeast("retention count", count, 0);
        return new Retention(count, NO_AGE_LIMIT);
    }

    /**
     * Keeps finished jobs for {@code maxAge} after they finished.
     *
     * @param maxAge how long to keep a job, >= 0
     * @return the policy
     * @throws NullPointerException if {@code maxAge} is null
     * @throws IllegalArgumentException if {@code maxAge} is negative
     */
    public static Retention keepFor(Duration maxAge) {
        Validation.nonNegative("retention max age", maxAge);
        return new Retention(NO_COUNT_LIMIT, maxAge.toMillis());
    }

    /**
     * Keeps at most {@code count} finished jobs, each for at most {@code maxAge}.
     *
     * @param count how many jobs to keep, >= 0
     * @param maxAge how long to keep a job, >= 0
     * @return the policy
     * @throws NullPointerException if {@code maxAge} is null
     * @throws IllegalArgumentException if {@code count} or {@code maxAge} is negative
     */
    public static Retention keep(int count, Duration maxAge) {
        Validation.atLeast("retention count", count, 0);
        Validation.nonNegative("retention max age", maxAge);
        return new Retention(count, maxAge.toMillis());
    }

    /**
     * Rebuilds a policy from the map produced by {@link #describe()}, as decoded by Jackson
     * (numbers may be Integer, Long or whole Doubles). Unknown keys are ignored.
     *
     * @param description a map with optional {@code "count"} and {@code "age"} (ms) entries;
     *     an empty map is {@link #keepAll()}
     * @return a policy equal to the one described
     * @throws NullPointerException if {@code description} is null
     * @throws IllegalArgumentException if a value is not a valid count or age
     */
    static Retention fromDescription(Map<String, ?> description) {
        Objects.requireNonNull(description, "retention description must not be null");
        Object countValue = description.get("count");
        Object ageValue = description.get("age");
        int count = NO_COUNT_LIMIT;
        long age = NO_AGE_LIMIT;
        if (countValue != null) {
            count = Validation.intNumber("retention count", countValue);
            Validation.atLeast("retention count", count, 0);
        }
        if (ageValue != null) {
            age = Validation.wholeNumber("retention max age", ageValue);
            Validation.nonNegative("retention max age", Duration.ofMillis(age));
        }
        if (count == NO_COUNT_LIMIT && age == NO_AGE_LIMIT) {
            return KEEP_ALL;
        }
        return new Retention(count, age);
    }

    /**
     * The most finished jobs kept.
     *
     * @return the count limit, or -1 when there is none
     */
    public int count() {
        return count;
    }

    /**
     * The longest a finished job is kept, in milliseconds.
     *
     * @return the age limit, or -1 when there is none
     */
    public long maxAgeMillis() {
        return maxAgeMillis;
    }

    /**
     * Whether this policy never removes a job.
     *
     * @return true for {@link #keepAll()}
     */
    public boolean keepsAll() {
        return count == NO_COUNT_LIMIT && maxAgeMillis == NO_AGE_LIMIT;
    }

    /**
     * Whether this policy removes every job as it finishes.
     *
     * @return true when the count limit is 0
     */
    public boolean keepsNone() {
        return count == 0;
    }

    /**
     * A JSON-friendly description: {@code {"count":n}}, {@code {"age":ms}} or both; keep-all is
     * an empty map. The count is an Integer, the age a Long.
     *
     * @return an unmodifiable map with a stable key order
     */
    Map<String, Object> describe() {
        Map<String, Object> description = new LinkedHashMap<>();
        if (count != NO_COUNT_LIMIT) {
            description.put("count", count);
        }
        if (maxAgeMillis != NO_AGE_LIMIT) {
            description.put("age", maxAgeMillis);
        }
        return Collections.unmodifiableMap(description);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Retention other
                && other.count == count
                && other.maxAgeMillis == maxAgeMillis;
    }

    @Override
    public int hashCode() {
        return 31 * count + Long.hashCode(maxAgeMillis);
    }

    @Override
    public String toString() {
        if (keepsAll()) {
            return "Retention.keepAll()";
        }
        if (maxAgeMillis == NO_AGE_LIMIT) {
            return count == 0 ? "Retention.keepNone()" : "Retention.keepLast(" + count + ")";
        }
        if (count == NO_COUNT_LIMIT) {
            return "Retention.keepFor(" + maxAgeMillis + "ms)";
        }
        return "Retention.keep(" + count + ", " + maxAgeMillis + "ms)";
    }
}
