package io.bullpen.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.junit.jupiter.api.Assumptions;
import org.redisson.config.Config;
import org.redisson.config.ReadMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Redis server of one test class: where it is, how it was provided, and (for servers the
 * harness started) a way to stop and restart it for fault-injection tests.
 *
 * <p>Obtain it as a test parameter; the extension stops the server and closes every client made by
 * {@link #newClient()} after the class.
 */
public final class TestRedis {

    private static final Logger LOG = LoggerFactory.getLogger(TestRedis.class);

    private final RedisServerHandle server;
    private final List<RedissonClient> clients = new CopyOnWriteArrayList<>();

    TestRedis(RedisServerHandle server) {
        this.server = server;
    }

    /**
     * The server's address without credentials, as Redisson takes it. On a {@link RedisKind#CLUSTER}
     * this is one seed node (see {@link #nodeUris()}); a command sent there directly reaches only
     * that node.
     *
     * @return for example {@code redis://127.0.0.1:6390}
     */
    public String uri() {
        return server.scheme() + "://" + host() + ":" + port();
    }

    /**
     * The host clients connect to.
     *
     * @return {@code 127.0.0.1} for servers the harness started
     */
    public String host() {
        return server.host();
    }

    /**
     * The port clients connect to.
     *
     * @return the TCP port
     */
    public int port() {
        return server.port();
    }

    /**
     * How the server was provided.
     *
     * @return the kind
     */
    public RedisKind kind() {
        return server.kind();
    }

    /**
     * Whether this is a Redis Cluster ({@link RedisKind#CLUSTER}), where {@link #newClient()} gives a
     * cluster-mode client and a queue's keys live on the master owning its {@code {name}} slot.
     *
     * @return true for a cluster
     */
    public boolean isCluster() {
        return server.kind() == RedisKind.CLUSTER;
    }

    /**
     * The seed addresses a client connects to: every node of a cluster the harness started, the
     * addresses of {@code REDIS_CLUSTER_URL}, or the one server otherwise.
     *
     * @return addresses such as {@code redis://127.0.0.1:6390}, without credentials
     */
    public List<String> nodeUris() {
        if (server instanceof ClusterRedisServer cluster) {
            return cluster.nodeUris();
        }
        return List.of(uri());
    }

    /**
     * Skips the calling test (a JUnit assumption, reported as skipped, never failed) when this is a
     * Redis Cluster. For tests that need one server of their own: stopping or restarting it,
     * {@code CONFIG SET}, counting {@code INFO commandstats}, {@code CLIENT KILL} of every client.
     *
     * @param reason what the test needs, for the skip message
     */
    public void assumeNotCluster(String reason) {
        Assumptions.assumeFalse(isCluster(), () -> "skipped on a Redis Cluster: " + reason);
    }

    /**
     * Whether the server is up, as far as the harness knows (an external server always counts as up).
     *
     * @return false between {@link #stop()} and {@link #start()}
     */
    public boolean isRunning() {
        return server.running();
    }

    /**
     * Stops the server (no-op when stopped), keeping its port. All data is lost (persistence is
     * off). Clients stay open and reconnect after {@link #start()}. A server still stopped when the
     * next test method begins is started again for it.
     *
     * @throws UnsupportedOperationException for {@link RedisKind#EXTERNAL}, {@link RedisKind#CONTAINER}
     *     and {@link RedisKind#CLUSTER}
     */
    public void stop() {
        requireRestartable();
        if (server.running()) {
            LOG.info("stopping {} Redis on port {}", kind(), port());
            server.stop();
        }
    }

    /**
     * Starts the server again on the same port (empty) and waits until it answers; no-op when running.
     *
     * @throws UnsupportedOperationException for {@link RedisKind#EXTERNAL}, {@link RedisKind#CONTAINER}
     *     and {@link RedisKind#CLUSTER}
     */
    public void start() {
        requireRestartable();
        if (!server.running()) {
            LOG.info("starting {} Redis on port {}", kind(), port());
            server.start();
        }
    }

    private void requireRestartable() {
        if (!server.restartable()) {
            throw new UnsupportedOperationException("stop()/start() need a PROCESS or EMBEDDED Redis but this one is "
                    + kind() + (isCluster() ? " (shared by every class of the JVM)" : ""));
        }
    }

    /**
     * Opens another Redisson client to this server, configured like the one the extension injects
     * (Redisson's default codec, 8 netty threads, a small pool). Closed after the test class.
     *
     * <p>On a {@link RedisKind#CLUSTER} it is a cluster-mode client seeded with every node,
     * reading from masters ({@code ReadMode.MASTER}: Redisson's default reads from replicas, which
     * lag behind the master) and rescanning the topology every second.
     *
     * @return a new client; the caller may shut it down earlier
     */
    public RedissonClient newClient() {
        Config config = new Config();
        config.setNettyThreads(8);
        if (isCluster()) {
            config.useClusterServers()
                    .addNodeAddress(nodeUris().toArray(String[]::new))
                    .setReadMode(ReadMode.MASTER)
                    .setScanInterval(1000)
                    .setMasterConnectionMinimumIdleSize(2)
                    .setMasterConnectionPoolSize(16)
                    .setSlaveConnectionMinimumIdleSize(1)
                    .setSlaveConnectionPoolSize(4)
                    .setSubscriptionConnectionMinimumIdleSize(1)
                    .setSubscriptionConnectionPoolSize(8);
        } else {
            config.useSingleServer()
                    .setAddress(uri())
                    .setDatabase(server.database())
                    .setConnectionMinimumIdleSize(2)
                    .setConnectionPoolSize(16);
        }
        // Redisson 4 keeps credentials on Config (the per-server setters are deprecated).
        if (server.username() != null) {
            config.setUsername(server.username());
        }
        if (server.password() != null) {
            config.setPassword(server.password());
        }
        RedissonClient client = Redisson.create(config);
        clients.add(client);
        return client;
    }

    /** Restarts a server that a test left stopped, so the next test starts from a running one. */
    void ensureRunning() {
        if (server.restartable() && !server.running()) {
            LOG.warn("{} Redis on port {} was left stopped by an earlier test; starting it again", kind(), port());
            server.start();
        }
    }

    /** Closes every client, then stops the server; never throws. */
    void close() {
        for (RedissonClient client : clients) {
            try {
                if (!client.isShutdown()) {
                    client.shutdown(0, 2, TimeUnit.SECONDS);
                }
            } catch (RuntimeException e) {
                LOG.warn("closing a Redisson client failed", e);
            }
        }
        clients.clear();
        try {
            server.close();
        } catch (RuntimeException e) {
            LOG.warn("stopping {} Redis on port {} failed", kind(), port(), e);
        }
    }

    /**
     * Describes the server.
     *
     * @return kind and address
     */
    @Override
    public String toString() {
        return "TestRedis[" + kind() + " " + uri() + "]";
    }
}
