package io.bullpen.bench.peer.redisson;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

/**
 * The client of the Redisson peer: Redisson's defaults, with string messages and a pool large
 * enough for 100 consumers each blocked in BLPOP on a connection of its own.
 */
final class RedissonClients {
    private RedissonClients() {
    }

    static RedissonClient connect(String url) {
        Config config = new Config();
        config.setCodec(StringCodec.INSTANCE);
        config.useSingleServer().setAddress(url).setConnectionPoolSize(128);
        return Redisson.create(config);
    }

    static String message(int n, long dueMillis) {
        return n + ":" + dueMillis;
    }

    static long due(String message) {
        return Long.parseLong(message.substring(message.indexOf(':') + 1));
    }
}
