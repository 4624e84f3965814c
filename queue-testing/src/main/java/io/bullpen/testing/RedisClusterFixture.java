package io.bullpen.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.redisson.config.ReadMode;

/**
 * A Redis Cluster of its own (3 masters, 3 replicas, from {@code redis-server} processes) for
 * tests that break nodes: unlike the cluster the harness shares per JVM, killing a master here
 * disturbs no other test class. Close it to stop every node and delete its files.
 *
 * <pre>{@code
 * try (RedisClusterFixture cluster = RedisClusterFixture.start()) {
 *     RedissonClient client = cluster.newClient();
 *     int port = cluster.masterPortOf("bp:{orders}:wait");
 *     cluster.kill(port);   // its replica takes over after cluster-node-timeout (5 s)
 * }
 * }</pre>
 */
public final class RedisClusterFixture implements AutoCloseable {
    private final LocalRedisCluster cluster;

    private RedisClusterFixture(LocalRedisCluster cluster) {
        this.cluster = cluster;
    }

    /**
     * Starts a new cluster and waits until every slot is served.
     *
     * @return the running cluster
     * @throws IllegalStateException when redis-server or redis-cli is missing or the cluster does not form
     */
    public static RedisClusterFixture start() {
        return new RedisClusterFixture(LocalRedisCluster.start());
    }

    /**
     * Whether a cluster can be started here (redis-server and redis-cli found).
     *
     * @return true when both binaries exist
     */
    public static boolean available() {
        return ProcessRedisServer.findBinary().isPresent() && LocalRedisCluster.findCli().isPresent();
    }

    /**
     * @return every node's address, for example {@code redis://127.0.0.1:7001}
     */
    public List<String> nodeUris() {
        return cluster.nodeUris();
    }

    /**
     * A cluster-mode client seeded with every node, reading from masters, rescanning the topology
     * every second. The caller shuts it down.
     *
     * @return a new client
     */
    public RedissonClient newClient() {
        Config config = new Config();
        config.useClusterServers()
                .addNodeAddress(nodeUris().toArray(String[]::new))
                .setReadMode(ReadMode.MASTER)
                .setScanInterval(1000);
        return Redisson.create(config);
    }

    /**
     * The port of the master that currently serves {@code key}'s slot (asked of the nodes with
     * {@code CLUSTER KEYSLOT} and {@code CLUSTER SLOTS}).
     *
     * @param key a key, hash tag included
     * @return the master's port
     * @throws IllegalStateException when no live node answers for the slot
     */
    public int masterPortOf(String key) {
        for (int port : cluster.ports()) {
            try {
                long slot = (Long) Resp.call(LocalRedisSupport.LOOPBACK, port, "CLUSTER", "KEYSLOT", key);
                Object slots = Resp.call(LocalRedisSupport.LOOPBACK, port, "CLUSTER", "SLOTS");
                for (Object range : (List<?>) slots) {
                    List<?> r = (List<?>) range;
                    if (slot >= (Long) r.get(0) && slot <= (Long) r.get(1)) {
                        List<?> master = (List<?>) r.get(2);
                        return ((Long) master.get(1)).intValue();
                    }
                }
            } catch (IOException | RuntimeException e) {
                // A dead or not yet ready node: ask the next one.
            }
        }
        throw new IllegalStateException("no live node of the cluster serves the slot of " + key);
    }

    /**
     * SIGKILLs the node on {@code port}, as a crash.
     *
     * @param port one of the cluster's node ports
     * @throws IllegalArgumentException when no node has that port
     */
    public void kill(int port) {
        if (!cluster.kill(port)) {
            throw new IllegalArgumentException("no node of the cluster listens on port " + port);
        }
    }

    /**
     * Starts a killed node again, with its own directory and cluster config: it rejoins the cluster
     * (a master whose slots a replica took over comes back as that replica's replica).
     *
     * @param port the node's port
     * @throws IllegalArgumentException when no node has that port
     */
    public void restart(int port) {
        if (!cluster.restart(port)) {
            throw new IllegalArgumentException("no node of the cluster listens on port " + port);
        }
    }

    /**
     * Freezes the node on {@code port} (SIGSTOP), as a hung server: it neither answers nor
     * replicates until {@link #resume(int)}.
     *
     * @param port the node's port
     */
    public void suspend(int port) {
        signal(port, "-STOP");
    }

    /**
     * Thaws a node frozen by {@link #suspend(int)} (SIGCONT).
     *
     * @param port the node's port
     */
    public void resume(int port) {
        signal(port, "-CONT");
    }

    private void signal(int port, String signal) {
        long pid = cluster.pid(port);
        if (pid < 0) {
            throw new IllegalArgumentException("no running node of the cluster listens on port " + port);
        }
        try {
            int exit = new ProcessBuilder("kill", signal, Long.toString(pid)).inheritIO().start().waitFor();
            if (exit != 0) {
                throw new IllegalStateException("kill " + signal + " " + pid + " exited with " + exit);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run kill " + signal + " " + pid, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while signalling " + pid, e);
        }
    }

    /**
     * The ports of the replicas of the master on {@code masterPort} ({@code ROLE} on the master).
     *
     * @param masterPort a master's port
     * @return its replicas' ports
     */
    public List<Integer> replicaPortsOf(int masterPort) {
        try {
            List<?> role = (List<?>) Resp.call(LocalRedisSupport.LOOPBACK, masterPort, "ROLE");
            List<Integer> ports = new java.util.ArrayList<>();
            for (Object replica : (List<?>) role.get(2)) {
                ports.add(Integer.parseInt(String.valueOf(((List<?>) replica).get(1))));
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("master on port " + masterPort + " does not answer", e);
        }
    }

    /**
     * The role of the node on {@code port} as {@code ROLE} reports it.
     *
     * @param port a node port
     * @return "master" or "slave"
     * @throws UncheckedIOException when the node does not answer
     */
    public String role(int port) {
        try {
            Object reply = Resp.call(LocalRedisSupport.LOOPBACK, port, "ROLE");
            return String.valueOf(((List<?>) reply).get(0));
        } catch (IOException e) {
            throw new UncheckedIOException("node on port " + port + " does not answer", e);
        }
    }

    /** Stops every node and deletes the cluster's files. */
    @Override
    public void close() {
        cluster.close();
    }
}
