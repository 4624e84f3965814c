package io.bullpen.bench;

import io.bullpen.bench.redis.RedisControl;
import io.bullpen.bench.redis.RedisServerProcess;
import java.nio.file.Path;

/**
 * What every workload and peer driver works with: the benchmark's Redis, its control
 * connection, the sizes, and where the BullMQ peer lives.
 */
public final class BenchContext {
    private final RedisServerProcess server;
    private final RedisControl control;
    private final Sizes sizes;
    private final Path bullmqDir;

    /**
     * @param server the running redis-server
     * @param control the harness's control connection to it
     * @param sizes the workloads' sizes
     * @param bullmqDir the folder holding the BullMQ scripts and package.json
     */
    public BenchContext(RedisServerProcess server, RedisControl control, Sizes sizes, Path bullmqDir) {
        this.server = server;
        this.control = control;
        this.sizes = sizes;
        this.bullmqDir = bullmqDir;
    }

    /** @return the Redis port on 127.0.0.1 */
    public int port() {
        return server.port();
    }

    /** @return {@code redis://127.0.0.1:<port>} */
    public String url() {
        return server.url();
    }

    /** @return redis-server's process id */
    public long redisPid() {
        return server.pid();
    }

    /** @return the harness's control connection */
    public RedisControl control() {
        return control;
    }

    /** @return the workloads' sizes */
    public Sizes sizes() {
        return sizes;
    }

    /** @return the BullMQ peer's folder */
    public Path bullmqDir() {
        return bullmqDir;
    }
}
