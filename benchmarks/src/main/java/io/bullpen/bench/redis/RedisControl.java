package io.bullpen.bench.redis;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The harness's own connection to Redis: a minimal RESP client over a socket, independent of
 * every peer's client. It counts the commands it sends, so that its INFO and CONFIG calls can
 * be taken out of the figures measured in a window.
 */
public final class RedisControl implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private long sent;

    private RedisControl(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
        this.out = new BufferedOutputStream(socket.getOutputStream());
    }

    /**
     * @param port the port of a Redis on 127.0.0.1
     * @return a connected control connection
     * @throws IOException when nothing answers
     */
    public static RedisControl connect(int port) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1_000);
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(120_000);
        return new RedisControl(socket);
    }

    /**
     * Sends one command and reads its reply.
     *
     * @param args the command and its arguments
     * @return a String (simple or bulk string), Long, List of replies, or null
     * @throws IOException on a connection error or an error reply
     */
    public synchronized Object call(String... args) throws IOException {
        out.write(('*' + Integer.toString(args.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (String arg : args) {
            byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
            out.write(('$' + Integer.toString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.write('\r');
            out.write('\n');
        }
        out.flush();
        sent++;
        return read();
    }

    /** @return how many commands this connection has sent */
    public synchronized long sent() {
        return sent;
    }

    /** @return the local port of this connection, by which MONITOR output names it */
    public int localPort() {
        return socket.getLocalPort();
    }

    /**
     * Removes every key (a fresh Redis for the next run).
     *
     * @throws IOException on a Redis error
     */
    public void flushAll() throws IOException {
        call("FLUSHALL");
    }

    /**
     * Zeroes INFO commandstats (and the other resettable counters).
     *
     * @throws IOException on a Redis error
     */
    public void resetStats() throws IOException {
        call("CONFIG", "RESETSTAT");
    }

    /**
     * @return the number of calls per command since the last reset, from INFO commandstats
     *         (commands run by scripts included)
     * @throws IOException on a Redis error
     */
    public Map<String, Long> commandCalls() throws IOException {
        Map<String, Long> calls = new HashMap<>();
        for (String line : info("commandstats").split("\r\n")) {
            if (line.startsWith("cmdstat_")) {
                int colon = line.indexOf(':');
                int start = line.indexOf("calls=", colon) + "calls=".length();
                int end = line.indexOf(',', start);
                calls.put(line.substring("cmdstat_".length(), colon), Long.parseLong(line.substring(start, end)));
            }
        }
        return calls;
    }

    /**
     * Memory held by data: INFO memory's {@code used_memory} less {@code mem_clients_normal}
     * (the clients' buffers, which depend on how many connections a peer happens to hold).
     *
     * @return bytes
     * @throws IOException on a Redis error
     */
    public long dataMemory() throws IOException {
        String info = info("memory");
        return infoField(info, "used_memory") - infoField(info, "mem_clients_normal");
    }

    /**
     * {@link #dataMemory()} once Redis has settled: no lazy frees pending and the same reading
     * twice 200 ms apart (a dictionary that shrank or grew rehashes over a few cron ticks), or
     * the last reading after 10 s.
     *
     * @return bytes
     * @throws IOException on a Redis error
     */
    public long settledDataMemory() throws IOException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        long previous = -1;
        while (true) {
            String info = info("memory");
            long current = infoField(info, "used_memory") - infoField(info, "mem_clients_normal");
            if ((current == previous && infoField(info, "lazyfree_pending_objects") == 0) || System.nanoTime() > deadline) {
                return current;
            }
            previous = current;
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
    }

    /**
     * @param section an INFO section
     * @return its text
     * @throws IOException on a Redis error
     */
    public String info(String section) throws IOException {
        return (String) call("INFO", section);
    }

    /**
     * @param info INFO text
     * @param field a field name
     * @return the field's value as a number
     */
    public static long infoField(String info, String field) {
        return Long.parseLong(infoText(info, field));
    }

    /**
     * @param info INFO text
     * @param field a field name
     * @return the field's value
     */
    public static String infoText(String info, String field) {
        for (String line : info.split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return line.substring(field.length() + 1).trim();
            }
        }
        throw new IllegalArgumentException("INFO has no field " + field);
    }

    private Object read() throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new EOFException("Redis closed the connection");
        }
        String line = readLine();
        switch (type) {
            case '+':
                return line;
            case '-':
                throw new IOException("Redis error: " + line);
            case ':':
                return Long.parseLong(line);
            case '$': {
                int length = Integer.parseInt(line);
                if (length < 0) {
                    return null;
                }
                byte[] bytes = in.readNBytes(length + 2);
                return new String(bytes, 0, length, StandardCharsets.UTF_8);
            }
            case '*': {
                int count = Integer.parseInt(line);
                if (count < 0) {
                    return null;
                }
                List<Object> items = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    items.add(read());
                }
                return items;
            }
            default:
                throw new IOException("unexpected RESP type " + (char) type);
        }
    }

    private String readLine() throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != '\r'; c = in.read()) {
            if (c < 0) {
                throw new EOFException("Redis closed the connection");
            }
            line.append((char) c);
        }
        in.read();
        return line.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
