package io.bullpen.bench.peer;

import io.netty.channel.epoll.Epoll;
import java.util.Locale;
import org.redisson.config.Config;
import org.redisson.config.TransportMode;

/**
 * The network transport of the benchmark's Redisson clients (Bullpen's and the Redisson peer's),
 * from {@code -Dbench.transport}: {@code nio} (Redisson's default, what a user gets without
 * configuring it; the default here) or {@code epoll} (Netty's native Linux transport, shipped in
 * the jar). Child JVMs of the harness get the same setting.
 */
public final class ClientTransport {
    /** The system property that chooses the transport. */
    public static final String PROPERTY = "bench.transport";

    private ClientTransport() {
    }

    /**
     * @param config a client configuration
     * @return {@code config}, with the chosen transport
     * @throws IllegalArgumentException when the property names no known transport, or epoll is
     *     not available on this machine
     */
    public static Config apply(Config config) {
        String name = System.getProperty(PROPERTY, "nio").toLowerCase(Locale.ROOT);
        switch (name) {
            case "nio" -> config.setTransportMode(TransportMode.NIO);
            case "epoll" -> {
                if (!Epoll.isAvailable()) {
                    throw new IllegalArgumentException("-D" + PROPERTY + "=epoll, but Netty's epoll transport is not available here: "
                            + Epoll.unavailabilityCause());
                }
                config.setTransportMode(TransportMode.EPOLL);
            }
            default -> throw new IllegalArgumentException("-D" + PROPERTY + "=" + name + ": expected nio or epoll");
        }
        return config;
    }

    /** @return the JVM option that passes the chosen transport on to a child JVM, or null when none was chosen */
    static String childOption() {
        String name = System.getProperty(PROPERTY);
        return name == null ? null : "-D" + PROPERTY + "=" + name;
    }
}
