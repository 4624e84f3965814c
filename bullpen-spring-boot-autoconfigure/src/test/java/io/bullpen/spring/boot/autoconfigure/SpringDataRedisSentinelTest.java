package io.bullpen.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bullpen.testing.LocalRedisSentinel;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** spring.data.redis.sentinel.* against a real master, replica and three sentinels. */
class SpringDataRedisSentinelTest {
    @Test
    void writesReachTheMasterTheSentinelsName() {
        assumeTrue(LocalRedisSentinel.available(), "redis-server is needed to run sentinels");
        try (LocalRedisSentinel group = LocalRedisSentinel.start()) {
            String nodes = String.join(",", group.sentinelUris().stream().map(u -> u.substring("redis://".length())).toList());
            Config config = SpringDataRedisConfig.from(new Binder(new MapConfigurationPropertySource(Map.of(
                    "spring.data.redis.sentinel.master", group.masterName(),
                    "spring.data.redis.sentinel.nodes", nodes))));
            RedissonClient viaSentinels = Redisson.create(config);
            Config direct = new Config();
            direct.useSingleServer().setAddress(group.masterUri());
            RedissonClient master = Redisson.create(direct);
            try {
                viaSentinels.getBucket("spring:sentinel", StringCodec.INSTANCE).set("through the sentinels");
                assertThat(master.getBucket("spring:sentinel", StringCodec.INSTANCE).get()).isEqualTo("through the sentinels");
            } finally {
                viaSentinels.shutdown();
                master.shutdown();
            }
        }
    }
}
