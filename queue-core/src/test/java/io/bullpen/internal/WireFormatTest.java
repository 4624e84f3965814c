package io.bullpen.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bullpen.Backoff;
import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.Repeat;
import io.bullpen.Retention;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The internals reach the package-private codec of {@code io.bullpen} through {@link WireFormat}. */
class WireFormatTest {

    @Test
    void optionsBackoffRetentionAndRepeatRoundTripThroughTheirDescriptions() {
        JobOptions options = JobOptions.builder().attempts(3).backoff(Backoff.fixed(Duration.ofSeconds(2)))
                .removeOnComplete(Retention.keepLast(10)).build();
        assertThat(WireFormat.describe(options)).containsEntry("attempts", 3);
        assertThat(WireFormat.jobOptions(WireFormat.describe(options))).isEqualTo(options);
        assertThat(WireFormat.backoff(WireFormat.describe(Backoff.fixed(Duration.ofSeconds(2)))))
                .isEqualTo(Backoff.fixed(Duration.ofSeconds(2)));
        assertThat(WireFormat.retention(WireFormat.describe(Retention.keepLast(10)))).isEqualTo(Retention.keepLast(10));
        Repeat repeat = Repeat.every(Duration.ofMinutes(5)).limit(3);
        assertThat(WireFormat.repeat(WireFormat.describe(repeat))).isEqualTo(repeat);
    }

    @Test
    void aJobIsRebuiltFromItsHashAndCopiedWithAnotherAttemptsMade() {
        Map<String, String> hash = Map.of("name", "charge", "data", "42", "atm", "0");
        Job<Integer> job = WireFormat.job("7", hash, JsonCodec.type(Integer.class));
        assertThat(job.data()).isEqualTo(42);
        assertThat(WireFormat.fields(job)).isEqualTo(hash);
        assertThat(WireFormat.withAttemptsMade(job, 1).attemptsMade()).isEqualTo(1);
    }

    @Test
    void theCodecIsInstalledOnce() {
        assertThat(WireFormat.describe(JobOptions.defaults())).isEmpty(); // io.bullpen has installed its codec
        assertThatThrownBy(() -> WireFormat.install(new WireFormat.Access() {
            @Override
            public <T> Job<T> job(String id, Map<String, String> hash, com.fasterxml.jackson.databind.JavaType t) {
                return null;
            }

            @Override
            public <T> Job<T> withAttemptsMade(Job<T> job, int attemptsMade) {
                return null;
            }

            @Override
            public Map<String, String> fields(Job<?> job) {
                return null;
            }

            @Override
            public Map<String, Object> describe(JobOptions options) {
                return null;
            }

            @Override
            public JobOptions jobOptions(Map<String, ?> description) {
                return null;
            }

            @Override
            public Map<String, Object> describe(Backoff backoff) {
                return null;
            }

            @Override
            public Backoff backoff(Map<String, ?> description) {
                return null;
            }

            @Override
            public Map<String, Object> describe(Retention retention) {
                return null;
            }

            @Override
            public Retention retention(Map<String, ?> description) {
                return null;
            }

            @Override
            public Map<String, Object> describe(Repeat repeat) {
                return null;
            }

            @Override
            public Repeat repeat(Map<String, ?> description) {
                return null;
            }

            @Override
            public JobOptions withDefaults(JobOptions defaults, JobOptions own) {
                return null;
            }
        })).isInstanceOf(IllegalStateException.class).hasMessageContaining("installed already");
    }
}
