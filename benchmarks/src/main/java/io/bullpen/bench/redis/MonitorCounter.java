package io.bullpen.bench.redis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the commands clients send, as opposed to those scripts run: MONITOR shows a command a
 * script ran as {@code [0 lua]} and one a client sent with the client's address. Pipelined
 * commands count one each. MONITOR slows Redis down, so round trips are counted in a pass of
 * their own, never while CPU is measured.
 */
public final class MonitorCounter implements AutoCloseable {
    private final Socket socket;
    private final String ownAddressSuffix;
    private final String marker = "bench-marker-" + UUID.randomUUID();
    private final AtomicLong clientCommands = new AtomicLong();
    private final Map<String, AtomicLong> byName = new ConcurrentHashMap<>();
    private final CountDownLatch markerSeen = new CountDownLatch(1);
    private final Thread reader;

    private MonitorCounter(Socket socket, int excludedPort) {
        this.socket = socket;
        this.ownAddressSuffix = ":" + excludedPort + "]";
        this.reader = new Thread(this::readLoop, "bench-monitor");
        this.reader.setDaemon(true);
    }

    /**
     * Opens a MONITOR connection and starts counting.
     *
     * @param port the Redis port on 127.0.0.1
     * @param control the harness's control connection, whose commands are not counted
     * @return the running counter
     * @throws IOException when Redis refuses
     */
    public static MonitorCounter start(int port, RedisControl control) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1_000);
        OutputStream out = socket.getOutputStream();
        out.write("MONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        MonitorCounter counter = new MonitorCounter(socket, control.localPort());
        counter.reader.start();
        return counter;
    }

    /**
     * Waits until every command sent before this call has been seen, then stops.
     *
     * @param control the control connection, which sends a marker through Redis
     * @return the number of commands clients sent while the counter ran
     * @throws IOException when the marker does not come back within a minute
     */
    public long stop(RedisControl control) throws IOException {
        control.call("ECHO", marker);
        try {
            if (!markerSeen.await(60, TimeUnit.SECONDS)) {
                throw new IOException("MONITOR did not catch up within 60 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } finally {
            close();
        }
        return clientCommands.get();
    }

    private void readLoop() {
        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1), 1 << 16)) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                int open = line.indexOf('[');
                int close = line.indexOf(']', open + 1);
                if (open < 0 || close < 0) {
                    continue; // "+OK"
                }
                String source = line.substring(open, close + 1);
                if (source.endsWith(ownAddressSuffix)) {
                    if (line.contains(marker)) {
                        markerSeen.countDown();
                    }
                } else if (!source.endsWith(" lua]")) {
                    clientCommands.incrementAndGet();
                    byName.computeIfAbsent(name(line, close), k -> new AtomicLong()).incrementAndGet();
                }
            }
        } catch (IOException closed) {
            // stop() closes the socket
        }
    }

    /**
     * The client commands seen so far by name (lower case); a script call on a queue's
     * {@code workers} key (the worker heartbeat, {@code workerHeartbeat}) is
     * {@value #PRESENCE_SCRIPT}, told apart from the other script calls.
     *
     * @return a copy, by name
     */
    public Map<String, Long> clientCalls() {
        Map<String, Long> calls = new TreeMap<>();
        byName.forEach((name, n) -> calls.put(name, n.get()));
        return calls;
    }

    /** The name {@link #clientCalls} gives a script call of the worker heartbeat. */
    public static final String PRESENCE_SCRIPT = "evalsha (worker heartbeat)";

    private static String name(String line, int sourceEnd) {
        int open = line.indexOf('"', sourceEnd);
        int close = open < 0 ? -1 : line.indexOf('"', open + 1);
        if (close < 0) {
            return "?";
        }
        String name = line.substring(open + 1, close).toLowerCase(Locale.ROOT);
        if (name.startsWith("eval") && line.contains(":workers\"")) {
            return PRESENCE_SCRIPT;
        }
        return name;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
