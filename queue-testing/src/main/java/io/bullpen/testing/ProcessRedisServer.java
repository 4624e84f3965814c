package io.bullpen.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A {@code redis-server} binary from this machine run as a child process on a free loopback port,
 * with persistence off and its working files in a temp directory that {@link #close()} deletes.
 */
final class ProcessRedisServer implements RedisServerHandle {

    private static final int PORT_ATTEMPTS = 5;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(10);

    private final Path binary;
    private final Path dir;
    private final Path log;
    private final int port;
    // Destroys the child if the JVM exits without afterAll (a killed fork, Ctrl-C).
    private final Thread shutdownHook;
    private Process process;

    private ProcessRedisServer(Path binary, Path dir, int port, Process process) {
        this.binary = binary;
        this.dir = dir;
        this.log = dir.resolve("redis.log");
        this.port = port;
        this.process = process;
        this.shutdownHook = new Thread(this::destroyQuietly, "bullpen-redis-" + port + "-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** The first executable {@code redis-server} on the PATH, then in /usr/bin, /usr/sbin, /usr/local/bin. */
    static Optional<Path> findBinary() {
        return findBinary("redis-server");
    }

    /** The first executable file with this name on the PATH, then in /usr/bin, /usr/sbin, /usr/local/bin. */
    static Optional<Path> findBinary(String name) {
        Set<String> dirs = new LinkedHashSet<>();
        String path = System.getenv("PATH");
        if (path != null) {
            for (String entry : path.split(File.pathSeparator)) {
                if (!entry.isBlank()) {
                    dirs.add(entry);
                }
            }
        }
        dirs.addAll(List.of("/usr/bin", "/usr/sbin", "/usr/local/bin"));
        return dirs.stream()
                .map(d -> Paths.get(d, name))
                .filter(p -> Files.isRegularFile(p) && Files.isExecutable(p))
                .findFirst();
    }

    /** Starts the binary on a free port, trying another port when the chosen one was taken meanwhile. */
    static ProcessRedisServer launch(Path binary) {
        Path dir;
        try {
            dir = Files.createTempDirectory("bullpen-redis-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp dir for redis-server", e);
        }
        try {
            for (int attempt = 1; attempt <= PORT_ATTEMPTS; attempt++) {
                int port = LocalRedisSupport.freePort();
                Process process = run(binary, dir, port);
                if (process != null) {
                    return new ProcessRedisServer(binary, dir, port, process);
                }
            }
            throw new IllegalStateException("redis-server found no free port in " + PORT_ATTEMPTS + " attempts");
        } catch (RuntimeException e) {
            LocalRedisSupport.deleteTree(dir);
            throw e;
        }
    }

    /** Runs the binary and waits for PONG; null when the port was taken (the caller picks another). */
    private static Process run(Path binary, Path dir, int port) {
        Path log = dir.resolve("redis.log");
        List<String> command = new ArrayList<>(List.of(binary.toString(),
                "--port", Integer.toString(port), "--bind", LocalRedisSupport.LOOPBACK,
                "--save", "", "--appendonly", "no", "--daemonize", "no", "--dir", dir.toString()));
        Process process;
        try {
            process = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + binary, e);
        }
        if (LocalRedisSupport.awaitPing(port, process, READY_TIMEOUT)) {
            return process;
        }
        RedisProcess.destroy(process);
        String output = LocalRedisSupport.tail(log, 2000);
        if (output.contains("Address already in use")) {
            return null;
        }
        throw new IllegalStateException("redis-server on port " + port + " did not answer PING within "
                + READY_TIMEOUT.toSeconds() + " s; its output:\n" + output);
    }


    @Override
    public RedisKind kind() {
        return RedisKind.PROCESS;
    }

    @Override
    public String host() {
        return LocalRedisSupport.LOOPBACK;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String description() {
        return binary + " (pid " + currentPid() + ", dir " + dir + ")";
    }

    private synchronized String currentPid() {
        return process == null ? "-" : Long.toString(process.pid());
    }

    @Override
    public boolean restartable() {
        return true;
    }

    @Override
    public synchronized boolean running() {
        return process != null && process.isAlive();
    }

    @Override
    public synchronized void stop() {
        if (process != null) {
            RedisProcess.destroy(process);
            process = null;
        }
    }

    @Override
    public synchronized void start() {
        if (running()) {
            return;
        }
        Process started = run(binary, dir, port);
        if (started == null) {
            throw new IllegalStateException("cannot restart redis-server: port " + port
                    + " was taken by another process meanwhile; output:\n" + LocalRedisSupport.tail(log, 2000));
        }
        process = started;
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // The hook is running or about to run; nothing left to undo.
        }
        LocalRedisSupport.deleteTree(dir);
    }

    private synchronized void destroyQuietly() {
        if (process != null) {
            process.destroyForcibly();
        }
    }
}
