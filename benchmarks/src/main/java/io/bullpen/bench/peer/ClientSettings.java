package io.bullpen.bench.peer;

import io.netty.channel.epoll.Epoll;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.redisson.config.Config;
import org.redisson.config.TransportMode;

/**
 * The settings of the benchmark's Redisson clients (Bullpen's and the Redisson peer's) that a run
 * may change from Redisson's defaults, what a user gets without configuring them:
 * <ul>
 *   <li>{@code -Dbench.transport}: {@code nio} (Redisson's default; the default here) or
 *       {@code epoll} (Netty's native Linux transport, shipped in the jar);</li>
 *   <li>{@code -Dbench.nettyThreads}: the number of Redisson's I/O threads (Netty event loops;
 *       Redisson's default, 32, unless set).</li>
 * </ul>
 * Child JVMs of the harness get the same settings.
 */
public final class ClientSettings {
    /** The system property that chooses the transport. */
    public static final String TRANSPORT = "bench.transport";
    /** The system property that sets the number of I/O threads. */
    public static final String NETTY_THREADS = "bench.nettyThreads";

    private ClientSettings() {
    }

    /**
     * @param config a client configuration
     * @return {@code config}, with the chosen settings
     * @throws IllegalArgumentException when a property holds no valid value, or epoll is not
     *     available on this machine
     */
    public static Config apply(Config config) {
        String name = System.getProperty(TRANSPORT, "nio").toLowerCase(Locale.ROOT);
        switch (name) {
            case "nio" -> config.setTransportMode(TransportMode.NIO);
            case "epoll" -> {
                if (!Epoll.isAvailable()) {
                    throw new IllegalArgumentException("-D" + TRANSPORT + "=epoll, but Netty's epoll transport is not available here: "
                            + Epoll.unavailabilityCause());
                }
                config.setTransportMode(TransportMode.EPOLL);
            }
            default -> throw new IllegalArgumentException("-D" + TRANSPORT + "=" + name + ": expected nio or epoll");
        }
        String threads = System.getProperty(NETTY_THREADS);
        if (threads != null) {
            config.setNettyThreads(positive(threads));
        }
        return config;
    }

    private static int positive(String threads) {
        try {
            int n = Integer.parseInt(threads.trim());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new IllegalArgumentException("-D" + NETTY_THREADS + "=" + threads + ": expected a number of threads above 0");
    }

    /** @return the JVM options that pass the chosen settings on to a child JVM (none when none was chosen) */
    static List<String> childOptions() {
        List<String> options = new ArrayList<>(2);
        for (String property : List.of(TRANSPORT, NETTY_THREADS)) {
            String value = System.getProperty(property);
            if (value != null) {
                options.add("-D" + property + "=" + value);
            }
        }
        return options;
    }
}
