package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.internal.KeyScheme;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.redisson.client.codec.StringCodec;

/**
 * The read-only accessors of the defaults for groups ({@link Queue#getDefaultGroupConcurrency()},
 * {@link Queue#getDefaultGroupRateLimit()}) read the meta fields of the design note, and agree
 * with the setters.
 */
@BullpenTest
class QueueGroupDefaultsTest {
    record Order(String id) {
    }

    @Test
    void noDefaultsSetReadsEmpty(BullpenTestContext ctx) {
        Queue<Order> q = Queue.builder(ctx.redisson(), ctx.queueName(), Order.class).build();
        assertThat(q.getDefaultGroupConcurrency()).isEqualTo(OptionalLong.empty());
        assertThat(q.getDefaultGroupRateLimit()).isEmpty();
    }

    @Test
    void readsTheStoredMetaFields(BullpenTestContext ctx) {
        Queue<Order> q = Queue.builder(ctx.redisson(), ctx.queueName(), Order.class).build();
        ctx.redisson().<String, String>getMap(new KeyScheme("bp", ctx.queueName()).meta(), StringCodec.INSTANCE)
                .putAll(Map.of("g:concurrency", "2", "g:rl:max", "10", "g:rl:per", "60000", "g:rl:burst", "3"));
        assertThat(q.getDefaultGroupConcurrency()).isEqualTo(OptionalLong.of(2));
        assertThat(q.getDefaultGroupRateLimit()).contains(RateLimit.of(10, Duration.ofMinutes(1)).burst(3));
    }

    /** Needs the group settings (QueueGroups). */
    @Test
    void readsWhatTheSettersWrote(BullpenTestContext ctx) {
        Queue<Order> q = Queue.builder(ctx.redisson(), ctx.queueName(), Order.class).build();
        q.setDefaultGroupConcurrency(4);
        q.setDefaultGroupRateLimit(RateLimit.of(5, Duration.ofSeconds(2)));
        assertThat(q.getDefaultGroupConcurrency()).isEqualTo(OptionalLong.of(4));
        assertThat(q.getDefaultGroupRateLimit()).isEqualTo(Optional.of(RateLimit.of(5, Duration.ofSeconds(2))));
        q.removeDefaultGroupConcurrency();
        q.removeDefaultGroupRateLimit();
        assertThat(q.getDefaultGroupConcurrency()).isEmpty();
        assertThat(q.getDefaultGroupRateLimit()).isEmpty();
    }
}
