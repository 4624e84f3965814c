package io.bullpen;

import io.bullpen.internal.Validation;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * Deduplication of adds by an id of your choosing ({@link JobOptions.Builder#deduplication}):
 * while a job owns the id, another add with it creates no job and returns the owner
 * ({@link Job#isDeduplicated()} true, a {@code deduplicated} event).
 *
 * <pre>{@code
 * JobOptions options = JobOptions.builder()
 *         .deduplication(Deduplication.of("reindex:" + userId).debounce(Duration.ofSeconds(2)))
 *         .build();
 * }</pre>
 *
 * <p>Modes, combinable:
 * <ul>
 *   <li>{@link #of(String)} alone: the id is owned until the owner ends (completed, failed for
 *       good, removed, cleaned, drained, obliterated, cancelled); a retry keeps it;</li>
 *   <li>{@link #ttl(Duration)}: throttle, one job per id per ttl: the id is owned for the ttl
 *       whatever the owner does (removing the owner or {@link Queue#removeDeduplicationKey}
 *       still frees it);</li>
 *   <li>{@link #debounce(Duration)}: the job is delayed by the duration, and an add while the
 *       owner is still delayed replaces its name and data and restarts its delay (with a ttl,
 *       the ttl restarts too); cannot be combined with a {@code delay};</li>
 *   <li>{@link #keepLastIfActive()}: an add while the owner runs is kept (the latest one wins)
 *       and added as a new job, owning the id, when the owner ends.</li>
 * </ul>
 *
 * <p>Durations have millisecond precision. Immutable; compares by value.
 */
public final class Deduplication {

    private final String id;
    private final Duration ttl;
    private final Duration debounce;
    private final boolean keepLastIfActive;

    private Deduplication(String id, Duration ttl, Duration debounce, boolean keepLastIfActive) {
        this.id = id;
        this.ttl = ttl;
        this.debounce = debounce;
        this.keepLastIfActive = keepLastIfActive;
    }

    /**
     * Deduplicates by {@code id} until the owner ends.
     *
     * @param id the deduplication id: 1-256 characters, no control characters
     * @return the deduplication
     * @throws NullPointerException if {@code id} is null
     * @throws IllegalArgumentException if the id breaks a rule; the message quotes it
     */
    public static Deduplication of(String id) {
        Objects.requireNonNull(id, "deduplication id must not be null");
        if (id.isEmpty() || id.length() > 256) {
            throw new IllegalArgumentException("deduplication id " + Validation.quote(id)
                    + " must be 1-256 characters long but has " + id.length());
        }
        for (int i = 0; i < id.length(); i++) {
            if (Character.isISOControl(id.charAt(i))) {
                throw new IllegalArgumentException("deduplication id " + Validation.quote(id)
                        + " must not contain control characters");
            }
        }
        return new Deduplication(id, null, null, false);
    }

    /**
     * Throttles: the id stays owned for {@code ttl} from the add, whether the owner ends sooner
     * or runs longer.
     *
     * @param ttl how long the id is owned, >= 1ms
     * @return a copy with the ttl
     * @throws IllegalArgumentException if {@code ttl} is below 1ms, naming it
     */
    public Deduplication ttl(Duration ttl) {
        return new Deduplication(id, millis("deduplication ttl", ttl), debounce, keepLastIfActive);
    }

    /**
     * Debounces: the job runs {@code debounce} after the latest add of the id made while it
     * waited, with that add's name and data.
     *
     * @param debounce the quiet time, >= 1ms
     * @return a copy with the debounce
     * @throws IllegalArgumentException if {@code debounce} is below 1ms, naming it
     */
    public Deduplication debounce(Duration debounce) {
        return new Deduplication(id, ttl, millis("deduplication debounce", debounce), keepLastIfActive);
    }

    /**
     * Keeps the latest add made while the owner runs and adds it as a new job when the owner
     * ends, so work that arrived during a run is done once after it.
     *
     * @return a copy that keeps the last add
     */
    public Deduplication keepLastIfActive() {
        return new Deduplication(id, ttl, debounce, true);
    }

    /** @return the deduplication id */
    public String id() {
        return id;
    }

    /** @return the ttl (throttle mode), empty when the id is owned until the owner ends */
    public Optional<Duration> ttlDuration() {
        return Optional.ofNullable(ttl);
    }

    /** @return the debounce time, empty when the add is not debounced */
    public Optional<Duration> debounceDuration() {
        return Optional.ofNullable(debounce);
    }

    /** @return true when an add while the owner runs is kept for after it */
    public boolean keepsLastIfActive() {
        return keepLastIfActive;
    }

    /** The description stored with the job's options: id, ttl and debounce (ms), keepLastIfActive. */
    Map<String, Object> describe() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("id", id);
        if (ttl != null) {
            d.put("ttl", ttl.toMillis());
        }
        if (debounce != null) {
            d.put("debounce", debounce.toMillis());
        }
        if (keepLastIfActive) {
            d.put("keepLastIfActive", true);
        }
        return Collections.unmodifiableMap(d);
    }

    /** Reads {@link #describe()}'s map back. */
    static Deduplication fromDescription(Map<String, ?> d) {
        Object id = d.get("id");
        if (!(id instanceof String text)) {
            throw new IllegalArgumentException("deduplication id must be a string but was " + id);
        }
        Deduplication out = of(text);
        if (d.get("ttl") != null) {
            out = out.ttl(Duration.ofMillis(Validation.wholeNumber("deduplication ttl", d.get("ttl"))));
        }
        if (d.get("debounce") != null) {
            out = out.debounce(Duration.ofMillis(Validation.wholeNumber("deduplication debounce", d.get("debounce"))));
        }
        if (Boolean.TRUE.equals(d.get("keepLastIfActive"))) {
            out = out.keepLastIfActive();
        }
        return out;
    }

    private static Duration millis(String what, Duration duration) {
        Objects.requireNonNull(duration, () -> what + " must not be null");
        if (duration.toMillis() < 1) {
            throw new IllegalArgumentException(what + " must be >= 1ms but was " + Validation.millis(duration));
        }
        return Duration.ofMillis(duration.toMillis());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Deduplication other && other.id.equals(id) && Objects.equals(other.ttl, ttl)
                && Objects.equals(other.debounce, debounce) && other.keepLastIfActive == keepLastIfActive;
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, ttl, debounce, keepLastIfActive);
    }

    /** E.g. {@code Deduplication{id="sync:7", debounce=500ms}}. */
    @Override
    public String toString() {
        StringJoiner out = new StringJoiner(", ", "Deduplication{", "}");
        out.add("id=" + Validation.quote(id));
        if (ttl != null) {
            out.add("ttl=" + ttl.toMillis() + "ms");
        }
        if (debounce != null) {
            out.add("debounce=" + debounce.toMillis() + "ms");
        }
        if (keepLastIfActive) {
            out.add("keepLastIfActive");
        }
        return out.toString();
    }
}
