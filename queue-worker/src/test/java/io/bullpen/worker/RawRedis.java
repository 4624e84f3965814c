package io.bullpen.worker;

import io.bullpen.testing.Resp;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Reading a server outside Redisson (so the reads add nothing to what a test counts): INFO
 * commandstats and clients, through queue-testing's {@link Resp}.
 */
final class RawRedis {
    private RawRedis() {
    }

    /** Sends one command on a fresh connection (see {@link Resp}) and returns the reply as text. */
    static String call(String redisUri, String... args) throws IOException {
        return Resp.text(redisUri, args);
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
}
