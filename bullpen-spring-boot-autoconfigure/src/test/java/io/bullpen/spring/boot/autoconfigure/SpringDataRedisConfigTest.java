package io.bullpen.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.redisson.config.Config;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** spring.data.redis.* to a Redisson Config, for each topology (no server needed: the Config is read back as YAML). */
class SpringDataRedisConfigTest {
    private static String yaml(Map<String, String> properties) throws IOException {
        Config config = SpringDataRedisConfig.from(new Binder(new MapConfigurationPropertySource(properties)));
        return config.toYAML();
    }

    @Test
    void singleServerWithCredentialsDatabaseAndTimeout() throws IOException {
        String yaml = yaml(Map.of("spring.data.redis.host", "redis.internal", "spring.data.redis.port", "6380",
                "spring.data.redis.username", "app", "spring.data.redis.password", "secret",
                "spring.data.redis.database", "4", "spring.data.redis.timeout", "2s",
                "spring.data.redis.client-name", "orders-service"));
        assertThat(yaml).contains("singleServerConfig:", "address: \"redis://redis.internal:6380\"", "database: 4",
                "username: \"app\"", "password: \"secret\"", "timeout: 2000", "clientName: \"orders-service\"");
    }

    @Test
    void ioThreadsAreTwiceTheCoresBetweenFourAndRedissonsThirtyTwo() throws IOException {
        assertThat(SpringDataRedisConfig.ioThreads(1)).isEqualTo(4);
        assertThat(SpringDataRedisConfig.ioThreads(2)).isEqualTo(4);
        assertThat(SpringDataRedisConfig.ioThreads(6)).isEqualTo(12);
        assertThat(SpringDataRedisConfig.ioThreads(16)).isEqualTo(32);
        assertThat(SpringDataRedisConfig.ioThreads(64)).isEqualTo(32);
        int expected = SpringDataRedisConfig.ioThreads(Runtime.getRuntime().availableProcessors());
        assertThat(yaml(Map.of())).contains("nettyThreads: " + expected);
    }

    @Test
    void defaultsToLocalhost() throws IOException {
        assertThat(yaml(Map.of())).contains("address: \"redis://localhost:6379\"", "database: 0");
    }

    @Test
    void sslUsesRedissScheme() throws IOException {
        assertThat(yaml(Map.of("spring.data.redis.ssl.enabled", "true"))).contains("address: \"rediss://localhost:6379\"");
    }

    @Test
    void urlCarriesCredentialsAndDatabase() throws IOException {
        String yaml = yaml(Map.of("spring.data.redis.url", "rediss://user:pw@cache.example:6390/2"));
        assertThat(yaml).contains("address: \"rediss://cache.example:6390\"", "database: 2", "username: \"user\"",
                "password: \"pw\"");
    }

    @Test
    void sentinel() throws IOException {
        String yaml = yaml(Map.of("spring.data.redis.sentinel.master", "mymaster",
                "spring.data.redis.sentinel.nodes", "s1:26379,s2:26379", "spring.data.redis.sentinel.password", "sp",
                "spring.data.redis.password", "mp", "spring.data.redis.database", "1"));
        assertThat(yaml).contains("sentinelServersConfig:", "masterName: \"mymaster\"", "redis://s1:26379",
                "redis://s2:26379", "sentinelPassword: \"sp\"", "password: \"mp\"", "database: 1");
    }

    @Test
    void cluster() throws IOException {
        String yaml = yaml(Map.of("spring.data.redis.cluster.nodes[0]", "n1:7000", "spring.data.redis.cluster.nodes[1]",
                "n2:7001", "spring.data.redis.password", "cp"));
        assertThat(yaml).contains("clusterServersConfig:", "redis://n1:7000", "redis://n2:7001", "password: \"cp\"");
    }
}
