package io.bullpen.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

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
                .withMessage("BULLPEN_TEST_REDIS must be one of external, process, embedded, container"
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
}
