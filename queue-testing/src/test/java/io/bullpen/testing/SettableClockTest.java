package io.bullpen.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class SettableClockTest {

    private static final Instant T0 = Instant.parse("2024-03-10T12:00:00.123Z");

    @Test
    void standsStillAtTheGivenInstant() {
        SettableClock clock = SettableClock.at(T0);

        assertThat(clock.instant()).isEqualTo(T0);
        assertThat(clock.instant()).isEqualTo(T0);
        assertThat(clock.millis()).isEqualTo(T0.toEpochMilli());
        assertThat(clock.getZone()).isEqualTo(ZoneOffset.UTC);
    }

    @Test
    void nowStartsAtTheRealTimeTruncatedToMillis() {
        Instant before = Instant.now().minusMillis(1);
        SettableClock clock = SettableClock.now();
        Instant after = Instant.now();

        assertThat(clock.instant()).isBetween(before, after);
        assertThat(clock.instant().getNano() % 1_000_000).isZero();
    }

    @Test
    void setMovesTheClockAnywhereIncludingBackwards() {
        SettableClock clock = SettableClock.at(T0);

        clock.set(T0.plusSeconds(60));
        assertThat(clock.instant()).isEqualTo(T0.plusSeconds(60));
        clock.set(T0.minusSeconds(60));
        assertThat(clock.instant()).isEqualTo(T0.minusSeconds(60));
    }

    @Test
    void advanceAddsTheDurationAndReturnsTheNewTime() {
        SettableClock clock = SettableClock.at(T0);

        assertThat(clock.advance(Duration.ofMillis(1500))).isEqualTo(T0.plusMillis(1500));
        assertThat(clock.advance(Duration.ofMillis(-500))).isEqualTo(T0.plusMillis(1000));
        assertThat(clock.millis()).isEqualTo(T0.toEpochMilli() + 1000);
    }

    @Test
    void rejectsNulls() {
        SettableClock clock = SettableClock.at(T0);

        assertThatNullPointerException().isThrownBy(() -> SettableClock.at(null));
        assertThatNullPointerException().isThrownBy(() -> clock.set(null));
        assertThatNullPointerException().isThrownBy(() -> clock.advance(null));
        assertThatNullPointerException().isThrownBy(() -> clock.withZone(null));
    }

    @Test
    void withZoneGivesAViewThatFollowsTheClock() {
        SettableClock clock = SettableClock.at(T0);
        ZoneId paris = ZoneId.of("Europe/Paris");

        Clock view = clock.withZone(paris);
        clock.advance(Duration.ofHours(1));

        assertThat(view.getZone()).isEqualTo(paris);
        assertThat(view.instant()).isEqualTo(T0.plusSeconds(3600));
        assertThat(view.millis()).isEqualTo(clock.millis());
        assertThat(ZonedDateTime.now(view).getHour()).isEqualTo(14);
        assertThat(clock.withZone(ZoneOffset.UTC)).isSameAs(clock);
        assertThat(view.withZone(ZoneOffset.UTC)).isSameAs(clock);
    }

    @Test
    void concurrentAdvancesAreNotLost() throws InterruptedException {
        SettableClock clock = SettableClock.at(T0);
        int threads = 8;
        int advancesEach = 10_000;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int j = 0; j < advancesEach; j++) {
                    clock.advance(Duration.ofMillis(1));
                }
            });
            worker.start();
            workers.add(worker);
        }
        start.countDown();
        for (Thread worker : workers) {
            worker.join(10_000);
        }

        assertThat(clock.instant()).isEqualTo(T0.plusMillis((long) threads * advancesEach));
    }
}
