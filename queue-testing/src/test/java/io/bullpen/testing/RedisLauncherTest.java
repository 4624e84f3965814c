package io.bullpen.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** Choosing the kind of server: pure logic, no server started. */
class RedisLauncherTest {

    private static UnaryOperator<String> env(String... pairs) {
        Map<String, String> map = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map::get;
    }

    @Test
    void withoutSettingsPrefersAnInstalledRedisServerOverTheEmbeddedOne() {
        RedisKind expected = ProcessRedisServer.findBinary().isPresent() ? RedisKind.PROCESS : RedisKind.EMBEDDED;

        assertThat(RedisLauncher.chooseKind(env())).isEqualTo(expected);
        assertThat(RedisLauncher.chooseKind(env("BULLPEN_TEST_REDIS", " "))).isEqualTo(expected);
    }

    @Test
    void redisUrlSelectsTheExternalServer() {
        assertThat(RedisLauncher.chooseKind(env("REDIS_URL", "redis://127.0.0.1:6379")))
                .isEqualTo(RedisKind.EXTERNAL);
    }

    @Test
    void aForcedKindWinsOverRedisUrlAndIgnoresCase() {
        UnaryOperator<String> env = env("REDIS_URL", "redis://127.0.0.1:6379", "BULLPEN_TEST_REDIS", "Embedded");

        assertThat(RedisLauncher.chooseKind(env)).isEqualTo(RedisKind.EMBEDDED);
    }

    @Test
    void anUnknownKindFailsClearly() {
        assertThatIllegalStateException()
                .isThrownBy(() -> RedisLauncher.chooseKind(env("BULLPEN_TEST_REDIS", "docker")))
                .withMessage("BULLPEN_TEST_REDIS must be one of external, process, embedded, container, cluster"
                        + " but was 'docker'");
    }

    @Test
    void forcedExternalWithoutRedisUrlFailsClearly() {
        assertThatIllegalStateException()
                .isThrownBy(() -> RedisLauncher.chooseKind(env("BULLPEN_TEST_REDIS", "external")))
                .withMessageStartingWith("BULLPEN_TEST_REDIS=external needs REDIS_URL");
    }

    @Test
    void forcedProcessNeedsABinary() {
        if (ProcessRedisServer.findBinary().isPresent()) {
            assertThat(RedisLauncher.chooseKind(env("BULLPEN_TEST_REDIS", "process"))).isEqualTo(RedisKind.PROCESS);
        } else {
            assertThatIllegalStateException()
                    .isThrownBy(() -> RedisLauncher.chooseKind(env("BULLPEN_TEST_REDIS", "process")))
                    .withMessageContaining("needs a redis-server binary");
        }
    }

    @Test
    void parsesRedisUrls() {
        ExternalRedisServer plain = ExternalRedisServer.parse("redis://localhost");
        assertThat(plain.host()).isEqualTo("localhost");
        assertThat(plain.port()).isEqualTo(6379);
        assertThat(plain.username()).isNull();
        assertThat(plain.password()).isNull();
        assertThat(plain.database()).isZero();

        ExternalRedisServer full = ExternalRedisServer.parse("rediss://alice:p%40ss@10.1.2.3:6380/2");
        assertThat(full.scheme()).isEqualTo("rediss");
        assertThat(full.host()).isEqualTo("10.1.2.3");
        assertThat(full.port()).isEqualTo(6380);
        assertThat(full.username()).isEqualTo("alice");
        assertThat(full.password()).isEqualTo("p@ss");
        assertThat(full.database()).isEqualTo(2);

        ExternalRedisServer passwordOnly = ExternalRedisServer.parse("redis://:secret@host:1");
        assertThat(passwordOnly.username()).isNull();
        assertThat(passwordOnly.password()).isEqualTo("secret");
        assertThat(new TestRedis(passwordOnly).uri()).isEqualTo("redis://host:1");
    }

    @Test
    void rejectsUrlsThatAreNotRedisUrls() {
        assertThatIllegalArgumentException().isThrownBy(() -> ExternalRedisServer.parse("http://localhost:6379"))
                .withMessage("REDIS_URL must start with redis:// or rediss:// but was http://localhost:6379");
        assertThatIllegalArgumentException().isThrownBy(() -> ExternalRedisServer.parse("redis://localhost/zero"))
                .withMessage("REDIS_URL database must be a number but was /zero");
    }

    @Test
    void redisClusterUrlSelectsACluster() {
        assertThat(RedisLauncher.chooseKind(env("REDIS_CLUSTER_URL", "redis://127.0.0.1:7000")))
                .isEqualTo(RedisKind.CLUSTER);
        assertThat(RedisLauncher.chooseKind(env("REDIS_CLUSTER_URL", "redis://127.0.0.1:7000",
                "REDIS_URL", "redis://127.0.0.1:6379"))).as("the cluster wins over REDIS_URL").isEqualTo(RedisKind.CLUSTER);
        assertThat(RedisLauncher.chooseKind(env("REDIS_CLUSTER_URL", "redis://127.0.0.1:7000",
                "BULLPEN_TEST_REDIS", "embedded"))).as("a forced kind wins").isEqualTo(RedisKind.EMBEDDED);
    }

    @Test
    void forcedClusterNeedsAClusterUrlOrTheBinaries() {
        assertThat(RedisLauncher.chooseKind(env("BULLPEN_TEST_REDIS", "CLUSTER", "REDIS_CLUSTER_URL", "redis://h:1")))
                .isEqualTo(RedisKind.CLUSTER);
        if (ProcessRedisServer.findBinary().isPresent() && LocalRedisCluster.findCli().isPresent()) {
            assertThat(RedisLauncher.chooseKind(env("BULLPEN_TEST_REDIS", "cluster"))).isEqualTo(RedisKind.CLUSTER);
        } else {
            assertThatIllegalStateException()
                    .isThrownBy(() -> RedisLauncher.chooseKind(env("BULLPEN_TEST_REDIS", "cluster")))
                    .withMessageContaining("needs REDIS_CLUSTER_URL");
        }
    }

    @Test
    void parsesRedisClusterUrls() {
        ClusterRedisServer cluster = ClusterRedisServer.parse(
                " redis://:s%40cret@10.0.0.1:7000, redis://10.0.0.2:7001 ,rediss://10.0.0.3:7002,");
        assertThat(cluster.nodeUris())
                .containsExactly("redis://10.0.0.1:7000", "redis://10.0.0.2:7001", "rediss://10.0.0.3:7002");
        assertThat(cluster.password()).isEqualTo("s@cret");
        assertThat(cluster.username()).isNull();
        assertThat(cluster.owned()).isFalse();
        TestRedis redis = new TestRedis(cluster);
        assertThat(redis.isCluster()).isTrue();
        assertThat(redis.uri()).isEqualTo("redis://10.0.0.1:7000");
        assertThat(redis.nodeUris()).hasSize(3);
        assertThatThrownBy(redis::stop).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("CLUSTER");

        assertThatIllegalArgumentException().isThrownBy(() -> ClusterRedisServer.parse("redis://h"))
                .withMessage("REDIS_CLUSTER_URL entries need a host and a port but one was redis://h");
        assertThatIllegalArgumentException().isThrownBy(() -> ClusterRedisServer.parse(" , "))
                .withMessage("REDIS_CLUSTER_URL names no node: ' , '");
        assertThatIllegalArgumentException().isThrownBy(() -> ClusterRedisServer.parse("http://h:1"))
                .withMessageStartingWith("REDIS_CLUSTER_URL entries must start with redis://");
    }
}
