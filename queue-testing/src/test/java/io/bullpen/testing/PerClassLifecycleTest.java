package io.bullpen.testing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/** With a per-class lifecycle JUnit builds the instance before beforeAll: the server must start lazily. */
@BullpenTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PerClassLifecycleTest {

    private final TestRedis redis;
    private final RedissonClient redisson;
    private BullpenTestContext classContext;

    PerClassLifecycleTest(TestRedis redis, RedissonClient redisson) {
        this.redis = redis;
        this.redisson = redisson;
    }

    @BeforeAll
    void beforeAll(BullpenTestContext context) {
        classContext = context;
    }

    @Test
    void constructorParametersReachTheClassServer(BullpenTestContext context, TestRedis methodRedis) {
        redisson.getBucket("bp:{" + context.queueName() + "}:id", StringCodec.INSTANCE).set("1");

        assertThat(methodRedis).isSameAs(redis);
        assertThat(context.redisson()).isSameAs(redisson);
        assertThat(context.snapshot(context.queueName()).string("id")).isEqualTo("1");
    }

    @Test
    void eachTestGetsItsOwnContextNotTheClassOne(BullpenTestContext context) {
        assertThat(classContext).isNotNull();
        assertThat(context).isNotSameAs(classContext);
        assertThat(context.queueName()).isNotEqualTo(classContext.queueName());
    }
}
