package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Queue's limit settings: stored in Redis, read back by any client, validated before anything is written. */
@BullpenTest
class QueueLimitsTest {
    private BullpenTestContext ctx;
    private Queue<String> queue;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.ctx = ctx;
        this.queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
    }

    @Test
    void aRateLimitIsStoredForEveryClientAndRemoved() {
        assertThat(queue.getRateLimit()).isEmpty();
        queue.setRateLimit(RateLimit.of(100, Duration.ofSeconds(1)).burst(10));
        Queue<String> other = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        assertThat(other.getRateLimit()).contains(RateLimit.of(100, Duration.ofSeconds(1)).burst(10));

        queue.setRateLimit(RateLimit.of(5, Duration.ofMinutes(1)));
        assertThat(other.getRateLimit()).contains(RateLimit.of(5, Duration.ofMinutes(1)));

        other.removeRateLimit();
        assertThat(queue.getRateLimit()).isEmpty();
    }

    @Test
    void aGlobalConcurrencyIsStoredAndRemoved() {
        assertThat(queue.getGlobalConcurrency()).isEmpty();
        queue.setGlobalConcurrency(7);
        assertThat(queue.getGlobalConcurrency()).hasValue(7);
        queue.removeGlobalConcurrency();
        assertThat(queue.getGlobalConcurrency()).isEmpty();
    }

    @Test
    void badLimitsAreRefusedNamingTheValueAndNothingIsWritten() {
        assertThatThrownBy(() -> queue.setGlobalConcurrency(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("but was 0");
        assertThatThrownBy(() -> RateLimit.of(0, Duration.ofSeconds(1))).hasMessageContaining("but was 0");
        assertThatThrownBy(() -> queue.setRateLimit(null)).isInstanceOf(NullPointerException.class);
        assertThat(queue.getGlobalConcurrency()).isEmpty();
        assertThat(queue.getRateLimit()).isEmpty();
    }
}
