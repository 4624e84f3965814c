package io.bullpen.examples;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.embedded.RedisServer;

/**
 * The Redis an example runs against: one given by URL, the local one on port 6379 when it
 * answers, or else an embedded Redis (a Redis 7.0 binary bundled in the jar) started on a free
 * port and stopped by {@link #close()}. So the demo needs nothing installed but a JDK.
 */
public final class RedisLauncher implements AutoCloseable {
    /** Where the demo looks for a local Redis first. */
    public static final String LOCAL_URL = "redis://127.0.0.1:6379";

    /**
     * System property overriding {@link #LOCAL_URL} as the address probed; only tests set it, to
     * check the embedded fallback on a machine where a Redis does listen on 6379.
     */
    public static final String PROBE_PROPERTY = "bullpen.demo.probe";

    private static final Logger log = LoggerFactory.getLogger(RedisLauncher.class);
    private static final Duration PROBE_TIMEOUT = Duration.ofMillis(300);
    private static final int EMBEDDED_START_ATTEMPTS = 3;

    private final String url;
    private final String description;
    private final RedisServer embedded;

    private RedisLauncher(String url, String description, RedisServer embedded) {
        this.url = url;
        this.description = description;
        this.embedded = embedded;
    }

    /**
     * Uses the Redis at {@code url} as it is: nothing is probed or started.
     *
     * @param url for example {@code redis://127.0.0.1:6379} or {@code redis://:password@host:6380}
     * @return a launcher whose {@link #close()} does nothing
     */
    public static RedisLauncher external(String url) {
        return new RedisLauncher(Objects.requireNonNull(url, "url"), "given with --redis", null);
    }

    /**
     * Uses the local Redis when one answers PING on {@link #LOCAL_URL} (or on the address in the
     * {@value #PROBE_PROPERTY} system property) within 300 ms; else starts an embedded one.
     *
     * @return the launcher; close it to stop the embedded Redis
     * @throws IllegalStateException when the embedded Redis cannot start
     */
    public static RedisLauncher localOrEmbedded() {
        return localOrEmbedded(System.getProperty(PROBE_PROPERTY, LOCAL_URL));
    }

    /**
     * As {@link #localOrEmbedded()}, probing {@code probeUrl} instead.
     *
     * @param probeUrl the address to try first
     * @return the launcher
     */
    static RedisLauncher localOrEmbedded(String probeUrl) {
        String reply = ping(probeUrl, PROBE_TIMEOUT);
        if (reply != null && reply.startsWith("+PONG")) {
            return new RedisLauncher(probeUrl, "the Redis that answered on " + hostPort(probeUrl), null);
        }
        if (reply != null && reply.startsWith("-NOAUTH")) {
            log.info("the Redis on {} needs a password (pass --redis redis://:PASSWORD@{}); using an embedded Redis",
                    hostPort(probeUrl), hostPort(probeUrl));
        }
        return embedded();
    }

    /**
     * Starts an embedded Redis on a free loopback port, without persistence.
     *
     * @return the launcher; close it to stop the server
     * @throws IllegalStateException when the server does not start
     */
    public static RedisLauncher embedded() {
        RuntimeException last = null;
        // A free port can be taken by someone else before Redis binds it: try another.
        for (int attempt = 1; attempt <= EMBEDDED_START_ATTEMPTS; attempt++) {
            int port = freePort();
            RedisServer server = RedisServer.builder()
                    .port(port)
                    .bind("127.0.0.1")
                    .setting("save \"\"")        // else dump.rdb files appear next to the extracted binary
                    .setting("appendonly no")
                    .build();
            try {
                server.start();
                return new RedisLauncher("redis://127.0.0.1:" + port, "embedded Redis 7.0 started by this process", server);
            } catch (RuntimeException e) {
                last = e;
            }
        }
        throw new IllegalStateException("the embedded Redis did not start in " + EMBEDDED_START_ATTEMPTS + " attempts", last);
    }

    /**
     * Sends PING to a Redis over plain TCP (no TLS, no password).
     *
     * @param url a {@code redis://host:port} address
     * @param timeout for connecting and for the reply
     * @return the reply line, e.g. {@code +PONG} or {@code -NOAUTH ...}; null when nothing answered
     */
    static String ping(String url, Duration timeout) {
        URI uri = URI.create(url);
        int port = uri.getPort() < 0 ? 6379 : uri.getPort();
        int millis = (int) timeout.toMillis();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(uri.getHost(), port), millis);
            socket.setSoTimeout(millis);
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int c = in.read(); c >= 0 && c != '\r' && c != '\n' && line.length() < 200; c = in.read()) {
                line.append((char) c);
            }
            return line.length() == 0 ? null : line.toString();
        } catch (IOException | IllegalArgumentException e) {
            return null;
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port for the embedded Redis", e);
        }
    }

    /**
     * A URL fit for a log: the password, if any, replaced by {@code ***}.
     *
     * @param url a Redis URL such as {@code redis://:secret@host:6379}
     * @return the URL without its password
     */
    public static String redact(String url) {
        return url.replaceFirst("^(rediss?://[^:@/]*:)[^@/]*@", "$1***@");
    }

    private static String hostPort(String url) {
        URI uri = URI.create(url);
        return uri.getHost() + ":" + (uri.getPort() < 0 ? 6379 : uri.getPort());
    }

    /** @return the Redis URL to connect to */
    public String url() {
        return url;
    }

    /** @return where the Redis comes from, for the log */
    public String description() {
        return description;
    }

    /** @return true when this launcher started an embedded Redis */
    public boolean isEmbedded() {
        return embedded != null;
    }

    /** Stops the embedded Redis, if one was started; its data is gone with it. */
    @Override
    public void close() {
        if (embedded != null && embedded.isActive()) {
            embedded.stop();
        }
    }
}
