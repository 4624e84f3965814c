package io.bullpen.bench.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.epoll.Epoll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.config.Config;
import org.redisson.config.TransportMode;

/**
 * {@code -Dbench.transport} and {@code -Dbench.nettyThreads}: Redisson's defaults unless asked,
 * passed on to child JVMs only when asked, anything invalid refused by name.
 */
class ClientSettingsTest {
    @AfterEach
    void clear() {
        System.clearProperty(ClientSettings.TRANSPORT);
        System.clearProperty(ClientSettings.NETTY_THREADS);
    }

    @Test
    void redissonsDefaultsUnlessAskedAndPassedOnToChildJvmsOnlyWhenAsked() {
        Config defaults = ClientSettings.apply(new Config());
        assertThat(defaults.getTransportMode()).isEqualTo(TransportMode.NIO);
        assertThat(defaults.getNettyThreads()).isEqualTo(new Config().getNettyThreads());
        assertThat(ClientSettings.childOptions()).isEmpty();

        System.setProperty(ClientSettings.TRANSPORT, "epoll");
        System.setProperty(ClientSettings.NETTY_THREADS, "4");
        assertThat(ClientSettings.childOptions()).containsExactly("-Dbench.transport=epoll", "-Dbench.nettyThreads=4");
        if (Epoll.isAvailable()) {
            Config asked = ClientSettings.apply(new Config());
            assertThat(asked.getTransportMode()).isEqualTo(TransportMode.EPOLL);
            assertThat(asked.getNettyThreads()).isEqualTo(4);
        } else {
            assertThatThrownBy(() -> ClientSettings.apply(new Config())).hasMessageContaining("not available");
        }
    }

    @Test
    void anUnknownTransportIsRefusedByName() {
        System.setProperty(ClientSettings.TRANSPORT, "uring");
        assertThatThrownBy(() -> ClientSettings.apply(new Config()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("uring").hasMessageContaining("nio or epoll");
    }

    @Test
    void aNumberOfThreadsThatIsNoneIsRefusedByName() {
        for (String bad : new String[] {"0", "-2", "four"}) {
            System.setProperty(ClientSettings.NETTY_THREADS, bad);
            assertThatThrownBy(() -> ClientSettings.apply(new Config()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("bench.nettyThreads=" + bad).hasMessageContaining("above 0");
        }
    }
}
