package io.bullpen.bench.redis;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A redis-server started for the benchmark: on a free loopback port, without persistence
 * ({@code --save "" --appendonly no}), at a given {@code hz}, logging to a file in a temporary
 * directory. Closing it stops the server.
 *
 * <p>One change from Redis's defaults: {@code latency-tracking no}. With it on, every command
 * gets a latency histogram of about 24 KB on first use, and CONFIG RESETSTAT frees them all, so
 * memory measured across a reset would drop by a megabyte and then grow back with each command
 * a peer uses.
 */
public final class RedisServerProcess implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RedisServerProcess.class);

    private final Process process;
    private final int port;
    private final Path dir;

    private RedisServerProcess(Process process, int port, Path dir) {
        this.process = process;
        this.port = port;
        this.dir = dir;
    }

    /**
     * Starts a server and waits until it answers PING.
     *
     * @param binary the redis-server executable
     * @param hz the server's {@code hz} (10 is Redis's default)
     * @return the running server
     * @throws IOException when it cannot be started or does not answer within 10 s
     */
    public static RedisServerProcess start(String binary, int hz) throws IOException {
        int port = freePort();
        Path dir = Files.createTempDirectory("bullpen-bench-redis");
        List<String> command = List.of(binary, "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--hz", Integer.toString(hz), "--latency-tracking", "no", "--dir", dir.toString(),
                "--daemonize", "no", "--loglevel", "warning");
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("redis.log").toFile())
                .start();
        RedisServerProcess server = new RedisServerProcess(process, port, dir);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("redis-server exited with " + process.exitValue() + ": "
                        + Files.readString(dir.resolve("redis.log")));
            }
            try (RedisControl control = RedisControl.connect(port)) {
                control.call("PING");
                log.info("redis-server pid {} on port {} (hz {})", process.pid(), port, hz);
                return server;
            } catch (IOException notYet) {
                sleep(50);
            }
        }
        server.close();
        throw new IOException("redis-server did not answer on port " + port + " within 10 s");
    }

    /**
     * Finds redis-server: the given path, else on the PATH, else {@code /usr/bin/redis-server}.
     *
     * @param given a path from the command line, or null
     * @return the executable
     * @throws IllegalStateException when there is none
     */
    public static String findBinary(String given) {
        if (given != null) {
            return given;
        }
        for (String entry : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File candidate = new File(entry, "redis-server");
            if (candidate.canExecute()) {
                return candidate.getPath();
            }
        }
        if (new File("/usr/bin/redis-server").canExecute()) {
            return "/usr/bin/redis-server";
        }
        throw new IllegalStateException("redis-server not found on the PATH (apt-get install -y redis-server, "
                + "or pass --redis-server PATH)");
    }

    /** @return the port the server listens on (127.0.0.1) */
    public int port() {
        return port;
    }

    /** @return the server's process id, for reading its CPU time */
    public long pid() {
        return process.pid();
    }

    /** @return {@code redis://127.0.0.1:<port>} */
    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    /** Stops the server (SIGTERM, then SIGKILL after 10 s) and deletes its directory. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (var files = Files.list(dir)) {
            for (Path file : files.toList()) {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            log.debug("could not delete {}: {}", dir, e.toString());
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
