package io.bullpen.testing;

import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.redisson.api.RedissonClient;

/**
 * What one test class owns: its server and its main client. Kept in the class-level store, which
 * closes it when the class ends, so the server stops even when the extension's afterAll is never
 * reached. Jupiter 5.10 to 5.12 close only {@link ExtensionContext.Store.CloseableResource} store
 * values; 5.13 and later close {@link AutoCloseable} ones (and still the former, deprecated since
 * 5.13, not marked for removal): hence both. JUnit closes a value once; closing twice is harmless.
 */
@SuppressWarnings("deprecation")
final class ClassResources implements AutoCloseable, ExtensionContext.Store.CloseableResource {

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
