package io.bullpen.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One {@code redis-server} child process (a cluster node, a Sentinel-monitored server or a
 * sentinel) on a loopback port, with its output in {@code <dir>/redis.log}. Used by
 * {@link LocalRedisCluster} and {@link LocalRedisSentinel}, which own the directories.
 */
final class RedisProcess {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    private final Path binary;
    private final Path dir;
    private final int port;
    private final List<String> args;
    private Process process;

    private RedisProcess(Path binary, Path dir, int port, List<String> args, Process process) {
        this.binary = binary;
        this.dir = dir;
        this.port = port;
        this.args = List.copyOf(args);
        this.process = process;
    }

    /**
     * Runs {@code binary args...} in {@code dir} and waits until port answers PING.
     *
     * @return the process, or null when the port was taken meanwhile (the caller picks another)
     * @throws IllegalStateException when the server did not come up for another reason, with its output
     */
    static RedisProcess start(Path binary, Path dir, int port, List<String> args) {
        Process process = run(binary, dir, args);
        if (LocalRedisSupport.awaitPing(port, process, READY_TIMEOUT)) {
            return new RedisProcess(binary, dir, port, args, process);
        }
        destroy(process);
        String output = LocalRedisSupport.tail(dir.resolve("redis.log"), 2000);
        if (output.contains("Address already in use")) {
            return null;
        }
        throw new IllegalStateException(binary + " " + String.join(" ", args) + " did not answer PING on port " + port
                + " within " + READY_TIMEOUT.toSeconds() + " s; its output:\n" + output);
    }

    private static Process run(Path binary, Path dir, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(binary.toString());
        command.addAll(args);
        try {
            return new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("redis.log").toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + binary, e);
        }
    }

    static void destroy(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    int port() {
        return port;
    }

    Path dir() {
        return dir;
    }

    synchronized long pid() {
        return process == null ? -1 : process.pid();
    }

    synchronized boolean alive() {
        return process != null && process.isAlive();
    }

    /** SIGKILL, as a crash: no shutdown work in Redis. */
    synchronized void kill() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process = null;
        }
    }

    /** SIGTERM, then SIGKILL after 10 s. */
    synchronized void stop() {
        if (process != null) {
            destroy(process);
            process = null;
        }
    }

    /** Runs the same command again on the same port and waits for PING; no-op when alive. */
    synchronized void restart() {
        if (alive()) {
            return;
        }
        Process started = run(binary, dir, args);
        if (!LocalRedisSupport.awaitPing(port, started, READY_TIMEOUT)) {
            destroy(started);
            throw new IllegalStateException("redis-server on port " + port + " did not come back; its output:\n"
                    + LocalRedisSupport.tail(dir.resolve("redis.log"), 2000));
        }
        process = started;
    }

    /** Kills without waiting, for shutdown hooks. */
    synchronized void destroyForcibly() {
        if (process != null) {
            process.destroyForcibly();
        }
    }

    /** The last part of the process's output. */
    String logTail() {
        return LocalRedisSupport.tail(dir.resolve("redis.log"), 2000);
    }
}
