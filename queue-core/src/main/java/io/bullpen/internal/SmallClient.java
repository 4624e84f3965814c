package io.bullpen.internal;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;
import org.redisson.config.ConstantDelay;
import org.redisson.config.DelayStrategy;
import org.redisson.config.ReadMode;
import org.redisson.connection.ConnectionListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one small Redisson client for blocking reads that every worker, events listener and
 * result awaiter of one application client shares. A blocking command holds its connection for
 * the whole wait; on the application's pool many waits starve every other command, so blocking
 * reads go to this client instead:
 * 1. made on the first {@link #acquire}, with the application's connection settings (address,
 *    credentials, TLS, topology), 2 netty threads, 2 executor threads, and a pool that grows by
 *    one connection per wait in flight (idle ones close after Redisson's idle timeout);
 * 2. reference-counted: each user holds a {@link Lease}; the last lease closed shuts the client
 *    down (without a grace period: nothing on it needs draining);
 * 3. reconnects every 100 ms while its server is away (Redisson's default backs off to seconds,
 *    so a worker would learn late that Redis is back);
 * 4. tells every lease's {@link Connections} once per server lost and once when that server is
 *    connected again (Redisson reports each connection; this reports the server), on Redisson's
 *    I/O threads: keep the handlers short.
 * A blocking call cancelled by its user makes Redisson close its connection, so a cancelled
 * wait never keeps blocking on the server. Not API.
 */
public final class SmallClient {
    private static final Logger log = LoggerFactory.getLogger(SmallClient.class);
    /** How often the client tries to reconnect while its server is away. */
    static final Duration RECONNECT_EVERY = Duration.ofMillis(100);
    /** Upper bound of the pool: one connection per blocking wait in flight. */
    static final int MAX_CONNECTIONS = 10_000;
    private static final Map<RedissonClient, SmallClient> BY_APP = new IdentityHashMap<>();

    /** Connection events of the shared client, per server. */
    public interface Connections {
        /** The client lost its connection(s) to this server. */
        default void lost(InetSocketAddress server) {
        }

        /** The client is connected to a server it had lost. */
        default void reconnected(InetSocketAddress server) {
        }
    }

    /** One user's hold on the shared client. */
    public final class Lease implements AutoCloseable {
        private final Connections connections;
        private final AtomicBoolean closed = new AtomicBoolean();

        private Lease(Connections connections) {
            this.connections = connections;
        }

        /** @return the shared client; never shut it down (close the lease) */
        public RedissonClient client() {
            return client;
        }

        /** @return whether the shared client has lost a server and not reconnected to it yet */
        public boolean disconnected() {
            return !lost.isEmpty();
        }

        /** Stops the events and releases the hold; the last lease shuts the client down. Idempotent. */
        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                listeners.remove(connections);
                release();
            }
        }
    }

    private final RedissonClient app;
    private final RedissonClient client;
    private final CopyOnWriteArrayList<Connections> listeners = new CopyOnWriteArrayList<>();
    private final Set<InetSocketAddress> lost = ConcurrentHashMap.newKeySet();
    private int leases; // guarded by BY_APP

    private SmallClient(RedissonClient app) {
        this.app = app;
        Config config = smallCopy(app.getConfig());
        config.setConnectionListener(new Fanout());
        this.client = Redisson.create(config);
    }

    /**
     * A hold on the small client of {@code app}, made on first use.
     *
     * @param app the application's client, whose configuration is copied (not changed)
     * @param connections told when the shared client loses a server and when it is back; may be
     *     a no-op {@code new Connections() {}}
     * @return the lease; close it when done
     * @throws org.redisson.client.RedisConnectionException when Redis cannot be reached
     */
    public static Lease acquire(RedissonClient app, Connections connections) {
        Objects.requireNonNull(app, "app");
        Objects.requireNonNull(connections, "connections");
        synchronized (BY_APP) {
            SmallClient shared = BY_APP.get(app);
            if (shared == null) {
                shared = new SmallClient(app);
                BY_APP.put(app, shared);
            }
            shared.leases++;
            Lease lease = shared.new Lease(connections);
            shared.listeners.add(connections);
            return lease;
        }
    }

    /** @return how many small clients are open (tests) */
    static int openClients() {
        synchronized (BY_APP) {
            return BY_APP.size();
        }
    }

    private void release() {
        synchronized (BY_APP) {
            if (--leases > 0) {
                return;
            }
            BY_APP.remove(app);
        }
        client.shutdown(0, 100, TimeUnit.MILLISECONDS);
    }

    /** The application's connection settings with a small start (1 connection) and 2 netty threads. */
    static Config smallCopy(Config app) {
        Config c = new Config(app);
        c.setCodec(StringCodec.INSTANCE);
        c.setNettyThreads(2);
        // Redisson's own executor (listeners, completions): 16 threads by default, grown on demand.
        c.setThreads(2);
        DelayStrategy reconnect = new ConstantDelay(RECONNECT_EVERY);
        if (c.isClusterConfig()) {
            c.useClusterServers().setMasterConnectionPoolSize(MAX_CONNECTIONS).setMasterConnectionMinimumIdleSize(1)
                    .setSlaveConnectionPoolSize(1).setSlaveConnectionMinimumIdleSize(0)
                    .setSubscriptionConnectionPoolSize(1).setSubscriptionConnectionMinimumIdleSize(0)
                    .setReadMode(ReadMode.MASTER).setReconnectionDelay(reconnect);
        } else if (c.isSentinelConfig()) {
            c.useSentinelServers().setMasterConnectionPoolSize(MAX_CONNECTIONS).setMasterConnectionMinimumIdleSize(1)
                    .setSlaveConnectionPoolSize(1).setSlaveConnectionMinimumIdleSize(0)
                    .setSubscriptionConnectionPoolSize(1).setSubscriptionConnectionMinimumIdleSize(0)
                    .setReadMode(ReadMode.MASTER).setReconnectionDelay(reconnect);
        } else if (c.isSingleConfig()) {
            c.useSingleServer().setConnectionPoolSize(MAX_CONNECTIONS).setConnectionMinimumIdleSize(1)
                    .setSubscriptionConnectionPoolSize(1).setSubscriptionConnectionMinimumIdleSize(0)
                    .setReconnectionDelay(reconnect);
        } else {
            c.useMasterSlaveServers().setMasterConnectionPoolSize(MAX_CONNECTIONS).setMasterConnectionMinimumIdleSize(1)
                    .setSlaveConnectionPoolSize(1).setSlaveConnectionMinimumIdleSize(0)
                    .setSubscriptionConnectionPoolSize(1).setSubscriptionConnectionMinimumIdleSize(0)
                    .setReadMode(ReadMode.MASTER).setReconnectionDelay(reconnect);
        }
        return c;
    }

    /** Redisson's per-connection events, turned into one event per server lost and regained. */
    private final class Fanout implements ConnectionListener {
        @Override
        public void onConnect(InetSocketAddress server) {
            if (lost.remove(server)) {
                for (Connections c : listeners) {
                    notify(() -> c.reconnected(server));
                }
            }
        }

        @Override
        public void onDisconnect(InetSocketAddress server) {
            if (lost.add(server)) {
                for (Connections c : listeners) {
                    notify(() -> c.lost(server));
                }
            }
        }

        private void notify(Runnable event) {
            try {
                event.run();
            } catch (RuntimeException e) {
                log.warn("a connection event handler failed", e);
            }
        }
    }
}
