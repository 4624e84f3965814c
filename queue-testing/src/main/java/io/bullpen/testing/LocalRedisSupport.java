package io.bullpen.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Small helpers for servers the harness starts on loopback: free ports, readiness, cleanup. */
final class LocalRedisSupport {

    static final String LOOPBACK = "127.0.0.1";

    private static final Logger LOG = LoggerFactory.getLogger(LocalRedisSupport.class);

    private LocalRedisSupport() {
    }

    /**
     * Polls {@code notReadyReason} (null = ready) until it is null or {@code timeout} passes.
     *
     * @return null when ready, else the last reason
     */
    static String awaitReady(java.util.function.Supplier<String> notReadyReason, java.time.Duration timeout, long pollMillis) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            last = notReadyReason.get();
            if (last == null) {
                return null;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(pollMillis));
        }
        return last;
    }

    /** A free loopback port not in {@code used} (and added to it), for processes started together. */
    static int freshPort(java.util.Set<Integer> used) {
        for (int i = 0; i < 20; i++) {
            int port = freePort();
            if (used.add(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no fresh loopback port");
    }

    /** A loopback port that was free a moment ago (another process may still take it: callers retry). */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getByName(LOOPBACK), 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }

    /** Whether a Redis server on the loopback port answers PING with PONG (not LOADING or an error). */
    static boolean answersPing(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(LOOPBACK, port), 200);
            socket.setSoTimeout(500);
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] reply = new byte[7];
            int read = in.readNBytes(reply, 0, reply.length);
            return new String(reply, 0, read, StandardCharsets.US_ASCII).startsWith("+PONG");
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Polls until the server on {@code port} answers PING, the process dies or the timeout passes.
     *
     * @return true when it answered
     */
    static boolean awaitPing(int port, Process process, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (answersPing(port)) {
                return true;
            }
            if (process != null && !process.isAlive()) {
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
        return answersPing(port);
    }

    /** Deletes a directory tree; a leftover temp file is not worth failing a test run for. */
    static void deleteTree(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            LOG.debug("could not delete {}", dir, e);
        }
    }

    /** The last lines of a log file, for error messages. */
    static String tail(Path file, int maxChars) {
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            return text.length() <= maxChars ? text : "..." + text.substring(text.length() - maxChars);
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
