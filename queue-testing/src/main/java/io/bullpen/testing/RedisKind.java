package io.bullpen.testing;

/** How the Redis server of a test class was provided. */
public enum RedisKind {
    /** An existing server named by the {@code REDIS_URL} environment variable; never started, stopped or flushed. */
    EXTERNAL,
    /** A {@code redis-server} binary found on this machine, run as a child process. */
    PROCESS,
    /** The Redis binary bundled in {@code org.signal:embedded-redis}, run as a child process. */
    EMBEDDED,
    /** A {@code redis:7.0} Docker container started through Testcontainers. */
    CONTAINER
}
