package io.bullpen.dashboard;

import static io.bullpen.dashboard.Dashboards.start;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.Socket;
import org.junit.jupiter.api.Test;

/** start, url, close, and what the builder refuses. */
@BullpenTest
class DashboardLifecycleTest {
    @Test
    void urlNamesTheEphemeralPortAndCloseIsIdempotent(BullpenTestContext ctx) {
        Dashboard d = Dashboard.builder(ctx.redisson()).port(0).build();
        assertThatThrownBy(d::url).isInstanceOf(IllegalStateException.class).hasMessageContaining("not started");
        d.start();
        int port = d.address().getPort();
        assertThat(d.url()).isEqualTo("http://127.0.0.1:" + port + "/");
        assertThatThrownBy(d::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("already started");
        d.close();
        d.close();
        assertThatThrownBy(() -> new Socket("127.0.0.1", port).close()).isInstanceOf(ConnectException.class);
        assertThatThrownBy(d::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    void aTakenPortFailsStartWithTheAddress(BullpenTestContext ctx) {
        try (Dashboard first = start(Dashboard.builder(ctx.redisson()))) {
            int port = first.address().getPort();
            try (Dashboard second = Dashboard.builder(ctx.redisson()).port(port).build()) {
                assertThatThrownBy(second::start).isInstanceOf(UncheckedIOException.class)
                        .hasMessageContaining("127.0.0.1:" + port);
            }
        }
    }

    @Test
    void closingADashboardThatNeverStartedDoesNothing(BullpenTestContext ctx) {
        Dashboard.builder(ctx.redisson()).build().close();
    }

    @Test
    void theBuilderRefusesBadValuesNamingThem(BullpenTestContext ctx) {
        Dashboard.Builder b = Dashboard.builder(ctx.redisson());
        assertThatThrownBy(() -> b.port(-1)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
        assertThatThrownBy(() -> b.port(65536)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("65536");
        assertThatThrownBy(() -> b.host(" ")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("host");
        assertThatThrownBy(() -> b.prefix("a b")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a b");
        assertThatThrownBy(() -> b.queues("ok", "no{pe}")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no{pe}");
        assertThatThrownBy(() -> Dashboard.builder(null)).isInstanceOf(NullPointerException.class);
    }
}
