package io.bullpen.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.redisson.api.RBucket;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

@BullpenTest
class BullpenRedisExtensionTest {

    private static final Set<String> QUEUE_NAMES_SEEN = ConcurrentHashMap.newKeySet();
    private static final Set<SettableClock> CLOCKS_SEEN = Collections.synchronizedSet(
            Collections.newSetFromMap(new IdentityHashMap<>()));
    private static TestRedis redisInBeforeAll;
    private static RedissonClient clientInBeforeAll;

    private final TestRedis redisInConstructor;
    private BullpenTestContext contextInBeforeEach;

    BullpenRedisExtensionTest(TestRedis redis) {
        this.redisInConstructor = redis;
    }

    @BeforeAll
    static void beforeAll(TestRedis redis, RedissonClient redisson) {
        redisInBeforeAll = redis;
        clientInBeforeAll = redisson;
    }

    @BeforeEach
    void beforeEach(BullpenTestContext context) {
        contextInBeforeEach = context;
    }

    @Test
    void givesAWorkingServerAndClient(RedissonClient redisson, BullpenTestContext context) {
        RBucket<String> bucket = redisson.getBucket("bp:{" + context.queueName() + "}:probe", StringCodec.INSTANCE);
        bucket.set("hello");

        assertThat(bucket.get()).isEqualTo("hello");
        assertThat(redisson.getKeys().count()).isPositive();
    }

    @Test
    void resolvesEveryParameterTypeConsistently(BullpenTestContext context, RedissonClient redisson,
            SettableClock clock, TestRedis redis) {
        assertThat(context).isSameAs(contextInBeforeEach);
        assertThat(context.redisson()).isSameAs(redisson).isSameAs(clientInBeforeAll);
        assertThat(context.clock()).isSameAs(clock);
        assertThat(context.redis()).isSameAs(redis).isSameAs(redisInConstructor).isSameAs(redisInBeforeAll);
    }

    @RepeatedTest(3)
    void queueNameIsFreshAndRandomPerTest(BullpenTestContext context) {
        assertThat(context.queueName()).matches("q-[0-9a-f]{10}").isEqualTo(context.queueName());
        assertThat(QUEUE_NAMES_SEEN.add(context.queueName())).as("never seen before").isTrue();
        assertThat(context.newQueueName()).matches("q-[0-9a-f]{10}").isNotEqualTo(context.queueName());
    }

    @RepeatedTest(2)
    void clockIsFreshPerTestAndStartsAtRealTime(SettableClock clock) {
        assertThat(CLOCKS_SEEN.add(clock)).as("a new clock").isTrue();
        assertThat(clock.instant()).isBetween(Instant.now().minusSeconds(60), Instant.now());
        assertThat(clock.instant().getNano() % 1_000_000).isZero();
    }

    @Test
    void describesTheServer(TestRedis redis) {
        assertThat(redis.kind()).isNotNull();
        assertThat(redis.uri()).isEqualTo("redis://" + redis.host() + ":" + redis.port());
        assertThat(redis.isRunning()).isTrue();
        if (redis.kind() == RedisKind.PROCESS || redis.kind() == RedisKind.EMBEDDED) {
            assertThat(redis.host()).isEqualTo("127.0.0.1");
            assertThat(LocalRedisSupport.answersPing(redis.port())).isTrue();
        }
    }

    @Test
    void newClientReachesTheSameServer(TestRedis redis, RedissonClient redisson, BullpenTestContext context) {
        RedissonClient other = redis.newClient();
        String key = "bp:{" + context.queueName() + "}:id";
        redisson.getBucket(key, StringCodec.INSTANCE).set("41");

        assertThat(other).isNotSameAs(redisson);
        assertThat(other.<String>getBucket(key, StringCodec.INSTANCE).get()).isEqualTo("41");
    }

    @Test
    void clientKeepsRedissonsDefaultCodecSoForgottenCodecsShow(RedissonClient redisson) {
        assertThat(redisson.getConfig().getCodec()).isNotInstanceOf(StringCodec.class);
    }

    @Nested
    class NestedClass {

        @Test
        void sharesTheEnclosingClassServerButNotItsTestContext(TestRedis redis, BullpenTestContext context) {
            assertThat(redis).isSameAs(redisInBeforeAll);
            assertThat(context).isSameAs(contextInBeforeEach);
            assertThat(QUEUE_NAMES_SEEN).doesNotContain(context.queueName());
        }

        @Test
        void snapshotShortcutsWork(BullpenTestContext context) {
            assertThat(context.snapshot(context.queueName()).keys()).isEmpty();
            context.assertInvariant(context.queueName());
            context.assertInvariant("other", context.queueName());
        }
    }
}
