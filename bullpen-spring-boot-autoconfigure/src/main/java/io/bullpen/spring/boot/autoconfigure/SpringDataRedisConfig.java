package io.bullpen.spring.boot.autoconfigure;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.redisson.config.BaseConfig;
import org.redisson.config.Config;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;

/**
 * A Redisson {@link Config} from Spring's {@code spring.data.redis.*} properties: url or
 * host/port, username, password, database, ssl.enabled, timeout, connect-timeout, client-name,
 * sentinel.{master, nodes, username, password} and cluster.nodes. Read through a {@link Binder}
 * rather than Boot's own properties class, which moved package in Boot 4.
 *
 * <p>Redisson's I/O threads: {@link #ioThreads} (twice the cores, 4 to 32), not Redisson's fixed
 * 32. Each job is a few round trips, and each wakes an I/O thread; with 32 event loops on a small
 * machine nearly every reply and every write from another thread wakes a loop of its own, where
 * fewer loops take more of them per wake-up (measured in the operations guide, "Redisson's I/O
 * threads").
 */
final class SpringDataRedisConfig {
    private static final String P = "spring.data.redis.";

    private SpringDataRedisConfig() {
    }

    static Config from(Binder binder) {
        String url = string(binder, "url");
        URI uri = url == null ? null : URI.create(url);
        boolean ssl = binder.bind(P + "ssl.enabled", Boolean.class).orElse(false)
                || (uri != null && "rediss".equals(uri.getScheme()));
        String scheme = ssl ? "rediss://" : "redis://";
        String username = string(binder, "username");
        String password = string(binder, "password");
        int database = binder.bind(P + "database", Integer.class).orElse(0);
        if (uri != null && uri.getUserInfo() != null) {
            String[] parts = uri.getUserInfo().split(":", 2);
            if (parts.length == 2) {
                username = parts[0].isEmpty() ? null : parts[0];
                password = parts[1];
            } else {
                password = parts[0];
            }
        }
        if (uri != null && uri.getPath() != null && uri.getPath().length() > 1) {
            database = Integer.parseInt(uri.getPath().substring(1));
        }
        List<String> clusterNodes = list(binder, "cluster.nodes");
        String sentinelMaster = string(binder, "sentinel.master");
        Config config = new Config().setNettyThreads(ioThreads(Runtime.getRuntime().availableProcessors()));
        BaseConfig<?> server;
        if (!clusterNodes.isEmpty()) {
            var cluster = config.useClusterServers();
            clusterNodes.forEach(n -> cluster.addNodeAddress(scheme + n));
            server = cluster;
        } else if (sentinelMaster != null) {
            var sentinel = config.useSentinelServers().setMasterName(sentinelMaster).setDatabase(database);
            list(binder, "sentinel.nodes").forEach(n -> sentinel.addSentinelAddress(scheme + n));
            String sentinelUser = string(binder, "sentinel.username");
            String sentinelPassword = string(binder, "sentinel.password");
            if (sentinelUser != null) {
                sentinel.setSentinelUsername(sentinelUser);
            }
            if (sentinelPassword != null) {
                sentinel.setSentinelPassword(sentinelPassword);
            }
            // Tests and small setups run fewer than the 2 sentinels Redisson asks for by default.
            sentinel.setCheckSentinelsList(false);
            server = sentinel;
        } else {
            String host = uri != null ? uri.getHost() : binder.bind(P + "host", String.class).orElse("localhost");
            int port = uri != null && uri.getPort() > 0 ? uri.getPort() : binder.bind(P + "port", Integer.class).orElse(6379);
            server = config.useSingleServer().setAddress(scheme + host + ":" + port).setDatabase(database);
        }
        // Redisson 4 takes the credentials on the Config (the per-server setters are deprecated).
        if (username != null) {
            config.setUsername(username);
        }
        if (password != null) {
            config.setPassword(password);
        }
        binder.bind(P + "timeout", Duration.class).ifBound(t -> server.setTimeout((int) t.toMillis()));
        binder.bind(P + "connect-timeout", Duration.class).ifBound(t -> server.setConnectTimeout((int) t.toMillis()));
        String clientName = string(binder, "client-name");
        if (clientName != null) {
            server.setClientName(clientName);
        }
        return config;
    }

    /**
     * @param cores the processors the JVM may use
     * @return Redisson's I/O threads (Netty event loops) for that many cores: twice as many, at
     *     least 4 and at most 32 (Redisson's own default, which is the same on every machine)
     */
    static int ioThreads(int cores) {
        return Math.min(32, Math.max(4, 2 * cores));
    }

    private static String string(Binder binder, String name) {
        return binder.bind(P + name, String.class).map(s -> s.isBlank() ? null : s).orElse(null);
    }

    private static List<String> list(Binder binder, String name) {
        return binder.bind(P + name, Bindable.listOf(String.class)).orElse(List.of());
    }
}
