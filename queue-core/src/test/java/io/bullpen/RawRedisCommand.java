package io.bullpen;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * A one-command RESP client for tests that must talk to Redis outside Redisson, such as killing
 * Redisson's own connections (a copy of queue-worker's test helper: queue-core tests cannot use it).
 */
final class RawRedisCommand {
    private RawRedisCommand() {
    }

    /** Sends one command on a fresh connection and returns the first line of the reply (or a bulk string). */
    static String call(String redisUri, String... args) throws IOException {
        URI uri = URI.create(redisUri);
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            socket.setSoTimeout(5_000);
            StringBuilder cmd = new StringBuilder("*").append(args.length).append("\r\n");
            for (String a : args) {
                cmd.append('$').append(a.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(a).append("\r\n");
            }
            OutputStream out = socket.getOutputStream();
            out.write(cmd.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            String first = readLine(in);
            if (first.startsWith("$")) {
                int len = Integer.parseInt(first.substring(1));
                byte[] body = in.readNBytes(len + 2);
                return new String(body, 0, Math.max(0, len), StandardCharsets.UTF_8);
            }
            return first;
        }
    }

    /** CLIENT KILL TYPE normal: drops every normal connection but this one; returns how many. */
    static int killNormalClients(String redisUri) throws IOException {
        String reply = call(redisUri, "CLIENT", "KILL", "TYPE", "normal");
        return Integer.parseInt(reply.substring(1));
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\r') {
                in.read();
                break;
            }
            sb.append((char) c);
        }
        return sb.toString();
    }
}
