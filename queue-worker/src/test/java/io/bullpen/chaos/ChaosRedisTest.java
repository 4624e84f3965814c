package io.bullpen.chaos;

import java.io.IOException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Base of the chaos scenarios: each test class gets a {@link ChaosRedis} server of its own. */
abstract class ChaosRedisTest {
    /** The class's server (appendonly, fsync always), which the scenario crashes, restarts or freezes. */
    static ChaosRedis redis;

    @BeforeAll
    static void startRedis() throws IOException {
        redis = ChaosRedis.start();
    }

    @AfterAll
    static void stopRedis() {
        if (redis != null) {
            redis.close();
            redis = null;
        }
    }
}
