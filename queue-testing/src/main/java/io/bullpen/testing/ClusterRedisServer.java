package io.bullpen.testing;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A Redis Cluster: the harness's own {@link LocalRedisCluster} (shared by the JVM, flushed before
 * each test class) or an existing one named by {@code REDIS_CLUSTER_URL} (comma-separated
 * {@code redis[s]://[[user]:password@]host:port} seed nodes; never flushed, tests keep apart by
 * random queue names). Neither can be stopped or restarted through {@link TestRedis}.
 */
final class ClusterRedisServer implements RedisServerHandle {

    private final List<URI> nodes;
    private final LocalRedisCluster local;
    private final String username;
    private final String password;

    private ClusterRedisServer(List<URI> nodes, LocalRedisCluster local, String username, String password) {
        this.nodes = List.copyOf(nodes);
        this.local = local;
        this.username = username;
        this.password = password;
    }

    /** The JVM's own cluster, started on first use, emptied for the class that asks. */
    static ClusterRedisServer local() {
        LocalRedisCluster cluster = LocalRedisCluster.shared();
        cluster.flushAll();
        List<URI> uris = cluster.nodeUris().stream().map(URI::create).toList();
        return new ClusterRedisServer(uris, cluster, null, null);
    }

    /** An existing cluster; credentials are taken from the first address that has them. */
    static ClusterRedisServer parse(String urls) {
        List<URI> nodes = new ArrayList<>();
        String username = null;
        String password = null;
        for (String part : urls.split(",")) {
            String url = part.trim();
            if (url.isEmpty()) {
                continue;
            }
            URI uri;
            try {
                uri = new URI(url);
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException("REDIS_CLUSTER_URL has an entry that is not a URI: " + url, e);
            }
            if (!"redis".equals(uri.getScheme()) && !"rediss".equals(uri.getScheme())) {
                throw new IllegalArgumentException("REDIS_CLUSTER_URL entries must start with redis:// or rediss://"
                        + " but one was " + url);
            }
            if (uri.getHost() == null || uri.getPort() < 0) {
                throw new IllegalArgumentException("REDIS_CLUSTER_URL entries need a host and a port but one was "
                        + url);
            }
            String userInfo = uri.getRawUserInfo();
            if (userInfo != null && !userInfo.isEmpty() && password == null) {
                int colon = userInfo.indexOf(':');
                if (colon < 0) {
                    password = decode(userInfo);
                } else {
                    username = colon == 0 ? null : decode(userInfo.substring(0, colon));
                    password = decode(userInfo.substring(colon + 1));
                }
            }
            nodes.add(URI.create(uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort()));
        }
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("REDIS_CLUSTER_URL names no node: '" + urls + "'");
        }
        return new ClusterRedisServer(nodes, null, username, password);
    }

    private static String decode(String text) {
        return URLDecoder.decode(text, StandardCharsets.UTF_8);
    }

    /** Seed node addresses, as Redisson takes them. */
    List<String> nodeUris() {
        return nodes.stream().map(URI::toString).toList();
    }

    /** Whether the harness started this cluster (and flushes it between classes). */
    boolean owned() {
        return local != null;
    }

    @Override
    public RedisKind kind() {
        return RedisKind.CLUSTER;
    }

    @Override
    public String host() {
        return nodes.get(0).getHost();
    }

    @Override
    public int port() {
        return nodes.get(0).getPort();
    }

    @Override
    public String scheme() {
        return nodes.get(0).getScheme();
    }

    @Override
    public String username() {
        return username;
    }

    @Override
    public String password() {
        return password;
    }

    @Override
    public String description() {
        return local != null
                ? "a Redis Cluster of " + LocalRedisCluster.NODES + " redis-server processes (" + LocalRedisCluster.MASTERS
                        + " masters) shared by this JVM, flushed before each class, dir " + local.dir()
                : "REDIS_CLUSTER_URL " + nodeUris() + " (never flushed)";
    }

    @Override
    public boolean running() {
        return local == null || local.running();
    }

    @Override
    public void close() {
        // Shared by every class of the JVM: the JVM's shutdown hook stops a local cluster.
    }
}
