package io.bullpen.worker;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * A one-command RESP client for tests that must talk to Redis outside Redisson: killing
 * Redisson's own connections, or reading counters without adding to them.
 */
final class RawRedis {
    private RawRedis() {
    }

    /** Sends one command on a fresh connection and returns the raw reply text. */
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

    /** INFO commandstats as command name -> calls. */
    static Map<String, Long> commandCalls(String redisUri) throws IOException {
        Map<String, Long> calls = new HashMap<>();
        for (String line : call(redisUri, "INFO", "commandstats").split("\r\n")) {
            if (line.startsWith("cmdstat_")) {
                String name = line.substring("cmdstat_".length(), line.indexOf(':'));
                String stats = line.substring(line.indexOf(':') + 1);
                calls.put(name, Long.parseLong(stats.substring("calls=".length(), stats.indexOf(','))));
            }
        }
        return calls;
    }

    /** Calls of every command but the ones used to observe (INFO, CLIENT, CONFIG, HELLO, PING). */
    static long workCalls(Map<String, Long> before, Map<String, Long> after) {
        long total = 0;
        for (Map.Entry<String, Long> e : after.entrySet()) {
            String name = e.getKey();
            if (name.equals("info") || name.startsWith("client") || name.startsWith("config") || name.equals("hello")
                    || name.equals("ping")) {
                continue;
            }
            total += e.getValue() - before.getOrDefault(name, 0L);
        }
        return total;
    }

    static int connectedClients(String redisUri) throws IOException {
        for (String line : call(redisUri, "INFO", "clients").split("\r\n")) {
            if (line.startsWith("connected_clients:")) {
                return Integer.parseInt(line.substring("connected_clients:".length()).trim());
            }
        }
        throw new IllegalStateException("no connected_clients in INFO");
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
