package io.bullpen.chaos;

import static org.awaitility.Awaitility.await;

import io.bullpen.testing.Resp;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@code redis-server} process owned by one chaos test class, configured like a production
 * server that must keep what it acknowledged: {@code appendonly yes}, {@code appendfsync always},
 * {@code noeviction}. Unlike the harness's server it can be crashed (SIGKILL) and started again on
 * the same port from the same data directory, and frozen with SIGSTOP / SIGCONT.
 *
 * <p>The process is destroyed by {@link #close()} and by a shutdown hook, so a crashed test run
 * leaves no server behind; the data directory is deleted by {@link #close()}.
 */
final class ChaosRedis implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ChaosRedis.class);
    private static final String HOST = "127.0.0.1";
    private static final Duration READY = Duration.ofSeconds(30);

    private final Path binary;
    private final Path dir;
    private final int port;
    private final Thread hook;
    private final List<RedissonClient> clients = new CopyOnWriteArrayList<>();
    private volatile Process process;

    private ChaosRedis(Path binary, Path dir, int port) {
        this.binary = binary;
        this.dir = dir;
        this.port = port;
        this.hook = new Thread(this::destroyQuietly, "chaos-redis-" + port + "-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Starts a server on a free loopback port (a few tries when the port is taken meanwhile). */
    static ChaosRedis start() throws IOException {
        Path binary = findBinary();
        Path dir = Files.createTempDirectory("bullpen-chaos-redis-");
        IOException last = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            ChaosRedis redis = new ChaosRedis(binary, dir, freePort());
            try {
                redis.launch();
                log.info("chaos Redis {} on port {} (pid {}, dir {}, appendonly yes, appendfsync always)",
                        redis.version(), redis.port, redis.pid(), dir);
                return redis;
            } catch (IOException e) {
                last = e;
                redis.close();
                Files.createDirectories(dir);
            }
        }
        throw last;
    }

    private static Path findBinary() {
        List<String> dirs = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            dirs.addAll(List.of(path.split(File.pathSeparator)));
        }
        dirs.addAll(List.of("/usr/bin", "/usr/sbin", "/usr/local/bin"));
        return dirs.stream().filter(d -> !d.isBlank()).map(d -> Paths.get(d, "redis-server"))
                .filter(p -> Files.isRegularFile(p) && Files.isExecutable(p)).findFirst()
                .orElseThrow(() -> new IllegalStateException("the chaos suite needs a redis-server binary on the PATH "
                        + "(apt-get install redis-server); it crashes, restarts and freezes the server process"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getByName(HOST), 0));
            return socket.getLocalPort();
        }
    }

    /** Runs the binary on this port and data dir and waits until it answers PING (AOF loaded). */
    private synchronized void launch() throws IOException {
        List<String> command = List.of(binary.toString(),
                "--port", Integer.toString(port), "--bind", HOST, "--daemonize", "no",
                "--dir", dir.toString(), "--save", "",
                "--appendonly", "yes", "--appendfsync", "always",
                "--maxmemory-policy", "noeviction");
        Path logFile = dir.resolve("redis.log");
        process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile())).start();
        long deadline = System.nanoTime() + READY.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                break;
            }
            try {
                if ("PONG".equals(call("PING"))) {
                    return;
                }
            } catch (IOException | IllegalStateException notYet) {
                // not listening yet, or LOADING the AOF (an error reply)
            }
            try {
                TimeUnit.MILLISECONDS.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while redis-server started", e);
            }
        }
        String output = Files.exists(logFile) ? Files.readString(logFile) : "";
        destroyQuietly();
        throw new IOException("redis-server on port " + port + " did not answer PING; output:\n"
                + output.substring(Math.max(0, output.length() - 3000)));
    }

    String uri() {
        return "redis://" + HOST + ":" + port;
    }

    int port() {
        return port;
    }

    long pid() {
        Process p = process;
        return p == null ? -1 : p.pid();
    }

    String version() throws IOException {
        for (String line : call("INFO", "server").split("\r\n")) {
            if (line.startsWith("redis_version:")) {
                return line.substring("redis_version:".length());
            }
        }
        return "?";
    }

    /** kill -9 of the server: no shutdown, no last fsync beyond what appendfsync always already did. */
    synchronized void crash() throws InterruptedException {
        Process p = process;
        if (p == null) {
            return;
        }
        p.destroyForcibly();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("redis-server " + p.pid() + " survived SIGKILL");
        }
        process = null;
    }

    /** Starts the server again on the same port and data dir; returns once it answers PING (AOF loaded). */
    synchronized void restart() throws IOException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("redis-server is still running");
        }
        launch();
    }

    /** SIGSTOP: the server freezes (sockets stay open, nothing is answered), as in a long GC-like or VM pause. */
    void freeze() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** SIGCONT: the frozen server goes on; it then sees every PX lock whose time ran out meanwhile as expired. */
    void thaw() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String name) throws IOException, InterruptedException {
        long pid = pid();
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).redirectErrorStream(true).start();
        String out = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (kill.waitFor() != 0) {
            throw new IOException("kill -" + name + " " + pid + " failed: " + out);
        }
    }

    /** A Redisson client for this server (default config but a small pool), shut down by {@link #close()}. */
    RedissonClient newClient() {
        Config config = new Config();
        config.setNettyThreads(4);
        config.useSingleServer().setAddress(uri()).setConnectionMinimumIdleSize(2).setConnectionPoolSize(16);
        RedissonClient client = Redisson.create(config);
        clients.add(client);
        return client;
    }

    /** One command on a fresh connection (outside Redisson, so CLIENT KILL never hits it); the reply as text. */
    String call(String... args) throws IOException {
        return Resp.text(HOST, port, args);
    }

    /** Waits until the server answers PING again (used after thaw). */
    void awaitPing(Duration atMost) {
        await("Redis answers PING").atMost(atMost).pollInterval(Duration.ofMillis(5)).ignoreExceptions()
                .until(() -> "PONG".equals(call("PING")));
    }

    private void destroyQuietly() {
        Process p = process;
        if (p != null) {
            try {
                signal("CONT"); // a frozen process ignores nothing but SIGKILL, still: never leave one stopped
            } catch (IOException | InterruptedException | RuntimeException ignored) {
                // best effort
            }
            p.destroyForcibly();
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void close() {
        for (RedissonClient client : clients) {
            try {
                client.shutdown(0, 2, TimeUnit.SECONDS);
            } catch (RuntimeException e) {
                log.warn("closing a Redisson client failed", e);
            }
        }
        clients.clear();
        destroyQuietly();
        process = null;
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            log.debug("could not delete {}", dir, e);
        }
    }
}
