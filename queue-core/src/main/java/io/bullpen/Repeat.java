package io.bullpen;

import io.bullpen.internal.CronSchedule;
import io.bullpen.internal.Validation;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * When a job scheduler creates jobs: on a cron expression in a time zone, or every fixed
 * interval; optionally limited in count, bounded by start and end times. Immutable: every
 * option returns a new value.
 *
 * <pre>{@code
 * Repeat.cron("0 2 * * *", ZoneId.of("Asia/Shanghai"));          // 02:00 every night there
 * Repeat.every(Duration.ofMinutes(5)).limit(100).immediately(true);
 * }</pre>
 */
public final class Repeat {
    private final String cron;
    private final ZoneId zone;
    private final Duration every;
    private final long limit;
    private final Instant startAt;
    private final Instant endAt;
    private final boolean immediately;
    private final MisfirePolicy misfire;
    private final CronSchedule schedule;

    private Repeat(String cron, ZoneId zone, Duration every, long limit, Instant startAt, Instant endAt,
                   boolean immediately, MisfirePolicy misfire) {
        this.cron = cron;
        this.zone = zone;
        this.every = every;
        this.limit = limit;
        this.startAt = startAt;
        this.endAt = endAt;
        this.immediately = immediately;
        this.misfire = misfire;
        this.schedule = cron == null ? null : CronSchedule.parse(cron, zone);
    }

    /**
     * @param expression 5-field Unix cron ("0 2 * * *"), or 6 fields with seconds first
     * @param zone the time zone the expression is read in
     * @return a cron schedule
     * @throws IllegalArgumentException naming the expression when it is invalid, or the zone when
     *     this JVM has no rules for it (a zone id deserialized from a newer JVM's data)
     */
    public static Repeat cron(String expression, ZoneId zone) {
        Objects.requireNonNull(zone, "zone");
        try {
            zone.getRules();
        } catch (DateTimeException e) {
            throw invalidZone(zone.getId(), expression, e);
        }
        return new Repeat(expression, zone, null, -1, null, null, false, MisfirePolicy.RUN_ONCE_NOW);
    }

    /**
     * @param expression cron expression
     * @param zoneId a zone id such as "Europe/Berlin"
     * @return a cron schedule
     * @throws IllegalArgumentException naming the expression or the zone when invalid
     */
    public static Repeat cron(String expression, String zoneId) {
        ZoneId zone;
        try {
            zone = ZoneId.of(Objects.requireNonNull(zoneId, "zoneId"));
        } catch (DateTimeException e) {
            throw invalidZone(zoneId, expression, e);
        }
        return cron(expression, zone);
    }

    private static IllegalArgumentException invalidZone(String zoneId, String expression, DateTimeException e) {
        return new IllegalArgumentException("invalid time zone \"" + zoneId + "\" for cron expression \""
                + expression + "\": " + e.getMessage(), e);
    }

    /**
     * A cron schedule read in UTC: {@code cron("0 2 * * *")} runs at 02:00 UTC, whatever the
     * zone of this JVM or of the server. For local time, name the zone with
     * {@link #cron(String, ZoneId)} (across daylight-saving changes a time skipped in spring runs
     * at the end of the gap, and a time repeated in autumn runs once).
     *
     * @param expression 5-field Unix cron ("0 2 * * *"), or 6 fields with seconds first
     * @return a cron schedule in UTC
     * @throws IllegalArgumentException naming the expression when it is invalid
     */
    public static Repeat cron(String expression) {
        return cron(expression, ZoneOffset.UTC);
    }

    /**
     * @param interval the time between two runs (at least 1 ms)
     * @return a fixed-interval schedule; the first run is one interval from now unless
     *         {@link #immediately(boolean)} or {@link #startAt(Instant)} say otherwise
     */
    public static Repeat every(Duration interval) {
        Validation.positive("every", interval);
        if (interval.toMillis() < 1) {
            throw new IllegalArgumentException("every must be at least 1ms but was " + Validation.millis(interval));
        }
        return new Repeat(null, null, interval, -1, null, null, false, MisfirePolicy.RUN_ONCE_NOW);
    }

    /**
     * @param count the most jobs this scheduler creates in all (at least 1)
     * @return a copy with that limit
     */
    public Repeat limit(long count) {
        Validation.atLeast("limit", count, 1);
        return new Repeat(cron, zone, every, count, startAt, endAt, immediately, misfire);
    }

