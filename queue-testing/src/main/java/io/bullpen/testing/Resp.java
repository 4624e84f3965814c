package io.bullpen.testing;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A one-command RESP2 client on a fresh socket, for talking to one particular node (cluster
 * management, sentinels, FLUSHALL on each master) where Redisson would route by key instead, or
 * outside Redisson altogether (CLIENT KILL that must not hit the caller's own connection, INFO
 * read without adding commands through the client under test).
 * Replies: simple and bulk strings as {@link String}, integers as {@link Long}, arrays as
 * {@link List}, nil as null; an error reply throws {@link IllegalStateException} with its text.
 */
public final class Resp {

    private static final int CONNECT_TIMEOUT_MS = 1_000;
    private static final int READ_TIMEOUT_MS = 10_000;

    private Resp() {
    }

    /**
     * Sends one command to host:port and returns the decoded reply.
     *
     * @param host the server's host
     * @param port the server's port
     * @param args the command and its arguments
     * @return the reply (see the class comment)
     * @throws IOException when the connection fails
     * @throws IllegalStateException on an error reply, with its text
     */
    public static Object call(String host, int port, String... args) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MS);
            socket.setSoTimeout(READ_TIMEOUT_MS);
            OutputStream out = socket.getOutputStream();
            StringBuilder cmd = new StringBuilder("*").append(args.length).append("\r\n");
            for (String arg : args) {
                cmd.append('$').append(arg.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(arg)
                        .append("\r\n");
            }
            out.write(cmd.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            Object reply = read(new BufferedInputStream(socket.getInputStream()));
            if (reply instanceof RespError error) {
                throw new IllegalStateException("Redis at " + host + ":" + port + " answered " + String.join(" ", args)
                        + " with error: " + error.text());
            }
            return reply;
        }
    }

    /**
     * Like {@link #call} but returns the reply as a string (for INFO, CLUSTER INFO and the like).
     *
     * @param host the server's host
     * @param port the server's port
     * @param args the command and its arguments
     * @return the reply as text, null for nil
     * @throws IOException when the connection fails
     */
    public static String text(String host, int port, String... args) throws IOException {
        Object reply = call(host, port, args);
        return reply == null ? null : reply.toString();
    }

    /**
     * {@link #text(String, int, String...)} for a server given as a URI.
     *
     * @param redisUri {@code redis://host:port}
     * @param args the command and its arguments
     * @return the reply as text, null for nil
     * @throws IOException when the connection fails
     */
    public static String text(String redisUri, String... args) throws IOException {
        URI uri = URI.create(redisUri);
        return text(uri.getHost(), uri.getPort(), args);
    }

    private static Object read(InputStream in) throws IOException {
        String line = readLine(in);
        if (line.isEmpty()) {
            throw new IOException("empty RESP reply");
        }
        String rest = line.substring(1);
        switch (line.charAt(0)) {
            case '+':
                return rest;
            case '-':
                return new RespError(rest);
            case ':':
                return Long.parseLong(rest);
            case '$': {
                int length = Integer.parseInt(rest);
                if (length < 0) {
                    return null;
                }
                byte[] body = in.readNBytes(length + 2);
                if (body.length < length + 2) {
                    throw new IOException("connection closed in the middle of a bulk string");
                }
                return new String(body, 0, length, StandardCharsets.UTF_8);
            }
            case '*': {
                int count = Integer.parseInt(rest);
                if (count < 0) {
                    return null;
                }
                List<Object> items = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    items.add(read(in));
                }
                return items;
            }
            default:
                throw new IOException("unexpected RESP reply: " + line);
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\r') {
                in.read();
                return line.toString();
            }
            line.append((char) c);
        }
        throw new IOException("connection closed before a full RESP line");
    }

    private record RespError(String text) {
    }
}
