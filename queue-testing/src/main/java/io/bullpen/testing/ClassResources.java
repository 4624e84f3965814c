package io.bullpen.testing;

import java.util.concurrent.atomic.AtomicBoolean;
import org.redisson.api.RedissonClient;

/**
 * What one test class owns: its server and its main client. Kept in the class-level store; JUnit
 * closes {@link AutoCloseable} store values when the class ends, so a failing afterAll chain
 * still stops the server. Closing twice is harmless.
 */
final class ClassResources implements AutoCloseable {

    private final String ownerId;
    private final TestRedis redis;
    private final RedissonClient client;
    private final AtomicBoolean closed = new AtomicBoolean();

    private ClassResources(String ownerId, TestRedis redis, RedissonClient client) {
        this.ownerId = ownerId;
        this.redis = redis;
        this.client = client;
    }

    /** Starts a server for the class with the given unique id and opens the main client. */
    static ClassResources start(String ownerId, String displayName) {
        TestRedis redis = new TestRedis(RedisLauncher.launch(RedisLauncher::setting, displayName));
        try {
            return new ClassResources(ownerId, redis, redis.newClient());
        } catch (RuntimeException e) {
            redis.close();
            throw e;
        }
    }

    /** The unique id of the class context that started the server (nested classes share it). */
    String ownerId() {
        return ownerId;
    }

    TestRedis redis() {
        return redis;
    }

    RedissonClient client() {
        return client;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            redis.close();
        }
    }
}
