package io.bullpen.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Redis Cluster of 3 masters and 3 replicas made of {@code redis-server} child processes on
 * free loopback ports (cluster-enabled, persistence off, one temp directory for all), joined with
 * {@code redis-cli --cluster create ... --cluster-replicas 1 --cluster-yes}.
 *
 * <p>Starting six processes and forming the cluster takes a few seconds, so one cluster serves a
 * whole test JVM ({@link #shared()}); a JVM shutdown hook kills the processes and deletes the
 * directory. Test classes keep apart through {@link #flushAll()} before each class.
 */
final class LocalRedisCluster {

    static final int MASTERS = 3;
    static final int NODES = 6;
    private static final int SLOTS = 16384;
    private static final int PORT_ATTEMPTS = 5;
    private static final Duration CREATE_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

    private static final Logger LOG = LoggerFactory.getLogger(LocalRedisCluster.class);
    private static LocalRedisCluster shared;

    private final Path dir;
    private final List<RedisProcess> nodes;

    private LocalRedisCluster(Path dir, List<RedisProcess> nodes) {
        this.dir = dir;
        this.nodes = List.copyOf(nodes);
    }

    /**
     * The cluster of this JVM, started on first use and stopped when the JVM exits.
     *
     * @throws IllegalStateException when redis-server or redis-cli is missing or the cluster does not form
     */
    static synchronized LocalRedisCluster shared() {
        if (shared == null) {
            LocalRedisCluster cluster = start();
            Runtime.getRuntime().addShutdownHook(new Thread(cluster::close, "bullpen-redis-cluster-shutdown"));
            shared = cluster;
        }
        return shared;
    }

    /** The {@code redis-cli} next to redis-server, else on the PATH or in the usual directories. */
    static Optional<Path> findCli() {
        Optional<Path> server = ProcessRedisServer.findBinary();
        if (server.isPresent()) {
            Path sibling = server.get().resolveSibling("redis-cli");
            if (Files.isExecutable(sibling)) {
                return Optional.of(sibling);
            }
        }
        return ProcessRedisServer.findBinary("redis-cli");
    }

    /** Starts six nodes, creates the cluster and waits until every node sees all slots served. */
    static LocalRedisCluster start() {
        Path server = ProcessRedisServer.findBinary().orElseThrow(() -> new IllegalStateException(
                "a Redis Cluster needs a redis-server binary on the PATH or in /usr/bin, /usr/sbin, /usr/local/bin"));
        Path cli = findCli().orElseThrow(() -> new IllegalStateException(
                "a Redis Cluster needs redis-cli (it comes with redis-server) on the PATH or next to " + server));
        Path dir;
        try {
            dir = Files.createTempDirectory("bullpen-cluster-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp dir for the Redis Cluster", e);
        }
        long startNanos = System.nanoTime();
        List<RedisProcess> nodes = new ArrayList<>();
        try {
            Set<Integer> used = new HashSet<>();
            for (int i = 0; i < NODES; i++) {
                nodes.add(startNode(server, dir, i, used));
            }
            LocalRedisCluster cluster = new LocalRedisCluster(dir, nodes);
            cluster.create(cli);
            cluster.awaitReady();
            LOG.info("Redis Cluster of {} nodes ({} masters) on ports {} ready in {} ms (dir {})", NODES, MASTERS,
                    cluster.ports(), (System.nanoTime() - startNanos) / 1_000_000, dir);
            return cluster;
        } catch (RuntimeException e) {
            nodes.forEach(RedisProcess::stop);
            LocalRedisSupport.deleteTree(dir);
            throw e;
        }
    }

    private static RedisProcess startNode(Path server, Path root, int index, Set<Integer> used) {
        Path nodeDir = root.resolve("node-" + index);
        try {
            Files.createDirectories(nodeDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + nodeDir, e);
        }
        for (int attempt = 1; attempt <= PORT_ATTEMPTS; attempt++) {
            int port = LocalRedisSupport.freshPort(used);
            int busPort = LocalRedisSupport.freshPort(used);
            List<String> args = List.of("--port", Integer.toString(port), "--bind", LocalRedisSupport.LOOPBACK,
                    "--cluster-enabled", "yes", "--cluster-port", Integer.toString(busPort),
                    "--cluster-config-file", nodeDir.resolve("nodes.conf").toString(),
                    "--cluster-node-timeout", "5000",
                    "--save", "", "--appendonly", "no", "--daemonize", "no", "--dir", nodeDir.toString());
            RedisProcess node = RedisProcess.start(server, nodeDir, port, args);
            if (node != null) {
                return node;
            }
        }
        throw new IllegalStateException("cluster node " + index + " found no free port pair in " + PORT_ATTEMPTS
                + " attempts");
    }

    private void create(Path cli) {
        List<String> command = new ArrayList<>(List.of(cli.toString(), "--cluster", "create"));
        for (RedisProcess node : nodes) {
            command.add(LocalRedisSupport.LOOPBACK + ":" + node.port());
        }
        command.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
        Path log = dir.resolve("cluster-create.log");
        try {
            Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            if (!process.waitFor(CREATE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("redis-cli --cluster create did not finish within "
                        + CREATE_TIMEOUT.toSeconds() + " s; its output:\n" + LocalRedisSupport.tail(log, 3000));
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            if (process.exitValue() != 0 || !output.contains("All 16384 slots covered")) {
                throw new IllegalStateException("redis-cli --cluster create failed (exit " + process.exitValue()
                        + "): " + String.join(" ", command) + "\n" + LocalRedisSupport.tail(log, 3000));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating the Redis Cluster", e);
        }
    }

    /** Waits until every node reports cluster_state:ok, all slots ok, six known nodes and three shards. */
    private void awaitReady() {
        String last = LocalRedisSupport.awaitReady(this::notReadyReason, READY_TIMEOUT, 50);
        if (last == null) {
            return;
        }
        throw new IllegalStateException("Redis Cluster on ports " + ports() + " not ready within "
                + READY_TIMEOUT.toSeconds() + " s: " + last);
    }

    /** Null when every node is ready, else what is missing. */
    private String notReadyReason() {
        for (RedisProcess node : nodes) {
            String info;
            try {
                info = Resp.text(LocalRedisSupport.LOOPBACK, node.port(), "CLUSTER", "INFO");
            } catch (IOException | IllegalStateException e) {
                return "node " + node.port() + ": " + e.getMessage();
            }
            if (!info.contains("cluster_state:ok") || !info.contains("cluster_slots_ok:" + SLOTS)
                    || !info.contains("cluster_known_nodes:" + NODES) || !info.contains("cluster_size:" + MASTERS)) {
                return "node " + node.port() + " CLUSTER INFO:\n" + info;
            }
            try {
                String replication = Resp.text(LocalRedisSupport.LOOPBACK, node.port(), "INFO", "replication");
                if (replication.contains("role:slave") && !replication.contains("master_link_status:up")) {
                    return "replica " + node.port() + " not yet linked to its master";
                }
            } catch (IOException | IllegalStateException e) {
                return "node " + node.port() + ": " + e.getMessage();
            }
        }
        return null;
    }

    /** The ports of all nodes, in start order. */
    List<Integer> ports() {
        return nodes.stream().map(RedisProcess::port).toList();
    }

    /** Every node as {@code redis://127.0.0.1:<port>}. */
    List<String> nodeUris() {
        return nodes.stream().map(n -> "redis://" + LocalRedisSupport.LOOPBACK + ":" + n.port()).toList();
    }

    /** Whether all six processes are alive. */
    boolean running() {
        return nodes.stream().allMatch(RedisProcess::alive);
    }

    /** Where the nodes keep their files and logs. */
    Path dir() {
        return dir;
    }

    /** SIGKILLs the node on {@code port} (a crash: no shutdown work); false when no node has that port. */
    boolean kill(int port) {
        for (RedisProcess node : nodes) {
            if (node.port() == port) {
                node.kill();
                return true;
            }
        }
        return false;
    }

    /** The pid of the node on {@code port}, or -1 when it is not running. */
    long pid(int port) {
        for (RedisProcess node : nodes) {
            if (node.port() == port) {
                return node.alive() ? node.pid() : -1;
            }
        }
        return -1;
    }

    /** Starts the node on {@code port} again (same directory and nodes.conf: it rejoins the cluster). */
    boolean restart(int port) {
        for (RedisProcess node : nodes) {
            if (node.port() == port) {
                node.restart();
                return true;
            }
        }
        return false;
    }

    /** FLUSHALL SYNC on every master (replicas follow), so the next test class starts from empty nodes. */
    void flushAll() {
        for (RedisProcess node : nodes) {
            try {
                String role = Resp.text(LocalRedisSupport.LOOPBACK, node.port(), "ROLE");
                if (role != null && role.startsWith("[master")) {
                    Resp.call(LocalRedisSupport.LOOPBACK, node.port(), "FLUSHALL", "SYNC");
                }
            } catch (IOException e) {
                throw new UncheckedIOException("FLUSHALL on cluster node " + node.port() + " failed", e);
            }
        }
    }

    /** Kills every node and deletes the directory; never throws. */
    void close() {
        for (RedisProcess node : nodes) {
            try {
                node.stop();
            } catch (RuntimeException e) {
                LOG.warn("stopping cluster node {} failed", node.port(), e);
            }
        }
        LocalRedisSupport.deleteTree(dir);
    }
}
