package io.bullpen.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@BullpenTest
class RedisLauncherTest {

    @Test
    void usesTheRedisThatAnswersPing(BullpenTestContext ctx) {
        try (RedisLauncher redis = RedisLauncher.localOrEmbedded(ctx.redis().uri())) {
            assertThat(redis.url()).isEqualTo(ctx.redis().uri());
            assertThat(redis.isEmbedded()).isFalse();
        }
        assertThat(RedisLauncher.ping(ctx.redis().uri(), Duration.ofMillis(300))).isEqualTo("+PONG");   // not stopped
    }

    @Test
    void startsAnEmbeddedRedisWhenNothingAnswersAndStopsItOnClose() throws IOException {
        String nothingThere = "redis://127.0.0.1:" + unusedPort();
        String url;
        try (RedisLauncher redis = RedisLauncher.localOrEmbedded(nothingThere)) {
            url = redis.url();
            assertThat(redis.isEmbedded()).isTrue();
            assertThat(url).isNotEqualTo(nothingThere);
            assertThat(RedisLauncher.ping(url, Duration.ofMillis(300))).isEqualTo("+PONG");
        }
        assertThat(RedisLauncher.ping(url, Duration.ofMillis(300))).isNull();
    }

    @Test
    void theProbeAddressComesFromASystemPropertyWhenSet() throws IOException {
        String nothingThere = "redis://127.0.0.1:" + unusedPort();
        String before = System.getProperty(RedisLauncher.PROBE_PROPERTY);
        System.setProperty(RedisLauncher.PROBE_PROPERTY, nothingThere);
        try (RedisLauncher redis = RedisLauncher.localOrEmbedded()) {
            assertThat(redis.isEmbedded()).isTrue();
        } finally {
            if (before == null) {
                System.clearProperty(RedisLauncher.PROBE_PROPERTY);
            } else {
                System.setProperty(RedisLauncher.PROBE_PROPERTY, before);
            }
        }
    }

    @Test
    void keepsPasswordsOutOfTheLog() {
        assertThat(RedisLauncher.redact("redis://:s3cret@10.0.0.5:6380")).isEqualTo("redis://:***@10.0.0.5:6380");
        assertThat(RedisLauncher.redact("rediss://app:s3cret@host:6380/0")).isEqualTo("rediss://app:***@host:6380/0");
        assertThat(RedisLauncher.redact("redis://127.0.0.1:6379")).isEqualTo("redis://127.0.0.1:6379");
    }

    private static int unusedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
