package io.bullpen.testing;

import redis.embedded.RedisServer;
import redis.embedded.exceptions.EmbeddedRedisException;

/**
 * The Redis 7.0 binary bundled in {@code org.signal:embedded-redis}, on a free loopback port with
 * persistence off ({@code save ""}: otherwise dump.rdb files appear next to the extracted binary).
 */
final class EmbeddedRedisServer implements RedisServerHandle {

    private static final int PORT_ATTEMPTS = 5;

    private final RedisServer server;
    private final int port;

    private EmbeddedRedisServer(RedisServer server, int port) {
        this.server = server;
        this.port = port;
    }

    /** Starts the bundled binary, trying another port when the chosen one was taken meanwhile. */
    static EmbeddedRedisServer launch() {
        RuntimeException last = null;
        for (int attempt = 1; attempt <= PORT_ATTEMPTS; attempt++) {
            int port = LocalRedisSupport.freePort();
            RedisServer server = RedisServer.builder()
                    .port(port)
                    .bind(LocalRedisSupport.LOOPBACK)
                    .setting("save \"\"")
                    .setting("appendonly no")
                    .build();
            try {
                server.start();
                return new EmbeddedRedisServer(server, port);
            } catch (EmbeddedRedisException e) {
                last = e;
                stopQuietly(server);
            }
        }
        throw new IllegalStateException("embedded Redis did not start in " + PORT_ATTEMPTS + " attempts", last);
    }

    private static void stopQuietly(RedisServer server) {
        try {
            server.stop();
        } catch (RuntimeException ignored) {
            // Best effort: the server never came up.
        }
    }

    @Override
    public RedisKind kind() {
        return RedisKind.EMBEDDED;
    }

    @Override
    public String host() {
        return LocalRedisSupport.LOOPBACK;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String description() {
        return "org.signal:embedded-redis (bundled Redis 7.0)";
    }

    @Override
    public boolean restartable() {
        return true;
    }

    @Override
    public synchronized boolean running() {
        return server.isActive();
    }

    @Override
    public synchronized void stop() {
        if (server.isActive()) {
            server.stop();
        }
    }

    @Override
    public synchronized void start() {
        if (!server.isActive()) {
            server.start();
        }
    }

    @Override
    public synchronized void close() {
        stopQuietly(server);
    }
}
