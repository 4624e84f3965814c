package io.bullpen;

import static java.time.Duration.ZERO;
import static java.time.Duration.ofHours;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofMinutes;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class BackoffTest {

    private static final DoubleSupplier NEVER_CALLED = () -> {
        throw new AssertionError("a backoff without jitter must not draw a random number");
    };

    @Nested
    class Fixed {

        @Test
        void waitsTheSameDelayBeforeEveryRetry() {
            Backoff backoff = Backoff.fixed(ofSeconds(5));

            assertThat(backoff.delay(1)).isEqualTo(ofSeconds(5));
            assertThat(backoff.delay(2)).isEqualTo(ofSeconds(5));
            assertThat(backoff.delay(1000)).isEqualTo(ofSeconds(5));
        }

        @Test
        void acceptsZero() {
            assertThat(Backoff.fixed(ZERO).delay(3)).isEqualTo(ZERO);
        }

        @Test
        void neverDrawsARandomNumber() {
            assertThat(Backoff.fixed(ofSeconds(1)).delay(1, NEVER_CALLED)).isEqualTo(ofSeconds(1));
        }

        @Test
        void rejectsANegativeDelayNamingIt() {
            assertThatThrownBy(() -> Backoff.fixed(ofMillis(-5)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("backoff delay must be >= 0 but was -5ms");
        }

        @Test
        void rejectsANullDelay() {
            assertThatThrownBy(() -> Backoff.fixed(null))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessage("backoff delay must not be null");
        }

        @Test
        void dropsSubMillisecondPrecision() {
            assertThat(Backoff.fixed(Duration.ofNanos(1_500_000))).isEqualTo(Backoff.fixed(ofMillis(1)));
        }
    }

    @Nested
    class Exponential {

        @Test
        void doublesTheBaseAfterEveryFailedAttempt() {
            Backoff backoff = Backoff.exponential(ofSeconds(1));

            assertThat(backoff.delay(1)).isEqualTo(ofSeconds(1));
            assertThat(backoff.delay(2)).isEqualTo(ofSeconds(2));
            assertThat(backoff.delay(3)).isEqualTo(ofSeconds(4));
            assertThat(backoff.delay(10)).isEqualTo(ofSeconds(512));
        }

        @Test
        void staysAtTheCapOnceReached() {
            Backoff backoff = Backoff.exponential(ofSeconds(1)).maxDelay(ofSeconds(10));

            assertThat(backoff.delay(4)).isEqualTo(ofSeconds(8));
            assertThat(backoff.delay(5)).isEqualTo(ofSeconds(10));
            assertThat(backoff.delay(6)).isEqualTo(ofSeconds(10));
        }

        @Test
        void aCappedBackoffStaysCappedFarBeyondOverflow() {
            Backoff backoff = Backoff.exponential(ofSeconds(1)).maxDelay(ofHours(1));

            assertThat(backoff.delay(64)).isEqualTo(ofHours(1));
            assertThat(backoff.delay(100)).isEqualTo(ofHours(1));
            assertThat(backoff.delay(Integer.MAX_VALUE)).isEqualTo(ofHours(1));
        }

        @Test
        void anUncappedBackoffSaturatesInsteadOfOverflowing() {
            Backoff backoff = Backoff.exponential(ofSeconds(1));
            Duration saturated = ofMillis(Long.MAX_VALUE);

            assertThat(backoff.delay(100)).isEqualTo(saturated);
            assertThat(backoff.delay(Integer.MAX_VALUE)).isEqualTo(saturated);
            // The last exact doubling before saturation.
            assertThat(Backoff.exponential(ofMillis(1)).delay(63)).isEqualTo(ofMillis(1L << 62));
            assertThat(Backoff.exponential(ofMillis(3)).delay(63)).isEqualTo(saturated);
        }

        @Test
        void aZeroBaseStaysZero() {
            assertThat(Backoff.exponential(ZERO).delay(100)).isEqualTo(ZERO);
        }

        @Test
        void withoutJitterNeverDrawsARandomNumber() {
            assertThat(Backoff.exponential(ofSeconds(1)).delay(2, NEVER_CALLED)).isEqualTo(ofSeconds(2));
        }

        @Test
        void jitterScalesTheDelayByOneMinusFractionTimesRandom() {
            ExponentialBackoff backoff = Backoff.exponential(ofSeconds(1)).jitter(0.5);

            assertThat(backoff.delay(3, () -> 0.0)).isEqualTo(ofSeconds(4));
            assertThat(backoff.delay(3, () -> 0.5)).isEqualTo(ofSeconds(3));
            assertThat(backoff.delay(3, () -> 0.999_999)).isBetween(ofSeconds(2), ofSeconds(4));
        }

        @Test
        void fullJitterSpreadsDelaysFromZeroToTheComputedDelay() {
            ExponentialBackoff backoff = Backoff.exponential(ofSeconds(1)).jitter(1.0);

            assertThat(backoff.delay(2, () -> 0.0)).isEqualTo(ofSeconds(2));
            assertThat(backoff.delay(2, () -> 0.75)).isEqualTo(ofMillis(500));
            assertThat(backoff.delay(2, () -> 0.999_9)).isBetween(ZERO, ofMillis(1));
        }

        @Test
        void jitterAppliesAfterTheCap() {
            ExponentialBackoff backoff = Backoff.exponential(ofSeconds(1)).maxDelay(ofSeconds(10)).jitter(0.5);

            assertThat(backoff.delay(20, () -> 0.5)).isEqualTo(ofMillis(7_500));
        }

        @Test
        void jitteredDelaysStayInBoundsWithTheDefaultRandom() {
            ExponentialBackoff backoff = Backoff.exponential(ofSeconds(1)).jitter(0.25);

            for (int i = 0; i < 1_000; i++) {
                assertThat(backoff.delay(3)).isBetween(ofSeconds(3), ofSeconds(4));
            }
        }

        @Test
        void jitterOnASaturatedDelayDoesNotOverflow() {
            ExponentialBackoff backoff = Backoff.exponential(ofSeconds(1)).jitter(1.0);

            assertThat(backoff.delay(100, () -> 0.0)).isEqualTo(ofMillis(Long.MAX_VALUE));
            assertThat(backoff.delay(100, () -> 0.5)).isPositive();
        }

        @Test
        void rejectsARandomOutsideTheUnitInterval() {
            ExponentialBackoff backoff = Backoff.exponential(ofSeconds(1)).jitter(0.5);

            assertThatThrownBy(() -> backoff.delay(1, () -> 1.0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("random must return a value in [0, 1) but returned 1.0");
            assertThatThrownBy(() -> backoff.delay(1, () -> -0.1))
                    .hasMessage("random must return a value in [0, 1) but returned -0.1");
        }

        @Test
        void configurationReturnsNewInstancesAndKeepsTheOtherSettings() {
            ExponentialBackoff plain = Backoff.exponential(ofSeconds(1));
            ExponentialBackoff configured = plain.maxDelay(ofMinutes(1)).jitter(0.3);

            assertThat(plain.maxDelay()).isEmpty();
            assertThat(plain.jitter()).isZero();
            assertThat(configured.base()).isEqualTo(ofSeconds(1));
            assertThat(configured.maxDelay()).contains(ofMinutes(1));
            assertThat(configured.jitter()).isEqualTo(0.3);
            assertThat(configured.jitter(0.1).maxDelay()).contains(ofMinutes(1));
        }

        @Test
        void rejectsBadSettingsNamingTheValue() {
            assertThatThrownBy(() -> Backoff.exponential(ofMillis(-5)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("backoff base delay must be >= 0 but was -5ms");
            assertThatThrownBy(() -> Backoff.exponential(ofSeconds(2)).maxDelay(ofSeconds(1)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("backoff max delay must be >= the base delay 2000ms but was 1000ms");
            assertThatThrownBy(() -> Backoff.exponential(ofSeconds(1)).maxDelay(ofMillis(-1)))
                    .hasMessage("backoff max delay must be >= 0 but was -1ms");
            assertThatThrownBy(() -> Backoff.exponential(ofSeconds(1)).jitter(1.5))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("backoff jitter must be between 0 and 1 but was 1.5");
            assertThatThrownBy(() -> Backoff.exponential(ofSeconds(1)).jitter(-0.1))
                    .hasMessage("backoff jitter must be between 0 and 1 but was -0.1");
            assertThatThrownBy(() -> Backoff.exponential(ofSeconds(1)).jitter(Double.NaN))
                    .hasMessage("backoff jitter must be between 0 and 1 but was NaN");
        }
    }

    @Nested
    class Schedule {

        @Test
        void followsTheStepsAndRepeatsTheLastOne() {
            Backoff backoff = Backoff.schedule(ofSeconds(1), ofSeconds(10), ofMinutes(1));

            assertThat(backoff.delay(1)).isEqualTo(ofSeconds(1));
            assertThat(backoff.delay(2)).isEqualTo(ofSeconds(10));
            assertThat(backoff.delay(3)).isEqualTo(ofMinutes(1));
            assertThat(backoff.delay(4)).isEqualTo(ofMinutes(1));
            assertThat(backoff.delay(Integer.MAX_VALUE)).isEqualTo(ofMinutes(1));
        }

        @Test
        void followsTheStagedScheduleFromTheIssue() {
            List<Duration> steps = List.of(ofSeconds(15), ofMinutes(3), ofMinutes(10), ofMinutes(30),
                    ofMinutes(30), ofHours(1), ofHours(2), ofHours(6), ofHours(15));
            Backoff backoff = Backoff.schedule(steps);

            for (int attempt = 1; attempt <= steps.size(); attempt++) {
                assertThat(backoff.delay(attempt)).as("attempt %d", attempt).isEqualTo(steps.get(attempt - 1));
            }
            assertThat(backoff.delay(10)).isEqualTo(ofHours(15));
            assertThat(backoff.delay(50)).isEqualTo(ofHours(15));
        }

        @Test
        void aSingleStepBehavesLikeAFixedDelay() {
            assertThat(Backoff.schedule(ofSeconds(7)).delay(5, NEVER_CALLED)).isEqualTo(ofSeconds(7));
        }

        @Test
        void varargsAndListFormsAreEqual() {
            assertThat(Backoff.schedule(ofSeconds(1), ofSeconds(2)))
                    .isEqualTo(Backoff.schedule(List.of(ofSeconds(1), ofSeconds(2))))
                    .hasSameHashCodeAs(Backoff.schedule(List.of(ofSeconds(1), ofSeconds(2))));
        }

        @Test
        void isNotAffectedByLaterChangesToTheCallersArray() {
            Duration[] steps = {ofSeconds(1), ofSeconds(2)};
            Backoff backoff = Backoff.schedule(steps);
            steps[0] = ofHours(1);

            assertThat(backoff.delay(1)).isEqualTo(ofSeconds(1));
        }

        @Test
        void rejectsBadStepsNamingTheValue() {
            assertThatThrownBy(() -> Backoff.schedule())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("backoff schedule must have at least one step");
            assertThatThrownBy(() -> Backoff.schedule(List.of()))
                    .hasMessage("backoff schedule must have at least one step");
            assertThatThrownBy(() -> Backoff.schedule(ofSeconds(1), ofMillis(-5)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("backoff schedule step 1 must be >= 0 but was -5ms");
            assertThatThrownBy(() -> Backoff.schedule(ofSeconds(1), null))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessage("backoff schedule step 1 must not be null");
        }
    }

    @Test
    void everyKindRejectsAttemptsMadeBelowOne() {
        for (Backoff backoff : List.of(Backoff.fixed(ofSeconds(1)), Backoff.exponential(ofSeconds(1)),
                Backoff.schedule(ofSeconds(1)))) {
            assertThatThrownBy(() -> backoff.delay(0))
                    .as(backoff.toString())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("attemptsMade must be >= 1 but was 0");
            assertThatThrownBy(() -> backoff.delay(-3, () -> 0.0))
                    .hasMessage("attemptsMade must be >= 1 but was -3");
        }
    }

    @Nested
    class Description {

        @Test
        void describesAFixedBackoff() {
            assertThat(BackoffText.describe(Backoff.fixed(ofMillis(1500))))
                    .containsExactly(Map.entry("type", "fixed"), Map.entry("delay", 1500L));
        }

        @Test
        void describesAnExponentialBackoffWithOnlyTheSetOptions() {
            assertThat(BackoffText.describe(Backoff.exponential(ofSeconds(1))))
                    .containsExactly(Map.entry("type", "exponential"), Map.entry("delay", 1000L));
            assertThat(BackoffText.describe(Backoff.exponential(ofSeconds(1)).maxDelay(ofMinutes(1)).jitter(0.5)))
                    .containsExactly(Map.entry("type", "exponential"), Map.entry("delay", 1000L),
                            Map.entry("max", 60_000L), Map.entry("jitter", 0.5));
        }

        @Test
        void describesAScheduleBackoff() {
            assertThat(BackoffText.describe(Backoff.schedule(ofSeconds(15), ofMinutes(3))))
                    .containsExactly(Map.entry("type", "schedule"), Map.entry("delays", List.of(15_000L, 180_000L)));
        }

        @Test
        void roundTripsEveryKindToAnEqualBackoff() {
            for (Backoff backoff : List.of(
                    Backoff.fixed(ofMillis(1500)),
                    Backoff.exponential(ofSeconds(1)),
                    Backoff.exponential(ofSeconds(1)).maxDelay(ofHours(1)),
                    Backoff.exponential(ofSeconds(1)).jitter(0.25),
                    Backoff.exponential(ZERO).maxDelay(ZERO).jitter(1.0),
                    Backoff.schedule(ofSeconds(15), ofMinutes(3), ofMinutes(10), ofHours(15)))) {
                Backoff rebuilt = BackoffText.fromDescription(BackoffText.describe(backoff));

                assertThat(rebuilt).isEqualTo(backoff).hasSameHashCodeAs(backoff);
                assertThat(rebuilt.toString()).isEqualTo(backoff.toString());
            }
        }

        @Test
        void acceptsNumbersAsJacksonDecodesThem() {
            assertThat(BackoffText.fromDescription(Map.of("type", "fixed", "delay", 1500)))
                    .isEqualTo(Backoff.fixed(ofMillis(1500)));
            assertThat(BackoffText.fromDescription(Map.of("type", "fixed", "delay", 1500.0)))
                    .isEqualTo(Backoff.fixed(ofMillis(1500)));
            assertThat(BackoffText.fromDescription(Map.of("type", "exponential", "delay", 1000, "max", 60_000L, "jitter", 1)))
                    .isEqualTo(Backoff.exponential(ofSeconds(1)).maxDelay(ofMinutes(1)).jitter(1.0));
            assertThat(BackoffText.fromDescription(Map.of("type", "schedule", "delays", List.of(15_000, 180_000L, 600_000.0))))
                    .isEqualTo(Backoff.schedule(ofSeconds(15), ofMinutes(3), ofMinutes(10)));
        }

        @Test
        void ignoresKeysThatTheTypeDoesNotUse() {
            assertThat(BackoffText.fromDescription(Map.of("type", "fixed", "delay", 5, "addedLater", true)))
                    .isEqualTo(Backoff.fixed(ofMillis(5)));
        }

        @Test
        void describesAsAnUnmodifiableMap() {
            Map<String, Object> description = BackoffText.describe(Backoff.fixed(ofSeconds(1)));

            assertThatThrownBy(() -> description.put("delay", 0L)).isInstanceOf(UnsupportedOperationException.class);
        }

        @Test
        void rejectsBadDescriptionsNamingTheProblem() {
            assertThatThrownBy(() -> BackoffText.fromDescription(Map.of("type", "linear", "delay", 5)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("unknown backoff type \"linear\"; expected fixed, exponential or schedule");
            assertThatThrownBy(() -> BackoffText.fromDescription(Map.of("delay", 5)))
                    .hasMessage("unknown backoff type null; expected fixed, exponential or schedule");
            assertThatThrownBy(() -> BackoffText.fromDescription(Map.of("type", "fixed")))
                    .hasMessageStartingWith("fixed backoff description needs a \"delay\"");
            assertThatThrownBy(() -> BackoffText.fromDescription(Map.of("type", "fixed", "delay", 1.5)))
                    .hasMessage("backoff delay must be a whole number but was 1.5 (Double)");
            assertThatThrownBy(() -> BackoffText.fromDescription(Map.of("type", "fixed", "delay", "5s")))
                    .hasMessage("backoff delay must be a whole number but was \"5s\" (String)");
            assertThatThrownBy(() -> BackoffText.fromDescription(Map.of("type", "fixed", "delay", -5)))
                    .hasMessage("backoff delay must be >= 0 but was -5ms");
            assertThatThrownBy(() -> BackoffText.fromDescription(Map.of("type", "exponential", "delay", 5, "jitter", 2)))
                    .hasMessage("backoff jitter must be between 0 and 1 but was 2.0");
            assertThatThrownBy(() -> BackoffText.fromDescription(Map.of("type", "schedule", "delays", 5)))
                    .hasMessageStartingWith("schedule backoff description needs a \"delays\" list");
            assertThatThrownBy(() -> BackoffText.fromDescription(Map.of("type", "schedule", "delays", List.of())))
                    .hasMessage("backoff schedule must have at least one step");
        }
    }

    @Test
    void comparesByValue() {
        assertThat(Backoff.fixed(ofSeconds(1))).isEqualTo(Backoff.fixed(ofMillis(1000)))
                .isNotEqualTo(Backoff.fixed(ofSeconds(2)))
                .isNotEqualTo(Backoff.schedule(ofSeconds(1)))
                .isNotEqualTo(Backoff.exponential(ofSeconds(1)));
        assertThat(Backoff.exponential(ofSeconds(1)).jitter(0.5))
                .isEqualTo(Backoff.exponential(ofSeconds(1)).jitter(0.5))
                .isNotEqualTo(Backoff.exponential(ofSeconds(1)).jitter(0.25));
        assertThat(Backoff.exponential(ofSeconds(1)).jitter(-0.0)).isEqualTo(Backoff.exponential(ofSeconds(1)));
    }

    @Test
    void printsAsTheCodeThatBuildsIt() {
        assertThat(Backoff.fixed(ofMillis(1500))).hasToString("Backoff.fixed(1500ms)");
        assertThat(Backoff.exponential(ofSeconds(1)).maxDelay(ofMinutes(1)).jitter(0.5))
                .hasToString("Backoff.exponential(1000ms).maxDelay(60000ms).jitter(0.5)");
        assertThat(Backoff.schedule(ofSeconds(15), ofMinutes(3))).hasToString("Backoff.schedule(15000ms, 180000ms)");
    }
}
