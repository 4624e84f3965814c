package io.bullpen.testing;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses and starts the Redis server of a test class.
 *
 * <ol>
 *   <li>{@code BULLPEN_TEST_REDIS=external|process|embedded|container|cluster} forces a kind, failing
 *       clearly when that kind is impossible here. {@code cluster} uses the cluster named by
 *       {@code REDIS_CLUSTER_URL} when set, else starts one (3 masters, 3 replicas) for the JVM.</li>
 *   <li>Otherwise {@code REDIS_CLUSTER_URL}, when set, names an existing cluster.</li>
 *   <li>Otherwise {@code REDIS_URL}, when set, names an existing server.</li>
 *   <li>Otherwise a {@code redis-server} binary on this machine, else the embedded one. Containers
 *       are never chosen unasked: Docker is not available everywhere the build runs.</li>
 * </ol>
 */
final class RedisLauncher {

    /** Environment variable that forces a kind. */
    static final String KIND_VARIABLE = "BULLPEN_TEST_REDIS";
    /** Environment variable naming an existing server. */
    static final String URL_VARIABLE = "REDIS_URL";
    /** Environment variable naming an existing cluster: comma-separated redis:// node addresses. */
    static final String CLUSTER_URL_VARIABLE = "REDIS_CLUSTER_URL";

    private static final Logger LOG = LoggerFactory.getLogger(RedisLauncher.class);

    private RedisLauncher() {
    }

    /** Starts a server as the environment asks; {@code env} maps a variable name to its value or null. */
    static RedisServerHandle launch(UnaryOperator<String> env, String forWhom) {
        RedisKind kind = chooseKind(env);
        long startNanos = System.nanoTime();
        RedisServerHandle server = start(kind, env);
        long millis = (System.nanoTime() - startNanos) / 1_000_000;
        LOG.info("Redis for {}: {} at {}:{} from {}, ready in {} ms", forWhom, server.kind(), server.host(),
                server.port(), server.description(), millis);
        return server;
    }

    /** The kind the environment asks for, checked for feasibility when forced. */
    static RedisKind chooseKind(UnaryOperator<String> env) {
        String forced = blankToNull(env.apply(KIND_VARIABLE));
        if (forced != null) {
            RedisKind kind = parseKind(forced);
            checkPossible(kind, env);
            return kind;
        }
        if (blankToNull(env.apply(CLUSTER_URL_VARIABLE)) != null) {
            return RedisKind.CLUSTER;
        }
        if (blankToNull(env.apply(URL_VARIABLE)) != null) {
            return RedisKind.EXTERNAL;
        }
        return ProcessRedisServer.findBinary().isPresent() ? RedisKind.PROCESS : RedisKind.EMBEDDED;
    }

    private static RedisKind parseKind(String value) {
        try {
            return RedisKind.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(KIND_VARIABLE + " must be one of external, process, embedded, container,"
                    + " cluster but was '" + value + "'", e);
        }
    }

    private static void checkPossible(RedisKind kind, UnaryOperator<String> env) {
        switch (kind) {
            case EXTERNAL -> {
                if (blankToNull(env.apply(URL_VARIABLE)) == null) {
                    throw new IllegalStateException(KIND_VARIABLE + "=external needs " + URL_VARIABLE
                            + " (for example redis://127.0.0.1:6379) but it is not set");
                }
            }
            case PROCESS -> {
                if (ProcessRedisServer.findBinary().isEmpty()) {
                    throw new IllegalStateException(KIND_VARIABLE + "=process needs a redis-server binary on the PATH"
                            + " or in /usr/bin, /usr/sbin, /usr/local/bin, but there is none");
                }
            }
            case CONTAINER -> checkDocker();
            case CLUSTER -> {
                if (blankToNull(env.apply(CLUSTER_URL_VARIABLE)) == null) {
                    if (ProcessRedisServer.findBinary().isEmpty() || LocalRedisCluster.findCli().isEmpty()) {
                        throw new IllegalStateException(KIND_VARIABLE + "=cluster needs " + CLUSTER_URL_VARIABLE
                                + " (comma-separated redis:// node addresses) or redis-server and redis-cli on the"
                                + " PATH (apt-get install redis-server) to start a cluster, but has neither");
                    }
                }
            }
            case EMBEDDED -> {
                // Bundled in the jar: always possible on the platforms embedded-redis supports.
            }
        }
    }

    private static void checkDocker() {
        boolean available;
        try {
            available = ContainerRedisServer.dockerAvailable();
        } catch (LinkageError e) {
            throw new IllegalStateException(KIND_VARIABLE + "=container needs org.testcontainers:testcontainers"
                    + " on the test classpath (it is an optional dependency of queue-testing)", e);
        }
        if (!available) {
            throw new IllegalStateException(KIND_VARIABLE + "=container but no Docker engine answers");
        }
    }

    private static RedisServerHandle start(RedisKind kind, UnaryOperator<String> env) {
        return switch (kind) {
            case EXTERNAL -> ExternalRedisServer.parse(env.apply(URL_VARIABLE));
            case PROCESS -> {
                Optional<Path> binary = ProcessRedisServer.findBinary();
                yield ProcessRedisServer.launch(binary.orElseThrow());
            }
            case EMBEDDED -> EmbeddedRedisServer.launch();
            case CONTAINER -> ContainerRedisServer.launch();
            case CLUSTER -> {
                String urls = blankToNull(env.apply(CLUSTER_URL_VARIABLE));
                yield urls != null ? ClusterRedisServer.parse(urls) : ClusterRedisServer.local();
            }
        };
    }

    /**
     * Looks a setting up as a system property of the same name first (so {@code -DBULLPEN_TEST_REDIS=cluster}
     * works from Maven or an IDE), then as an environment variable.
     */
    static String setting(String name) {
        String property = blankToNull(System.getProperty(name));
        return property != null ? property : System.getenv(name);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
