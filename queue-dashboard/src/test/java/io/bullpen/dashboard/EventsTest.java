package io.bullpen.dashboard;

import static io.bullpen.dashboard.Dashboards.start;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.bullpen.Queue;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** {@code GET /api/events}: counts on connect and on change, pings, the cap, and close. */
@BullpenTest
class EventsTest {
    record Order(String id) {
    }

    private static Dashboard.Builder builder(BullpenTestContext ctx) {
        return Dashboard.builder(ctx.redisson()).queues(ctx.queueName()).pollInterval(Duration.ofMillis(100));
    }

    private static long waiting(JsonNode counts) {
        return counts.get("queues").get(0).get("counts").get("waiting").asLong();
    }

    @Test
    void sendsCountsOnConnectAndAgainOnlyWhenTheyChange(BullpenTestContext ctx) {
        Queue<Order> q = Queue.builder(ctx.redisson(), ctx.queueName(), Order.class).build();
        q.add("first", new Order("1"));
        try (Dashboard d = start(builder(ctx)); SseStream stream = SseStream.open(d)) {
            assertThat(stream.status()).isEqualTo(200);
            assertThat(stream.header("Content-Type")).isEqualTo("text/event-stream; charset=utf-8");
            assertThat(stream.header("Cache-Control")).isEqualTo("no-store");
            assertThat(stream.header("Content-Security-Policy")).isEqualTo(Responses.CSP);

            await().atMost(Duration.ofSeconds(5)).until(() -> !stream.counts().isEmpty());
            JsonNode first = stream.counts().get(0);
            assertThat(first.toString()).isEqualTo(JsonViews.string(JsonViews.object().set("queues", JsonViews.array()
                    .add(JsonViews.queueSummary(ctx.queueName(), q.getJobCounts(), 0)))));
            assertThat(waiting(first)).isEqualTo(1);

            await().during(Duration.ofMillis(400)).atMost(Duration.ofSeconds(2)).until(() -> stream.counts().size() == 1);

            q.add("second", new Order("2"));
            await().atMost(Duration.ofSeconds(5)).until(() -> stream.counts().size() == 2);
            assertThat(waiting(stream.counts().get(1))).isEqualTo(2);
            assertThat(stream.lines).contains("event: counts");
        }
    }

    @Test
    void pingsAStreamThatHasNothingNewToSay(BullpenTestContext ctx) {
        Queue.builder(ctx.redisson(), ctx.queueName(), Order.class).build().add("a", new Order("1"));
        try (Dashboard d = start(builder(ctx).pingInterval(Duration.ofMillis(150))); SseStream stream = SseStream.open(d)) {
            await().atMost(Duration.ofSeconds(5)).until(() -> stream.comments.contains("ping"));
            assertThat(stream.lines).contains(": ping");
            assertThat(stream.counts()).hasSize(1);
        }
    }

    @Test
    void closeEndsOpenStreamsPromptly(BullpenTestContext ctx) {
        Queue.builder(ctx.redisson(), ctx.queueName(), Order.class).build().add("a", new Order("1"));
        Dashboard d = start(builder(ctx));
        try (SseStream one = SseStream.open(d); SseStream two = SseStream.open(d)) {
            await().atMost(Duration.ofSeconds(5)).until(() -> one.counts().size() == 1 && two.counts().size() == 1);
            long started = System.nanoTime();
            d.close();
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
            await().atMost(Duration.ofSeconds(2)).until(() -> one.ended() && two.ended());
        }
    }

    @Test
    void streamsBeyondTheCapGet503AndAStreamWhoseReaderLeftFreesItsSlot(BullpenTestContext ctx) throws IOException {
        Queue.builder(ctx.redisson(), ctx.queueName(), Order.class).build().add("a", new Order("1"));
        try (Dashboard d = start(builder(ctx).maxEventStreams(1).pingInterval(Duration.ofMillis(100)))) {
            InetSocketAddress address = d.address();
            try (Socket leaver = new Socket(address.getAddress(), address.getPort())) {
                leaver.getOutputStream().write("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                assertThat(readHead(leaver.getInputStream())).startsWith("HTTP/1.1 200");

                Http.Reply refused = Http.get(d, "/api/events");
                ApiReadTest.assertError(refused, 503, "too many event streams: at most 1 at once");
            }
            AtomicReference<SseStream> next = new AtomicReference<>();
            await().atMost(Duration.ofSeconds(5)).until(() -> {
                SseStream s = SseStream.open(d);
                if (s.status() == 200) {
                    next.set(s);
                    return true;
                }
                s.close();
                return false;
            });
            try (SseStream s = next.get()) {
                await().atMost(Duration.ofSeconds(5)).until(() -> s.counts().size() == 1);
            }
        }
    }

    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                break;
            }
            head.append((char) c);
        }
        return head.toString();
    }
}
