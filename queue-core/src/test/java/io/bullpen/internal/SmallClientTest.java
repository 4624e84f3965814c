package io.bullpen.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/** One small client per application client, shared by its leases and shut down with the last. */
@BullpenTest
class SmallClientTest {
    @Test
    void leasesOfOneApplicationClientShareOneClientThatTheLastLeaseShutsDown(BullpenTestContext ctx) {
        RedissonClient app = ctx.redis().newClient();
        RedissonClient other = ctx.redis().newClient();
        int before = SmallClient.openClients();
        SmallClient.Lease a = SmallClient.acquire(app, new SmallClient.Connections() {
        });
        SmallClient.Lease b = SmallClient.acquire(app, new SmallClient.Connections() {
        });
        SmallClient.Lease c = SmallClient.acquire(other, new SmallClient.Connections() {
        });

        assertThat(a.client()).isSameAs(b.client()).isNotSameAs(c.client()).isNotSameAs(app);
        assertThat(SmallClient.openClients()).isEqualTo(before + 2);

        a.close();
        a.close(); // idempotent: releases once
        assertThat(b.client().isShutdown()).isFalse();
        assertThat(b.client().getBucket(ctx.queueName(), StringCodec.INSTANCE).trySet("x")).isTrue();

        b.close();
        assertThat(a.client().isShutdown()).isTrue();
        assertThat(SmallClient.openClients()).isEqualTo(before + 1);
        SmallClient.Lease again = SmallClient.acquire(app, new SmallClient.Connections() {
        });
        assertThat(again.client()).isNotSameAs(a.client());
        again.close();
        c.close();
        assertThat(SmallClient.openClients()).isEqualTo(before);
    }
}
