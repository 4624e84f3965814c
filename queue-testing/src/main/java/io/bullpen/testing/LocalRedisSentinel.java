package io.bullpen.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Sentinel-monitored Redis on loopback for failover tests: one master, one replica and three
 * sentinels (quorum 2, {@code down-after-milliseconds 1000}), all {@code redis-server} child
 * processes (sentinels run as {@code redis-server sentinel.conf --sentinel}, since Debian ships
 * {@code redis-sentinel} separately) on free ports, persistence off, in a temp directory that
 * {@link #close()} deletes. A JVM shutdown hook kills the processes if the test never closes it.
 *
 * <pre>{@code
 * try (LocalRedisSentinel sentinel = LocalRedisSentinel.start()) {
 *     Config config = new Config();
 *     config.useSentinelServers().setMasterName(sentinel.masterName())
 *             .addSentinelAddress(sentinel.sentinelUris().toArray(String[]::new))
 *             .setReadMode(ReadMode.MASTER);
 *     ...
 *     sentinel.failover();          // SENTINEL FAILOVER: the replica becomes master
 *     sentinel.killMaster();        // or a crash: SIGKILL of the current master
 * }
 * }</pre>
 */
public final class LocalRedisSentinel implements AutoCloseable {

    /** The master name the sentinels monitor. */
    public static final String MASTER_NAME = "mymaster";

    private static final Logger LOG = LoggerFactory.getLogger(LocalRedisSentinel.class);
    private static final int SENTINELS = 3;
    private static final int PORT_ATTEMPTS = 5;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

    private final Path dir;
    /** The two data servers by port (master and replica at start; roles change on failover). */
    private final Map<Integer, RedisProcess> servers;
    private final List<RedisProcess> sentinels;
    private final Thread shutdownHook;

    private LocalRedisSentinel(Path dir, Map<Integer, RedisProcess> servers, List<RedisProcess> sentinels) {
        this.dir = dir;
        this.servers = servers;
        this.sentinels = List.copyOf(sentinels);
        this.shutdownHook = new Thread(this::destroyAll, "bullpen-redis-sentinel-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Whether this machine can run it: a {@code redis-server} binary on the PATH or in /usr/bin,
     * /usr/sbin, /usr/local/bin.
     *
     * @return true when {@link #start()} can work
     */
    public static boolean available() {
        return ProcessRedisServer.findBinary().isPresent();
    }

    /**
     * Starts master, replica and three sentinels and waits until every sentinel sees the master,
     * its replica (linked) and the two other sentinels.
     *
     * @return the running group; close it when done
     * @throws IllegalStateException when redis-server is missing or the group does not come up in 30 s
     */
    public static LocalRedisSentinel start() {
        Path binary = ProcessRedisServer.findBinary().orElseThrow(() -> new IllegalStateException(
                "Sentinel tests need a redis-server binary on the PATH or in /usr/bin, /usr/sbin, /usr/local/bin"));
        Path dir;
        try {
            dir = Files.createTempDirectory("bullpen-sentinel-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp dir for Redis Sentinel", e);
        }
        long startNanos = System.nanoTime();
        Map<Integer, RedisProcess> servers = new HashMap<>();
        List<RedisProcess> sentinels = new ArrayList<>();
        try {
            Set<Integer> used = new HashSet<>();
            RedisProcess master = startServer(binary, dir.resolve("server-0"), used, null);
            servers.put(master.port(), master);
            RedisProcess replica = startServer(binary, dir.resolve("server-1"), used, master.port());
            servers.put(replica.port(), replica);
            for (int i = 0; i < SENTINELS; i++) {
                sentinels.add(startSentinel(binary, dir.resolve("sentinel-" + i), used, master.port()));
            }
            LocalRedisSentinel group = new LocalRedisSentinel(dir, servers, sentinels);
            group.awaitReady();
            LOG.info("Redis Sentinel group ready in {} ms: master {}, replica {}, sentinels {} (dir {})",
                    (System.nanoTime() - startNanos) / 1_000_000, master.port(), replica.port(),
                    sentinels.stream().map(RedisProcess::port).toList(), dir);
            return group;
        } catch (RuntimeException e) {
            sentinels.forEach(RedisProcess::stop);
            servers.values().forEach(RedisProcess::stop);
            LocalRedisSupport.deleteTree(dir);
            throw e;
        }
    }

    private static RedisProcess startServer(Path binary, Path dir, Set<Integer> used, Integer masterPort) {
        createDir(dir);
        for (int attempt = 1; attempt <= PORT_ATTEMPTS; attempt++) {
            int port = LocalRedisSupport.freshPort(used);
            List<String> args = new ArrayList<>(List.of("--port", Integer.toString(port),
                    "--bind", LocalRedisSupport.LOOPBACK, "--save", "", "--appendonly", "no", "--daemonize", "no",
                    "--dir", dir.toString()));
            if (masterPort != null) {
                args.addAll(List.of("--replicaof", LocalRedisSupport.LOOPBACK, Integer.toString(masterPort)));
            }
            RedisProcess process = RedisProcess.start(binary, dir, port, args);
            if (process != null) {
                return process;
            }
        }
        throw new IllegalStateException("redis-server found no free port in " + PORT_ATTEMPTS + " attempts");
    }

    private static RedisProcess startSentinel(Path binary, Path dir, Set<Integer> used, int masterPort) {
        createDir(dir);
        for (int attempt = 1; attempt <= PORT_ATTEMPTS; attempt++) {
            int port = LocalRedisSupport.freshPort(used);
            Path conf = dir.resolve("sentinel.conf");
            String text = String.join("\n",
                    "port " + port,
                    "bind " + LocalRedisSupport.LOOPBACK,
                    "daemonize no",
                    "dir " + dir,
                    "sentinel monitor " + MASTER_NAME + " " + LocalRedisSupport.LOOPBACK + " " + masterPort + " 2",
                    "sentinel down-after-milliseconds " + MASTER_NAME + " 1000",
                    "sentinel failover-timeout " + MASTER_NAME + " 10000",
                    "sentinel parallel-syncs " + MASTER_NAME + " 1",
                    "");
            try {
                Files.writeString(conf, text, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + conf, e);
            }
            RedisProcess process = RedisProcess.start(binary, dir, port, List.of(conf.toString(), "--sentinel"));
            if (process != null) {
                return process;
            }
        }
        throw new IllegalStateException("redis-server --sentinel found no free port in " + PORT_ATTEMPTS + " attempts");
    }

    private static void createDir(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
    }

    private void awaitReady() {
        String last = LocalRedisSupport.awaitReady(this::notReadyReason, READY_TIMEOUT, 100);
        if (last == null) {
            return;
        }
        throw new IllegalStateException("Redis Sentinel group not ready within " + READY_TIMEOUT.toSeconds() + " s: "
                + last + "\nsentinel log:\n" + sentinels.get(0).logTail());
    }

    /** Null when ready, else what is missing. */
    private String notReadyReason() {
        for (RedisProcess sentinel : sentinels) {
            Map<String, String> master;
            try {
                master = sentinelMaster(sentinel.port());
            } catch (IOException | IllegalStateException e) {
                return "sentinel " + sentinel.port() + ": " + e.getMessage();
            }
            if (!"master".equals(master.get("flags")) || !"1".equals(master.get("num-slaves"))
                    || !Integer.toString(SENTINELS - 1).equals(master.get("num-other-sentinels"))) {
                return "sentinel " + sentinel.port() + " sees " + master;
            }
        }
        for (RedisProcess server : servers.values()) {
            try {
                String replication = Resp.text(LocalRedisSupport.LOOPBACK, server.port(), "INFO", "replication");
                if (replication.contains("role:slave") && !replication.contains("master_link_status:up")) {
                    return "replica " + server.port() + " not yet linked to its master";
                }
            } catch (IOException e) {
                return "server " + server.port() + ": " + e.getMessage();
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> sentinelMaster(int sentinelPort) throws IOException {
        List<Object> flat = (List<Object>) Resp.call(LocalRedisSupport.LOOPBACK, sentinelPort, "SENTINEL", "MASTER",
                MASTER_NAME);
        Map<String, String> fields = new HashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            fields.put(String.valueOf(flat.get(i)), String.valueOf(flat.get(i + 1)));
        }
        return fields;
    }

    /**
     * The name Redisson's {@code setMasterName} takes.
     *
     * @return {@value #MASTER_NAME}
     */
    public String masterName() {
        return MASTER_NAME;
    }

    /**
     * The sentinels' addresses, as Redisson's {@code addSentinelAddress} takes them.
     *
     * @return three addresses such as {@code redis://127.0.0.1:6390}
     */
    public List<String> sentinelUris() {
        return sentinels.stream().map(s -> "redis://" + LocalRedisSupport.LOOPBACK + ":" + s.port()).toList();
    }

    /**
     * The current master as the first sentinel that answers reports it
     * ({@code SENTINEL GET-MASTER-ADDR-BY-NAME}).
     *
     * @return for example {@code redis://127.0.0.1:6391}
     * @throws IllegalStateException when no sentinel answers
     */
    public String masterUri() {
        IOException last = null;
        for (RedisProcess sentinel : sentinels) {
            if (!sentinel.alive()) {
                continue;
            }
            try {
                List<?> addr = (List<?>) Resp.call(LocalRedisSupport.LOOPBACK, sentinel.port(), "SENTINEL",
                        "GET-MASTER-ADDR-BY-NAME", MASTER_NAME);
                return "redis://" + addr.get(0) + ":" + addr.get(1);
            } catch (IOException e) {
                last = e;
            }
        }
        throw new IllegalStateException("no sentinel answered GET-MASTER-ADDR-BY-NAME " + MASTER_NAME, last);
    }

    /**
     * The replication role a data server reports for itself ({@code ROLE}).
     *
     * @param uri a server address from {@link #masterUri()}
     * @return {@code master}, {@code slave}, or empty when the server does not answer
     */
    public Optional<String> role(String uri) {
        int port = Integer.parseInt(uri.substring(uri.lastIndexOf(':') + 1));
        try {
            List<?> role = (List<?>) Resp.call(LocalRedisSupport.LOOPBACK, port, "ROLE");
            return Optional.of(String.valueOf(role.get(0)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Asks a sentinel for a failover ({@code SENTINEL FAILOVER mymaster}): the replica is promoted
     * without waiting for the master to be seen down, and the old master is turned into its replica.
     * Returns when the sentinel accepted the request, not when the failover is done.
     *
     * @throws IllegalStateException when the sentinel refuses (for example NOGOODSLAVE)
     */
    public void failover() {
        try {
            Resp.call(LocalRedisSupport.LOOPBACK, sentinels.get(0).port(), "SENTINEL", "FAILOVER", MASTER_NAME);
        } catch (IOException e) {
            throw new UncheckedIOException("SENTINEL FAILOVER " + MASTER_NAME + " failed", e);
        }
    }

    /**
     * Kills the current master with SIGKILL (a crash: nothing flushed, connections reset). The
     * sentinels see it down after 1 s and promote the replica.
     *
     * @return the address of the killed master
     */
    public String killMaster() {
        String master = masterUri();
        int port = Integer.parseInt(master.substring(master.lastIndexOf(':') + 1));
        RedisProcess process = servers.get(port);
        if (process == null) {
            throw new IllegalStateException("the sentinels name " + master + " as master, which is not one of ours: "
                    + servers.keySet());
        }
        LOG.info("killing Redis master {} (pid {})", master, process.pid());
        process.kill();
        return master;
    }

    /**
     * Starts a server killed by {@link #killMaster()} again on its port (empty: persistence is off).
     * The sentinels then turn it into a replica of the new master.
     *
     * @param uri the address {@link #killMaster()} returned
     */
    public void restart(String uri) {
        int port = Integer.parseInt(uri.substring(uri.lastIndexOf(':') + 1));
        RedisProcess process = servers.get(port);
        if (process == null) {
            throw new IllegalArgumentException(uri + " is not one of this group's servers: " + servers.keySet());
        }
        process.restart();
    }

    /**
     * The end of the first sentinel's log ({@code +sdown}, {@code +switch-master} and so on), for
     * failure messages and diagnostics.
     *
     * @return up to the last 2,000 characters of the log
     */
    public String sentinelLog() {
        return sentinels.get(0).logTail();
    }

    /** Stops every process and deletes the directory; never throws. */
    @Override
    public void close() {
        for (RedisProcess sentinel : sentinels) {
            sentinel.stop();
        }
        for (RedisProcess server : servers.values()) {
            server.stop();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // The hook is running or about to run.
        }
        LocalRedisSupport.deleteTree(dir);
    }

    private void destroyAll() {
        sentinels.forEach(RedisProcess::destroyForcibly);
        servers.values().forEach(RedisProcess::destroyForcibly);
    }
}