    /**
     * @param start no run before this instant
     * @return a copy starting then
     */
    public Repeat startAt(Instant start) {
        return new Repeat(cron, zone, every, limit, Objects.requireNonNull(start, "startAt"), endAt, immediately, misfire);
    }

    /**
     * @param end no run after this instant
     * @return a copy ending then
     */
    public Repeat endAt(Instant end) {
        return new Repeat(cron, zone, every, limit, startAt, Objects.requireNonNull(end, "endAt"), immediately, misfire);
    }

    /**
     * @param now whether the first run happens at once (at the start time, if one is set)
     * @return a copy with that choice
     */
    public Repeat immediately(boolean now) {
        return new Repeat(cron, zone, every, limit, startAt, endAt, now, misfire);
    }

    /**
     * @param policy what to do after missed runs (default {@link MisfirePolicy#RUN_ONCE_NOW})
     * @return a copy with that policy
     */
    public Repeat misfire(MisfirePolicy policy) {
        return new Repeat(cron, zone, every, limit, startAt, endAt, immediately, Objects.requireNonNull(policy, "misfire"));
    }

    /** @return the cron expression, for a cron schedule */
    public Optional<String> cronExpression() {
        return Optional.ofNullable(cron);
    }

    /** @return the zone of a cron schedule */
    public Optional<ZoneId> zone() {
        return Optional.ofNullable(zone);
    }

    /** @return the interval, for a fixed-interval schedule */
    public Optional<Duration> interval() {
        return Optional.ofNullable(every);
    }

    /** @return the most jobs created in all, if limited */
    public Optional<Long> limit() {
        return limit < 0 ? Optional.empty() : Optional.of(limit);
    }

    /** @return the start time, if set */
    public Optional<Instant> startAt() {
        return Optional.ofNullable(startAt);
    }

    /** @return the end time, if set */
    public Optional<Instant> endAt() {
        return Optional.ofNullable(endAt);
    }

    /** @return whether the first run happens at once */
    public boolean immediately() {
        return immediately;
    }

    /** @return the misfire policy */
    public MisfirePolicy misfire() {
        return misfire;
    }

    /**
     * The first run of a scheduler created at {@code now}.
     *
     * @param now the current time
     * @return the first run, or empty when the schedule has no run at all (e.g. it ended)
     */
    public Optional<Instant> firstRun(Instant now) {
        Instant from = startAt != null && startAt.isAfter(now) ? startAt : now;
        Optional<Instant> first;
        if (immediately) {
            first = Optional.of(from);
        } else if (every != null) {
            first = Optional.of(startAt != null && startAt.isAfter(now) ? startAt : now.plus(every));
        } else {
            first = schedule.next(from.minusMillis(1));
            if (first.isPresent() && !first.get().isAfter(now)) {
                first = schedule.next(now);
            }
        }
        return first.filter(this::withinEnd);
    }

    /**
     * The run after {@code previous}, skipping runs at or before {@code notBefore} (both ms).
     *
     * @param previous the due time of the run before (the scheduler's last iteration)
     * @param notBefore runs at or before this instant are in the past and skipped
     * @return the next run, or empty when the schedule has ended
     */
    public Optional<Instant> nextRun(Instant previous, Instant notBefore) {
        Optional<Instant> next;
        if (every != null) {
            Instant candidate = previous.plus(every);
            if (!candidate.isAfter(notBefore)) {
                long periods = Duration.between(previous, notBefore).toMillis() / every.toMillis() + 1;
                candidate = previous.plusMillis(periods * every.toMillis());
            }
            next = Optional.of(candidate);
        } else {
            Instant after = previous.isAfter(notBefore) ? previous : notBefore;
            next = schedule.next(after);
        }
        if (startAt != null && next.isPresent() && next.get().isBefore(startAt)) {
            next = firstRun(startAt.minusMillis(1));
        }
        return next.filter(this::withinEnd);
    }

