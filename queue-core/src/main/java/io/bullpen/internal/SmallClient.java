package io.bullpen.internal;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;
import org.redisson.connection.ConnectionListener;
import org.redisson.config.ReadMode;

/**
 * A second, small Redisson client for blocking reads. A blocking command holds its connection
 * for the whole wait; on the application's pool, many waits starve every other command. So a
 * blocking reader gets a client of its own: the application's connection settings (address,
 * credentials, TLS, topology) with 1-2 connections and 2 netty threads. Same recipe as the
 * worker's marker waiter. Not API.
 */
public final class SmallClient {
    private SmallClient() {
    }

    /**
     * Connects a small client like the application's.
     *
     * @param app the application's client, whose configuration is copied (not changed)
     * @return a new client; shut it down when done
     * @throws org.redisson.client.RedisConnectionException when Redis cannot be reached
     */
    public static RedissonClient create(RedissonClient app) {
        return Redisson.create(smallCopy(app.getConfig()));
    }

    /**
     * Connects a small client like the application's that reports its connection losses and
     * returns (Redisson calls the listener on its I/O threads: keep it short).
     *
     * @param app the application's client, whose configuration is copied (not changed)
     * @param listener told when the client loses its server and when it is connected again
     * @return a new client; shut it down when done
     * @throws org.redisson.client.RedisConnectionException when Redis cannot be reached
     */
    public static RedissonClient create(RedissonClient app, ConnectionListener listener) {
        Config config = smallCopy(app.getConfig());
        config.setConnectionListener(listener);
        return Redisson.create(config);
    }

    /** The application's connection settings with the smallest pools: 1-2 connections. */
    static Config smallCopy(Config app) {
        Config c = new Config(app);
        c.setCodec(StringCodec.INSTANCE);
        c.setNettyThreads(2);
        if (c.isClusterConfig()) {
            c.useClusterServers().setMasterConnectionPoolSize(2).setMasterConnectionMinimumIdleSize(1)
                    .setSlaveConnectionPoolSize(1).setSlaveConnectionMinimumIdleSize(0)
                    .setSubscriptionConnectionPoolSize(1).setSubscriptionConnectionMinimumIdleSize(0)
                    .setReadMode(ReadMode.MASTER);
        } else if (c.isSentinelConfig()) {
            c.useSentinelServers().setMasterConnectionPoolSize(2).setMasterConnectionMinimumIdleSize(1)
                    .setSlaveConnectionPoolSize(1).setSlaveConnectionMinimumIdleSize(0)
                    .setSubscriptionConnectionPoolSize(1).setSubscriptionConnectionMinimumIdleSize(0)
                    .setReadMode(ReadMode.MASTER);
        } else if (c.isSingleConfig()) {
            c.useSingleServer().setConnectionPoolSize(2).setConnectionMinimumIdleSize(1)
                    .setSubscriptionConnectionPoolSize(1).setSubscriptionConnectionMinimumIdleSize(0);
        } else {
            c.useMasterSlaveServers().setMasterConnectionPoolSize(2).setMasterConnectionMinimumIdleSize(1)
                    .setSlaveConnectionPoolSize(1).setSlaveConnectionMinimumIdleSize(0)
                    .setSubscriptionConnectionPoolSize(1).setSubscriptionConnectionMinimumIdleSize(0)
                    .setReadMode(ReadMode.MASTER);
        }
        return c;
    }
}
