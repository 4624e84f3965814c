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
    CONTAINER,
    /**
     * A Redis Cluster: 3 masters and 3 replicas the harness starts from {@code redis-server}
     * processes (one cluster per test JVM, flushed before each class), or an existing cluster named
     * by the {@code REDIS_CLUSTER_URL} environment variable (never flushed).
     */
    CLUSTER
}