    /**
     * The first run of a scheduler upserted at {@code now}, for a schedule that has one.
     *
     * @throws IllegalArgumentException naming the scheduler and this schedule when {@code endAt}
     *     is before {@code startAt} or the schedule has no run at all
     */
    Instant checkedFirstRun(String schedulerId, Instant now) {
        String what = "job scheduler " + Validation.quote(schedulerId) + " with " + this;
        if (startAt != null && endAt != null && endAt.isBefore(startAt)) {
            throw new IllegalArgumentException(what + ": endAt " + endAt + " is before startAt " + startAt);
        }
        Optional<Instant> first = firstRun(now);
        if (first.isPresent()) {
            return first.get();
        }
        Optional<Instant> unbounded = endAt == null ? Optional.empty()
                : new Repeat(cron, zone, every, limit, startAt, null, immediately, misfire).firstRun(now);
        throw new IllegalArgumentException(what + " would never run: " + (unbounded.isPresent()
                ? "its first run, at " + unbounded.get() + ", is after endAt " + endAt
                : "cron expression \"" + cron + "\" matches no date (in zone " + zone.getId() + ")"));
    }

    private boolean withinEnd(Instant t) {
        return endAt == null || !t.isAfter(endAt);
    }

    /** @return a JSON-friendly description, stored with the scheduler (stable field names) */
    Map<String, Object> describe() {
        Map<String, Object> d = new LinkedHashMap<>();
        if (cron != null) {
            d.put("cron", cron);
            d.put("zone", zone.getId());
        } else {
            d.put("every", every.toMillis());
        }
        if (limit >= 0) {
            d.put("limit", limit);
        }
        if (startAt != null) {
            d.put("startAt", startAt.toEpochMilli());
        }
        if (endAt != null) {
            d.put("endAt", endAt.toEpochMilli());
        }
        if (immediately) {
            d.put("immediately", true);
        }
        if (misfire != MisfirePolicy.RUN_ONCE_NOW) {
            d.put("misfire", misfire.name());
        }
        return d;
    }

    /**
     * @param d a map from {@link #describe()} (numbers as Jackson reads them)
     * @return the schedule it describes
     */
    static Repeat fromDescription(Map<String, ?> d) {
        Repeat r = d.get("cron") != null
                ? cron(String.valueOf(d.get("cron")), String.valueOf(d.get("zone") == null ? "UTC" : d.get("zone")))
                : every(Duration.ofMillis(Validation.wholeNumber("every", d.get("every"))));
        if (d.get("limit") != null) {
            r = r.limit(Validation.wholeNumber("limit", d.get("limit")));
        }
        if (d.get("startAt") != null) {
            r = r.startAt(Instant.ofEpochMilli(Validation.wholeNumber("startAt", d.get("startAt"))));
        }
        if (d.get("endAt") != null) {
            r = r.endAt(Instant.ofEpochMilli(Validation.wholeNumber("endAt", d.get("endAt"))));
        }
        if (Boolean.TRUE.equals(d.get("immediately"))) {
            r = r.immediately(true);
        }
        if (d.get("misfire") != null) {
            r = r.misfire(MisfirePolicy.valueOf(String.valueOf(d.get("misfire"))));
        }
        return r;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Repeat r && describe().equals(r.describe());
    }

    @Override
    public int hashCode() {
        return describe().hashCode();
    }

    /** @return e.g. {@code Repeat{every=5m, limit=100, startAt=2026-11-21T10:00:00Z}}: times as ISO instants */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("Repeat{");
        if (cron != null) {
            b.append("cron=\"").append(cron).append("\", zone=").append(zone.getId());
        } else {
            b.append("every=").append(format(every));
        }
        if (limit >= 0) {
            b.append(", limit=").append(limit);
        }
        if (startAt != null) {
            b.append(", startAt=").append(startAt);
        }
        if (endAt != null) {
            b.append(", endAt=").append(endAt);
        }
        if (immediately) {
            b.append(", immediately=true");
        }
        if (misfire != MisfirePolicy.RUN_ONCE_NOW) {
            b.append(", misfire=").append(misfire);
        }
        return b.append('}').toString();
    }

    /** 90 minutes reads "1h30m", 1.5 s "1s500ms": whole units, largest first. */
    private static String format(Duration d) {
        long ms = d.toMillis();
        StringBuilder b = new StringBuilder();
        long[] sizes = {86_400_000L, 3_600_000L, 60_000L, 1_000L, 1L};
        String[] units = {"d", "h", "m", "s", "ms"};
        for (int i = 0; i < sizes.length; i++) {
            if (ms >= sizes[i]) {
                b.append(ms / sizes[i]).append(units[i]);
                ms %= sizes[i];
            }
        }
        return b.toString();
    }
}
