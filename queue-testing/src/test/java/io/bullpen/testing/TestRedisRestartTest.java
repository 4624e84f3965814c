package io.bullpen.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.redisson.api.RBucket;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

@BullpenTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TestRedisRestartTest {

    private static final Duration RECONNECT = Duration.ofSeconds(30);

    private static void assumeRestartable(TestRedis redis) {
        assumeTrue(redis.kind() == RedisKind.PROCESS || redis.kind() == RedisKind.EMBEDDED,
                "stop()/start() need a PROCESS or EMBEDDED server, this one is " + redis.kind());
    }

    private static void awaitUsable(RedissonClient redisson, String key) {
        RBucket<String> bucket = redisson.getBucket(key, StringCodec.INSTANCE);
        Poll.until(RECONNECT, "client works after restart", () -> {
            bucket.set("ping");
            return "ping".equals(bucket.get());
        });
    }

    @Test
    @Order(1)
    void stopAndStartGiveAnEmptyServerOnTheSamePortAndTheClientReconnects(TestRedis redis, RedissonClient redisson,
            BullpenTestContext context) {
        assumeRestartable(redis);
        String before = "bp:{" + context.queueName() + "}:before";
        redisson.getBucket(before, StringCodec.INSTANCE).set("kept?");
        int port = redis.port();

        redis.stop();
        assertThat(redis.isRunning()).isFalse();
        assertThat(LocalRedisSupport.answersPing(port)).isFalse();

        redis.start();
        assertThat(redis.isRunning()).isTrue();
        assertThat(redis.port()).isEqualTo(port);
        assertThat(LocalRedisSupport.answersPing(port)).isTrue();
        awaitUsable(redisson, "bp:{" + context.queueName() + "}:after");
        assertThat(redisson.getBucket(before, StringCodec.INSTANCE).get()).as("persistence is off").isNull();
    }

    @Test
    @Order(2)
    void startAndStopAreIdempotent(TestRedis redis) {
        assumeRestartable(redis);

        redis.start();
        assertThat(redis.isRunning()).isTrue();
        redis.stop();
        redis.stop();
        assertThat(redis.isRunning()).isFalse();
        // Left stopped on purpose: the next test checks the extension starts it again.
    }

    @Test
    @Order(3)
    void aServerLeftStoppedIsStartedAgainBeforeTheNextTest(TestRedis redis, RedissonClient redisson,
            BullpenTestContext context) {
        assumeRestartable(redis);

        assertThat(redis.isRunning()).isTrue();
        awaitUsable(redisson, "bp:{" + context.queueName() + "}:probe");
    }

    @Test
    @Order(4)
    void serversTheHarnessDidNotStartRefuseStopAndStart(TestRedis redis) {
        assumeTrue(redis.kind() == RedisKind.EXTERNAL || redis.kind() == RedisKind.CONTAINER,
                "only EXTERNAL and CONTAINER servers refuse, this one is " + redis.kind());

        assertThatThrownBy(redis::stop).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining(redis.kind().name());
        assertThatThrownBy(redis::start).isInstanceOf(UnsupportedOperationException.class);
    }
}
