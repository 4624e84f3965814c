package io.bullpen;

import static java.time.Duration.ofHours;
import static java.time.Duration.ofMillis;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class RetentionTest {

    @Test
    void keepAllHasNoLimits() {
        Retention retention = Retention.keepAll();

        assertThat(retention.count()).isEqualTo(-1);
        assertThat(retention.maxAgeMillis()).isEqualTo(-1);
        assertThat(retention.keepsAll()).isTrue();
        assertThat(retention.keepsNone()).isFalse();
    }

    @Test
    void keepNoneKeepsZeroJobs() {
        Retention retention = Retention.keepNone();

        assertThat(retention.count()).isZero();
        assertThat(retention.maxAgeMillis()).isEqualTo(-1);
        assertThat(retention.keepsNone()).isTrue();
        assertThat(retention.keepsAll()).isFalse();
        assertThat(Retention.keepLast(0)).isEqualTo(retention);
    }

    @Test
    void keepLastLimitsOnlyTheCount() {
        Retention retention = Retention.keepLast(100);

        assertThat(retention.count()).isEqualTo(100);
        assertThat(retention.maxAgeMillis()).isEqualTo(-1);
        assertThat(retention.keepsAll()).isFalse();
        assertThat(retention.keepsNone()).isFalse();
    }

    @Test
    void keepForLimitsOnlyTheAge() {
        Retention retention = Retention.keepFor(ofHours(1));

        assertThat(retention.count()).isEqualTo(-1);
        assertThat(retention.maxAgeMillis()).isEqualTo(3_600_000);
        assertThat(retention.keepsAll()).isFalse();
        assertThat(retention.keepsNone()).isFalse();
    }

    @Test
    void keepLimitsBothCountAndAge() {
        Retention retention = Retention.keep(1000, ofHours(24));

        assertThat(retention.count()).isEqualTo(1000);
        assertThat(retention.maxAgeMillis()).isEqualTo(86_400_000);
    }

    @Test
    void rejectsNegativeLimitsNamingTheValue() {
        assertThatThrownBy(() -> Retention.keepLast(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("retention count must be >= 0 but was -1");
        assertThatThrownBy(() -> Retention.keepFor(ofMillis(-5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("retention max age must be >= 0 but was -5ms");
        assertThatThrownBy(() -> Retention.keep(-2, ofHours(1)))
                .hasMessage("retention count must be >= 0 but was -2");
        assertThatThrownBy(() -> Retention.keep(10, ofMillis(-5)))
                .hasMessage("retention max age must be >= 0 but was -5ms");
        assertThatThrownBy(() -> Retention.keepFor(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("retention max age must not be null");
    }

    @Test
    void describesOnlyTheLimitsItHas() {
        assertThat(Retention.keepAll().describe()).isEmpty();
        assertThat(Retention.keepNone().describe()).containsExactly(Map.entry("count", 0));
        assertThat(Retention.keepLast(100).describe()).containsExactly(Map.entry("count", 100));
        assertThat(Retention.keepFor(ofHours(1)).describe()).containsExactly(Map.entry("age", 3_600_000L));
        assertThat(Retention.keep(5, ofMillis(10)).describe())
                .containsExactly(Map.entry("count", 5), Map.entry("age", 10L));
    }

    @Test
    void roundTripsToAnEqualRetention() {
        for (Retention retention : List.of(Retention.keepAll(), Retention.keepNone(), Retention.keepLast(100),
                Retention.keepFor(ofHours(1)), Retention.keep(5, Duration.ZERO))) {
            Retention rebuilt = Retention.fromDescription(retention.describe());

            assertThat(rebuilt).isEqualTo(retention).hasSameHashCodeAs(retention);
        }
    }

    @Test
    void acceptsNumbersAsJacksonDecodesThemAndIgnoresUnknownKeys() {
        assertThat(Retention.fromDescription(Map.of("count", 100L, "age", 3_600_000)))
                .isEqualTo(Retention.keep(100, ofHours(1)));
        assertThat(Retention.fromDescription(Map.of("count", 100.0, "future", "x")))
                .isEqualTo(Retention.keepLast(100));
        assertThat(Retention.fromDescription(Map.of())).isEqualTo(Retention.keepAll());
    }

    @Test
    void rejectsBadDescriptionsNamingTheValue() {
        assertThatThrownBy(() -> Retention.fromDescription(Map.of("count", -3)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("retention count must be >= 0 but was -3");
        assertThatThrownBy(() -> Retention.fromDescription(Map.of("age", -5)))
                .hasMessage("retention max age must be >= 0 but was -5ms");
        assertThatThrownBy(() -> Retention.fromDescription(Map.of("count", 3_000_000_000L)))
                .hasMessage("retention count must fit in an int but was 3000000000");
        assertThatThrownBy(() -> Retention.fromDescription(Map.of("count", "ten")))
                .hasMessage("retention count must be a whole number but was \"ten\" (String)");
    }

    @Test
    void comparesByValueAndPrintsAsTheCodeThatBuildsIt() {
        assertThat(Retention.keepLast(3)).isEqualTo(Retention.keepLast(3)).isNotEqualTo(Retention.keepLast(4));
        assertThat(Retention.keepFor(ofHours(1))).isNotEqualTo(Retention.keep(3, ofHours(1)));

        assertThat(Retention.keepAll()).hasToString("Retention.keepAll()");
        assertThat(Retention.keepNone()).hasToString("Retention.keepNone()");
        assertThat(Retention.keepLast(3)).hasToString("Retention.keepLast(3)");
        assertThat(Retention.keepFor(ofMillis(1500))).hasToString("Retention.keepFor(1500ms)");
        assertThat(Retention.keep(3, ofMillis(1500))).hasToString("Retention.keep(3, 1500ms)");
    }
}
