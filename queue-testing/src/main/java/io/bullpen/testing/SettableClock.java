package io.bullpen.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@link Clock} that stands still until a test moves it; thread-safe, zone UTC.
 *
 * <p>Give it to the queue and worker under test so delays, backoffs and lock expiries become
 * deterministic: {@code clock.advance(Duration.ofSeconds(30))} instead of waiting 30 seconds.
 * Clocks from {@link #withZone(ZoneId)} are views that follow this clock.
 */
public final class SettableClock extends Clock {

    private final AtomicReference<Instant> current;

    private SettableClock(Instant start) {
        this.current = new AtomicReference<>(Objects.requireNonNull(start, "start"));
    }

    /**
     * A clock standing at the given instant.
     *
     * @param instant where the clock starts
     * @return a new clock
     */
    public static SettableClock at(Instant instant) {
        return new SettableClock(instant);
    }

    /**
     * A clock standing at the current time truncated to milliseconds (Redis scores and script
     * arguments are epoch milliseconds, so finer digits would only cause off-by-one surprises).
     *
     * @return a new clock
     */
    public static SettableClock now() {
        return new SettableClock(Instant.now().truncatedTo(ChronoUnit.MILLIS));
    }

    /**
     * Moves the clock to an instant (backwards too, to simulate clock skew).
     *
     * @param instant the new time
     */
    public void set(Instant instant) {
        current.set(Objects.requireNonNull(instant, "instant"));
    }

    /**
     * Moves the clock by a duration, atomically with respect to concurrent moves.
     *
     * @param duration how far; negative moves it back
     * @return the new time
     */
    public Instant advance(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        return current.updateAndGet(instant -> instant.plus(duration));
    }

    /**
     * The current time of this clock.
     *
     * @return the instant last set
     */
    @Override
    public Instant instant() {
        return current.get();
    }

    /**
     * The current time of this clock in epoch milliseconds.
     *
     * @return {@code instant().toEpochMilli()}
     */
    @Override
    public long millis() {
        return current.get().toEpochMilli();
    }

    /**
     * Always UTC.
     *
     * @return {@link ZoneOffset#UTC}
     */
    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    /**
     * A view of this clock in another zone; it moves whenever this clock moves.
     *
     * @param zone the zone of the view
     * @return this clock for UTC, else a view
     */
    @Override
    public Clock withZone(ZoneId zone) {
        Objects.requireNonNull(zone, "zone");
        return zone.equals(ZoneOffset.UTC) ? this : new ZonedView(this, zone);
    }

    /**
     * Describes the clock.
     *
     * @return the current instant
     */
    @Override
    public String toString() {
        return "SettableClock[" + instant() + "]";
    }

    /** Follows a settable clock in another zone. */
    private static final class ZonedView extends Clock {
        private final SettableClock source;
        private final ZoneId zone;

        ZonedView(SettableClock source, ZoneId zone) {
            this.source = source;
            this.zone = zone;
        }

        @Override
        public ZoneId getZone() {
            return zone;
        }

        @Override
        public Clock withZone(ZoneId newZone) {
            return source.withZone(newZone);
        }

        @Override
        public Instant instant() {
            return source.instant();
        }

        @Override
        public long millis() {
            return source.millis();
        }

        @Override
        public String toString() {
            return "SettableClock[" + instant() + ", " + zone + "]";
        }
    }
}
