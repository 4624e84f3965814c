package io.bullpen.bench.peer.redisson;

import io.bullpen.bench.peer.ClientSettings;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

/**
 * The client of the Redisson peer: Redisson's defaults, with string messages, a pool large enough
 * for 100 consumers each blocked in BLPOP on a connection of its own, and a 30 s response timeout
 * instead of 3 s. With a million messages in an RDelayedQueue, its transfer script blocks Redis
 * for about 2 s per call (an LREM over the whole list per message); under the 3 s default, BLPOP
 * replies that arrived after the timeout were dropped and their messages lost (59 of 10,000 in
 * one run), so the workload never completed.
 */
final class RedissonClients {
    private RedissonClients() {
    }

    static RedissonClient connect(String url) {
        Config config = new Config();
        config.setCodec(StringCodec.INSTANCE);
        config.useSingleServer().setAddress(url).setConnectionPoolSize(128).setTimeout(30_000);
        return Redisson.create(ClientSettings.apply(config));
    }

    static String message(int n, long dueMillis) {
        return n + ":" + dueMillis;
    }

    static long due(String message) {
        return Long.parseLong(message.substring(message.indexOf(':') + 1));
    }
}
