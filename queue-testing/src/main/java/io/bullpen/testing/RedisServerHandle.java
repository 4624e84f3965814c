package io.bullpen.testing;

/** One Redis server as the harness sees it; each {@link RedisKind} has its own implementation. */
interface RedisServerHandle {

    /** How the server was provided. */
    RedisKind kind();

    /** Host name or address clients connect to. */
    String host();

    /** TCP port clients connect to. */
    int port();

    /** URI scheme: {@code redis} or {@code rediss}. */
    default String scheme() {
        return "redis";
    }

    /** ACL user name, or null. */
    default String username() {
        return null;
    }

    /** Password, or null. */
    default String password() {
        return null;
    }

    /** Database index. */
    default int database() {
        return 0;
    }

    /** Where the server came from, for the log. */
    String description();

    /** Whether {@link #stop()} and {@link #start()} are supported. */
    default boolean restartable() {
        return false;
    }

    /** Whether the server is up (as far as the harness knows). */
    default boolean running() {
        return true;
    }

    /** Stops the server, keeping its port for {@link #start()}. */
    default void stop() {
        throw new UnsupportedOperationException(kind() + " Redis cannot be stopped by the test harness");
    }

    /** Starts the server again on the same port. */
    default void start() {
        throw new UnsupportedOperationException(kind() + " Redis cannot be started by the test harness");
    }

    /** Stops the server for good and releases its files; never throws. */
    void close();
}
