package io.bullpen;

import static java.time.Duration.ofMillis;
import static java.time.Duration.ofMinutes;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class JobOptionsTest {

    private static JobOptions everythingSet() {
        return JobOptions.builder()
                .delay(ofSeconds(5))
                .priority(7)
                .attempts(3)
                .backoff(Backoff.exponential(ofSeconds(1)).maxDelay(ofMinutes(1)).jitter(0.5))
                .jobId("order-123")
                .removeOnComplete(Retention.keepLast(100))
                .removeOnFail(Retention.keepFor(ofMinutes(10)))
                .timeout(ofSeconds(30))
                .build();
    }

    @Test
    void defaultsRunOnceImmediatelyWithAnAutomaticIdAndKeepEverything() {
        JobOptions options = JobOptions.defaults();

        assertThat(options.delay()).isEqualTo(Duration.ZERO);
        assertThat(options.priority()).isZero();
        assertThat(options.attempts()).isEqualTo(1);
        assertThat(options.backoff()).isEmpty();
        assertThat(options.jobId()).isEmpty();
        assertThat(options.lifo()).isFalse();
        assertThat(options.removeOnComplete()).isEqualTo(Retention.keepAll());
        assertThat(options.removeOnFail()).isEqualTo(Retention.keepAll());
        assertThat(options.timeout()).isEmpty();
        assertThat(JobOptions.builder().build()).isEqualTo(options);
    }

    @Test
    void theBuilderSetsEveryOption() {
        JobOptions options = everythingSet();

        assertThat(options.delay()).isEqualTo(ofSeconds(5));
        assertThat(options.priority()).isEqualTo(7);
        assertThat(options.attempts()).isEqualTo(3);
        assertThat(options.backoff()).contains(Backoff.exponential(ofSeconds(1)).maxDelay(ofMinutes(1)).jitter(0.5));
        assertThat(options.jobId()).contains("order-123");
        assertThat(options.removeOnComplete()).isEqualTo(Retention.keepLast(100));
        assertThat(options.removeOnFail()).isEqualTo(Retention.keepFor(ofMinutes(10)));
        assertThat(options.timeout()).contains(ofSeconds(30));
    }

    @Test
    void toBuilderDerivesAChangedCopyAndLeavesTheOriginalAlone() {
        JobOptions original = everythingSet();

        JobOptions copy = original.toBuilder().build();
        JobOptions changed = original.toBuilder().attempts(10).jobId(null).build();

        assertThat(copy).isEqualTo(original).hasSameHashCodeAs(original);
        assertThat(changed.attempts()).isEqualTo(10);
        assertThat(changed.jobId()).isEmpty();
        assertThat(changed.priority()).isEqualTo(7);
        assertThat(original.attempts()).isEqualTo(3);
    }

    @Test
    void nullClearsTheOptionalOptions() {
        JobOptions options = everythingSet().toBuilder().backoff(null).jobId(null).timeout(null).build();

        assertThat(options.backoff()).isEmpty();
        assertThat(options.jobId()).isEmpty();
        assertThat(options.timeout()).isEmpty();
    }

    @Test
    void lifoIsAllowedWithoutPriority() {
        assertThat(JobOptions.builder().lifo(true).build().lifo()).isTrue();
    }

    @Test
    void acceptsTheBoundaryValues() {
        assertThat(JobOptions.builder().priority(JobOptions.MAX_PRIORITY).build().priority()).isEqualTo(2_097_152);
        assertThat(JobOptions.builder().priority(0).delay(Duration.ZERO).attempts(1).build())
                .isEqualTo(JobOptions.defaults());
        assertThat(JobOptions.builder().timeout(ofMillis(1)).build().timeout()).contains(ofMillis(1));
    }

    @Test
    void rejectsEveryBadValueNamingIt() {
        assertThatThrownBy(() -> JobOptions.builder().delay(ofMillis(-5)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("delay must be >= 0 but was -5ms");
        assertThatThrownBy(() -> JobOptions.builder().priority(-1).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("priority must be between 0 and 2097152 but was -1");
        assertThatThrownBy(() -> JobOptions.builder().priority(2_097_153).build())
                .hasMessage("priority must be between 0 and 2097152 but was 2097153");
        assertThatThrownBy(() -> JobOptions.builder().attempts(0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("attempts must be >= 1 but was 0");
        assertThatThrownBy(() -> JobOptions.builder().lifo(true).priority(5).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("lifo cannot be combined with priority 5");
        assertThatThrownBy(() -> JobOptions.builder().timeout(Duration.ZERO).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("timeout must be > 0 but was 0ms");
        assertThatThrownBy(() -> JobOptions.builder().timeout(ofMillis(-5)).build())
                .hasMessage("timeout must be > 0 but was -5ms");
        assertThatThrownBy(() -> JobOptions.builder().jobId("123").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"123\"")
                .hasMessageContaining("reserved for automatic ids");
        assertThatThrownBy(() -> JobOptions.builder().jobId("a:b").build())
                .hasMessage("job id must not contain ':' but was \"a:b\"");
    }

    @Test
    void rejectsNullsForTheRequiredOptions() {
        assertThatThrownBy(() -> JobOptions.builder().delay(null).build())
                .isInstanceOf(NullPointerException.class)
                .hasMessage("delay must not be null");
        assertThatThrownBy(() -> JobOptions.builder().removeOnComplete(null).build())
                .isInstanceOf(NullPointerException.class)
                .hasMessage("removeOnComplete must not be null");
        assertThatThrownBy(() -> JobOptions.builder().removeOnFail(null).build())
                .isInstanceOf(NullPointerException.class)
                .hasMessage("removeOnFail must not be null");
    }

    @Test
    void theDefaultsDescribeAsAnEmptyMap() {
        assertThat(JobOptions.defaults().describe()).isEmpty();
        assertThat(JobOptions.builder().removeOnComplete(Retention.keepAll()).build().describe()).isEmpty();
    }

    @Test
    void describesOnlyTheOptionsThatDifferFromTheDefaults() {
        assertThat(JobOptions.builder().attempts(3).build().describe())
                .containsExactly(Map.entry("attempts", 3));
        assertThat(JobOptions.builder().lifo(true).removeOnComplete(Retention.keepNone()).build().describe())
                .containsExactly(Map.entry("lifo", true), Map.entry("removeOnComplete", Map.of("count", 0)));
    }

    @Test
    void describesEveryOptionWithItsKey() {
        assertThat(everythingSet().describe()).containsExactly(
                Map.entry("delay", 5000L),
                Map.entry("priority", 7),
                Map.entry("attempts", 3),
                Map.entry("backoff", Map.of("type", "exponential", "delay", 1000L, "max", 60_000L, "jitter", 0.5)),
                Map.entry("jobId", "order-123"),
                Map.entry("removeOnComplete", Map.of("count", 100)),
                Map.entry("removeOnFail", Map.of("age", 600_000L)),
                Map.entry("timeout", 30_000L));
    }

    @Test
    void roundTripsToEqualOptions() {
        for (JobOptions options : List.of(JobOptions.defaults(), everythingSet(),
                JobOptions.builder().lifo(true).backoff(Backoff.schedule(ofSeconds(15), ofMinutes(3))).build(),
                JobOptions.builder().removeOnFail(Retention.keepNone()).backoff(Backoff.fixed(ofSeconds(1))).build(),
                JobOptions.builder().expireAfter(ofMinutes(5)).build(),
                JobOptions.builder().expireAt(java.time.Instant.ofEpochMilli(1_900_000_000_123L)).build())) {
            JobOptions rebuilt = JobOptions.fromDescription(options.describe());

            assertThat(rebuilt).isEqualTo(options).hasSameHashCodeAs(options);
        }
    }

    @Test
    void readsADescriptionAsJacksonDecodesItAndIgnoresUnknownKeys() {
        Map<String, Object> decoded = new HashMap<>();
        decoded.put("delay", 5000);
        decoded.put("priority", 7.0);
        decoded.put("attempts", 3L);
        decoded.put("backoff", Map.of("type", "fixed", "delay", 1000));
        decoded.put("removeOnComplete", Map.of("count", 100));
        decoded.put("timeout", 30000);
        decoded.put("addedInALaterVersion", List.of(1, 2));
        decoded.put("jobId", null);

        assertThat(JobOptions.fromDescription(decoded)).isEqualTo(JobOptions.builder()
                .delay(ofSeconds(5))
                .priority(7)
                .attempts(3)
                .backoff(Backoff.fixed(ofSeconds(1)))
                .removeOnComplete(Retention.keepLast(100))
                .timeout(ofSeconds(30))
                .build());
    }

    @Test
    void rejectsAnInvalidDescriptionNamingTheValue() {
        assertThatThrownBy(() -> JobOptions.fromDescription(Map.of("attempts", 0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("attempts must be >= 1 but was 0");
        assertThatThrownBy(() -> JobOptions.fromDescription(Map.of("lifo", "yes")))
                .hasMessage("lifo must be a boolean but was yes (String)");
        assertThatThrownBy(() -> JobOptions.fromDescription(Map.of("jobId", 42)))
                .hasMessage("jobId must be a string but was 42 (Integer)");
        assertThatThrownBy(() -> JobOptions.fromDescription(Map.of("backoff", 1000)))
                .hasMessage("backoff must be an object but was 1000 (Integer)");
        assertThatThrownBy(() -> JobOptions.fromDescription(Map.of("delay", 1.5)))
                .hasMessage("delay must be a whole number but was 1.5 (Double)");
    }

    @Test
    void durationsKeepMillisecondPrecisionSoTheyRoundTrip() {
        JobOptions options = JobOptions.builder().delay(Duration.ofNanos(1_500_000)).build();

        assertThat(options.delay()).isEqualTo(ofMillis(1));
        assertThat(JobOptions.fromDescription(options.describe())).isEqualTo(options);
    }

    @Test
    void printsOnlyTheNonDefaultOptions() {
        assertThat(JobOptions.defaults()).hasToString("JobOptions{}");
        assertThat(JobOptions.builder().attempts(3).jobId("order-1").timeout(ofSeconds(1)).build())
                .hasToString("JobOptions{attempts=3, jobId=\"order-1\", timeout=1000ms}");
    }

    /** {@link JobSpec} pairs a name and data with these options. */
    @Nested
    class Specs {

        @Test
        void ofUsesTheDefaultOptions() {
            JobSpec<String> spec = JobSpec.of("send-email", "alice@example.com");

            assertThat(spec.name()).isEqualTo("send-email");
            assertThat(spec.data()).isEqualTo("alice@example.com");
            assertThat(spec.options()).isSameAs(JobOptions.defaults());
        }

        @Test
        void carriesGivenOptionsAndAllowsNullData() {
            JobOptions options = JobOptions.builder().attempts(3).build();

            assertThat(JobSpec.of("ping", null, options)).isEqualTo(new JobSpec<>("ping", null, options));
        }

        @Test
        void acceptsANameOf1024Characters() {
            assertThat(JobSpec.of("n".repeat(1024), 1).name()).hasSize(1024);
        }

        @Test
        void rejectsAMissingOrOverlongNameAndMissingOptions() {
            assertThatThrownBy(() -> JobSpec.of(null, 1))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessage("job name must not be null");
            assertThatThrownBy(() -> JobSpec.of("ping", 1, null))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessage("job options must not be null");
            assertThatThrownBy(() -> JobSpec.of("n".repeat(1025), 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("job name must be at most 1024 characters but was \"" + "n".repeat(40)
                            + "...\" (1025 characters)");
        }
    }

    @Test
    void expiryIsOneDeadlineRefusedWhenBadNamingTheValue() {
        assertThat(JobOptions.builder().expireAfter(ofMinutes(5)).build().describe())
                .containsEntry("expireAfter", 300_000L);
        assertThat(JobOptions.builder().expireAfter(ofMinutes(5)).expireAt(java.time.Instant.EPOCH).build().expireAfter())
                .as("the later setter replaces the other").isEmpty();
        assertThatThrownBy(() -> JobOptions.builder().expireAfter(java.time.Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("expireAfter must be > 0 but was -1ms");
        assertThatThrownBy(() -> JobOptions.builder().expireAfter(java.time.Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expireAfter must be > 0");
        assertThatThrownBy(() -> JobOptions.builder().expireAt(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("expireAt must not be null but was null");
    }
}
