package io.bullpen.bench.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.epoll.Epoll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.config.Config;
import org.redisson.config.TransportMode;

/** {@code -Dbench.transport}: nio by default, epoll when asked (and available), anything else refused by name. */
class ClientTransportTest {
    @AfterEach
    void clear() {
        System.clearProperty(ClientTransport.PROPERTY);
    }

    @Test
    void redissonsDefaultUnlessAskedAndPassedOnToChildJvmsOnlyWhenAsked() {
        assertThat(ClientTransport.apply(new Config()).getTransportMode()).isEqualTo(TransportMode.NIO);
        assertThat(ClientTransport.childOption()).isNull();

        System.setProperty(ClientTransport.PROPERTY, "epoll");
        assertThat(ClientTransport.childOption()).isEqualTo("-Dbench.transport=epoll");
        if (Epoll.isAvailable()) {
            assertThat(ClientTransport.apply(new Config()).getTransportMode()).isEqualTo(TransportMode.EPOLL);
        } else {
            assertThatThrownBy(() -> ClientTransport.apply(new Config())).hasMessageContaining("not available");
        }
    }

    @Test
    void anUnknownTransportIsRefusedByName() {
        System.setProperty(ClientTransport.PROPERTY, "uring");
        assertThatThrownBy(() -> ClientTransport.apply(new Config()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("uring").hasMessageContaining("nio or epoll");
    }
}
