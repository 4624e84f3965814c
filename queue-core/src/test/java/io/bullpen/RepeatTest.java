package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RepeatTest {
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

    private static Instant at(String local, ZoneId zone) {
        return ZonedDateTime.of(java.time.LocalDateTime.parse(local), zone).toInstant();
    }

    @Test
    void everyStartsOneIntervalFromNowUnlessImmediately() {
        Instant now = Instant.parse("2026-11-21T10:00:00Z");
        Repeat every5m = Repeat.every(Duration.ofMinutes(5));

        assertThat(every5m.firstRun(now)).contains(now.plusSeconds(300));
        assertThat(every5m.immediately(true).firstRun(now)).contains(now);
        assertThat(every5m.startAt(now.plusSeconds(3600)).firstRun(now)).contains(now.plusSeconds(3600));
    }

    @Test
    void everyKeepsItsCadenceAndSkipsWhollyMissedPeriods() {
        Instant t0 = Instant.parse("2026-11-21T10:00:00Z");
        Repeat every5m = Repeat.every(Duration.ofMinutes(5));

        assertThat(every5m.nextRun(t0, t0)).contains(t0.plusSeconds(300));
        // Workers were down for 23 minutes: the next run is the first slot after now, on the grid.
        assertThat(every5m.nextRun(t0, t0.plusSeconds(23 * 60))).contains(t0.plusSeconds(25 * 60));
    }

    @Test
    void cronRunsAtTheLocalTimeOfItsZone() {
        Repeat nightly = Repeat.cron("0 2 * * *", ZoneId.of("Asia/Shanghai"));
        Instant now = Instant.parse("2026-11-21T10:00:00Z"); // 18:00 in Shanghai

        Instant first = nightly.firstRun(now).orElseThrow();

        assertThat(first).isEqualTo(Instant.parse("2026-11-21T18:00:00Z")); // 02:00 on the 22nd in Shanghai
        assertThat(nightly.nextRun(first, first)).contains(Instant.parse("2026-11-22T18:00:00Z"));
    }

    @Test
    void sixFieldCronHasSeconds() {
        Repeat everyTenSeconds = Repeat.cron("*/10 * * * * *", ZoneId.of("UTC"));
        Instant t = Instant.parse("2026-11-21T10:00:03Z");

        assertThat(everyTenSeconds.firstRun(t)).contains(Instant.parse("2026-11-21T10:00:10Z"));
    }

    @Test
    void limitStartAndEndBoundTheSchedule() {
        Instant t0 = Instant.parse("2026-11-21T10:00:00Z");
        Repeat bounded = Repeat.every(Duration.ofMinutes(1)).endAt(t0.plusSeconds(120));

        assertThat(bounded.nextRun(t0.plusSeconds(60), t0.plusSeconds(60))).contains(t0.plusSeconds(120));
        assertThat(bounded.nextRun(t0.plusSeconds(120), t0.plusSeconds(120))).isEmpty();
        assertThat(Repeat.every(Duration.ofMinutes(1)).limit(3).limit()).contains(3L);
        assertThatThrownBy(() -> Repeat.every(Duration.ofMinutes(1)).limit(0)).hasMessageContaining("0");
    }

    @Test
    void springForwardGapFiresOnceThatDayAtTheEndOfTheGap() {
        // 2026-03-08 02:00-03:00 does not exist in New York: the 02:30 run happens at 03:00 EDT.
        Repeat at0230 = Repeat.cron("30 2 * * *", NEW_YORK);
        List<Instant> fires = fires(at0230, at("2026-03-07T12:00", NEW_YORK), at("2026-03-09T12:00", NEW_YORK));

        assertThat(fires).extracting(f -> ZonedDateTime.ofInstant(f, NEW_YORK).toLocalDateTime().toString())
                .containsExactly("2026-03-08T03:00", "2026-03-09T02:30");
    }

    @Test
    void springForwardDoesNotMoveRunsOutsideTheGap() {
        Repeat at0400 = Repeat.cron("0 4 * * *", NEW_YORK);
        List<Instant> fires = fires(at0400, at("2026-03-07T12:00", NEW_YORK), at("2026-03-09T12:00", NEW_YORK));

        assertThat(fires).extracting(f -> ZonedDateTime.ofInstant(f, NEW_YORK).toLocalDateTime().toString())
                .containsExactly("2026-03-08T04:00", "2026-03-09T04:00");
    }

    @Test
    void fallBackHourFiresOnceNotTwice() {
        // 2026-11-01 01:00-02:00 happens twice in New York.
        Repeat at0130 = Repeat.cron("30 1 * * *", NEW_YORK);
        List<Instant> fires = fires(at0130, at("2026-10-31T12:00", NEW_YORK), at("2026-11-02T12:00", NEW_YORK));

        assertThat(fires).extracting(f -> ZonedDateTime.ofInstant(f, NEW_YORK).toLocalDate().toString())
                .containsExactly("2026-11-01", "2026-11-02");
    }

    @Test
    void hourlyCronAcrossFallBackFiresEveryRealHour() {
        Repeat hourly = Repeat.cron("0 * * * *", NEW_YORK);
        List<Instant> fires = fires(hourly, at("2026-11-01T00:30", NEW_YORK), at("2026-11-01T04:30", NEW_YORK));

        // 00:30 EDT to 04:30 EST is 5 real hours: fires at 01:00 EDT, 01:00 EST, 02:00, 03:00, 04:00.
        assertThat(fires).hasSize(5).doesNotHaveDuplicates().isSorted();
        for (int i = 1; i < fires.size(); i++) {
            assertThat(Duration.between(fires.get(i - 1), fires.get(i))).isLessThanOrEqualTo(Duration.ofHours(2));
        }
    }

    private static List<Instant> fires(Repeat repeat, Instant from, Instant to) {
        List<Instant> out = new ArrayList<>();
        Instant t = repeat.firstRun(from).orElseThrow();
        while (!t.isAfter(to)) {
            out.add(t);
            t = repeat.nextRun(t, t).orElseThrow();
        }
        return out;
    }

    @Test
    void invalidCronOrZoneIsRejectedWithTheExpression() {
        assertThatThrownBy(() -> Repeat.cron("61 * * * *", NEW_YORK)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("61 * * * *");
        assertThatThrownBy(() -> Repeat.cron("* * *", NEW_YORK)).hasMessageContaining("\"* * *\"").hasMessageContaining("3 fields");
        assertThatThrownBy(() -> Repeat.cron("0 2 * * *", "Mars/Olympus")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Mars/Olympus").hasMessageContaining("0 2 * * *");
    }

    /**
     * A ZoneId can name a region this JVM has no rules for: ZoneId.of refuses one, but Java
     * deserialization (a zone written by a JVM with newer time-zone data) does not.
     */
    private static ZoneId zoneWithoutRules(String id) throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
            out.writeObject(ZoneId.of("Europe/Berlin"));
        }
        String known = "Europe/Berlin";
        assertThat(id).hasSameSizeAs(known);
        byte[] patched = new String(bytes.toByteArray(), java.nio.charset.StandardCharsets.ISO_8859_1)
                .replace(known, id).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        try (java.io.ObjectInputStream in = new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(patched))) {
            return (ZoneId) in.readObject();
        }
    }

    @Test
    void aZoneWithoutRulesFailsAtCronWithTheMessageOfTheStringOverload() throws Exception {
        ZoneId unknown = zoneWithoutRules("Europe/Nowher");
        assertThat(unknown.getId()).isEqualTo("Europe/Nowher");

        Throwable fromZoneId = org.assertj.core.api.Assertions.catchThrowable(() -> Repeat.cron("0 2 * * *", unknown));
        Throwable fromString = org.assertj.core.api.Assertions.catchThrowable(() -> Repeat.cron("0 2 * * *", "Europe/Nowher"));

        assertThat(fromZoneId).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(fromString.getMessage())
                .hasMessageContaining("invalid time zone \"Europe/Nowher\" for cron expression \"0 2 * * *\"");
    }

    @Test
    void toStringShowsUnitsAndInstants() {
        assertThat(Repeat.every(Duration.ofMinutes(90)).limit(3).startAt(Instant.parse("2026-11-21T10:00:00Z"))
                .endAt(Instant.parse("2026-11-22T10:00:00Z")).immediately(true))
                .hasToString("Repeat{every=1h30m, limit=3, startAt=2026-11-21T10:00:00Z, endAt=2026-11-22T10:00:00Z, "
                        + "immediately=true}");
        assertThat(Repeat.every(Duration.ofMillis(1500))).hasToString("Repeat{every=1s500ms}");
        assertThat(Repeat.every(Duration.ofDays(1))).hasToString("Repeat{every=1d}");
        assertThat(Repeat.cron("0 2 * * *", NEW_YORK).misfire(MisfirePolicy.SKIP_MISSED))
                .hasToString("Repeat{cron=\"0 2 * * *\", zone=America/New_York, misfire=SKIP_MISSED}");
    }

    @Test
    void aScheduleWithoutAnyRunIsRefusedNamingTheSchedulerAndTheSchedule() {
        Instant now = Instant.parse("2026-11-21T10:00:00Z");

        assertThatThrownBy(() -> Repeat.cron("0 0 31 4 *").checkedFirstRun("april31", now))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("job scheduler \"april31\" with Repeat{cron=\"0 0 31 4 *\", zone=Z} would never run: "
                        + "cron expression \"0 0 31 4 *\" matches no date (in zone Z)");
        assertThatThrownBy(() -> Repeat.every(Duration.ofMinutes(5)).endAt(now.plusSeconds(60)).checkedFirstRun("short", now))
                .hasMessageContaining("its first run, at 2026-11-21T10:05:00Z, is after endAt 2026-11-21T10:01:00Z");
        assertThat(Repeat.cron("0 0 29 2 *").checkedFirstRun("leap", now)).isEqualTo(Instant.parse("2028-02-29T00:00:00Z"));
    }

    @Test
    void describeRoundTrips() {
        Repeat cron = Repeat.cron("0 2 * * *", ZoneId.of("Asia/Shanghai")).limit(10).misfire(MisfirePolicy.SKIP_MISSED);
        Repeat every = Repeat.every(Duration.ofSeconds(30)).startAt(Instant.ofEpochMilli(1_000))
                .endAt(Instant.ofEpochMilli(9_000_000)).immediately(true);

        assertThat(Repeat.fromDescription(cron.describe())).isEqualTo(cron);
        assertThat(Repeat.fromDescription(every.describe())).isEqualTo(every);
        assertThat(Repeat.fromDescription(Map.of("every", 30_000))).isEqualTo(Repeat.every(Duration.ofSeconds(30)));
    }
}
