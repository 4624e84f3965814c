package io.bullpen.dashboard;

import static io.bullpen.dashboard.Dashboards.start;
import static io.bullpen.dashboard.Http.TOKEN;
import static io.bullpen.dashboard.Http.get;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.bullpen.Queue;
import io.bullpen.dashboard.Http.Reply;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** GET /api/queues/{q}/search: filters, the value typed as JSON or text, paging by cursor, bad values. */
@BullpenTest
class SearchApiTest {
    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static List<String> ids(Reply r) {
        List<String> ids = new ArrayList<>();
        r.json().get("jobs").forEach(j -> ids.add(j.get("id").asText()));
        return ids;
    }

    @Test
    void findsJobsByNameAndDataPathWithTheValueReadAsJsonOrText(BullpenTestContext ctx) {
        String q = ctx.queueName();
        Queue<Map> queue = Queue.builder(ctx.redisson(), q, Map.class).build();
        String text = queue.add("charge", Map.of("order", Map.of("id", "o-17"))).id();
        String number = queue.add("charge", Map.of("order", Map.of("id", 17))).id();
        String string = queue.add("charge", Map.of("order", Map.of("id", "17"))).id();
        queue.add("refund", Map.of("order", Map.of("id", "o-17")));
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()).token(TOKEN))) {
            String base = "/api/queues/" + q + "/search?state=waiting&name=charge&path=" + enc("/order/id") + "&value=";
            Reply r = get(d, base + enc("o-17"));
            assertThat(r.status()).isEqualTo(200);
            assertThat(ids(r)).containsExactly(text);
            JsonNode body = r.json();
            assertThat(body.get("state").asText()).isEqualTo("waiting");
            assertThat(body.get("next").isNull()).isTrue();
            assertThat(body.get("scanned").asLong()).isEqualTo(4);
            assertThat(body.get("jobs").get(0).get("name").asText()).isEqualTo("charge");
            assertThat(ids(get(d, base + "17"))).containsExactly(number);
            assertThat(ids(get(d, base + enc("\"17\"")))).containsExactly(string);
            assertThat(ids(get(d, "/api/queues/" + q + "/search?state=waiting&name=refund"))).hasSize(1);
        }
    }

    @Test
    void pagesGoOnByCursorUntilThereIsNone(BullpenTestContext ctx) {
        String q = ctx.queueName();
        Queue<Map> queue = Queue.builder(ctx.redisson(), q, Map.class).build();
        List<String> matching = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            String id = queue.add(i % 2 == 0 ? "m" : "other", Map.of("i", i)).id();
            if (i % 2 == 0) {
                matching.add(0, id);          // the wait list reads newest first
            }
        }
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()).token(TOKEN))) {
            List<String> found = new ArrayList<>();
            String cursor = null;
            do {
                Reply r = get(d, "/api/queues/" + q + "/search?state=waiting&name=m&limit=5"
                        + (cursor == null ? "" : "&cursor=" + enc(cursor)));
                assertThat(r.status()).isEqualTo(200);
                found.addAll(ids(r));
                cursor = r.json().get("next").isNull() ? null : r.json().get("next").asText();
            } while (cursor != null);
            assertThat(found).containsExactlyElementsOf(matching);
        }
    }

    @Test
    void badValuesAre400sNamingThem(BullpenTestContext ctx) {
        String q = ctx.queueName();
        Queue.builder(ctx.redisson(), q, Map.class).build().add("m", Map.of());
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()).token(TOKEN))) {
            String base = "/api/queues/" + q + "/search?";
            assertError(get(d, base + "state=waiting&path=" + enc("order/id") + "&value=1"), "\"order/id\"");
            assertError(get(d, base + "state=waiting&path=" + enc("/a")), "value is required");
            assertError(get(d, base + "state=waiting&value=1"), "path is required");
            assertError(get(d, base + "state=nope"), "\"nope\"");
            assertError(get(d, base + "state=waiting&limit=101"), "101");
            assertError(get(d, base + "state=waiting&cursor=xyz"), "\"xyz\"");
            assertThat(get(d, "/api/queues/nosuchqueue/search?state=waiting").status()).isEqualTo(404);
        }
    }

    private static void assertError(Reply r, String text) {
        assertThat(r.status()).as(r.body()).isEqualTo(400);
        assertThat(r.json().get("error").asText()).contains(text);
    }
}
