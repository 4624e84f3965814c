package io.bullpen.dashboard;

import static io.bullpen.dashboard.ApiReadTest.assertError;
import static io.bullpen.dashboard.Dashboards.fields;
import static io.bullpen.dashboard.Dashboards.start;
import static io.bullpen.dashboard.Http.get;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.bullpen.Queue;
import io.bullpen.dashboard.Http.Reply;
import io.bullpen.internal.Futures;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.WorkerScripts;
import io.bullpen.internal.WorkerScripts.Beat;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import org.junit.jupiter.api.Test;

/**
 * The live workers in the API (API.md): {@code GET /api/queues/{q}/workers} and the
 * {@code workers} count of every QueueSummary, from heartbeats written as a worker writes them.
 */
@BullpenTest
class WorkersApiTest {
    record Order(String id) {
    }

    private static void beat(BullpenTestContext ctx, String name, int concurrency, int running, boolean paused) {
        Futures.join(new WorkerScripts(ctx.redisson(), new KeyScheme("bp", ctx.queueName()))
                .heartbeat(new Beat(name, "host-1", 4242, concurrency, running, paused), 60_000));
    }

    @Test
    void listsTheLiveWorkersWithEveryField(BullpenTestContext ctx) {
        Queue.builder(ctx.redisson(), ctx.queueName(), Order.class).build().add("a", new Order("1"));
        beat(ctx, "w-2", 4, 1, true);
        beat(ctx, "w-1", 2, 0, false);
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()))) {
            Reply r = get(d, "/api/queues/" + ctx.queueName() + "/workers");
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            JsonNode workers = r.json().get("workers");
            assertThat(workers).hasSize(2);
            JsonNode first = workers.get(0);
            assertThat(fields(first)).containsExactly("name", "host", "pid", "concurrency", "running", "paused",
                    "started", "lastSeen");
            assertThat(first.get("name").asText()).isEqualTo("w-1");
            assertThat(first.get("host").asText()).isEqualTo("host-1");
            assertThat(first.get("pid").asLong()).isEqualTo(4242);
            assertThat(first.get("concurrency").asInt()).isEqualTo(2);
            assertThat(first.get("paused").asBoolean()).isFalse();
            assertThat(first.get("lastSeen").asLong()).isGreaterThanOrEqualTo(first.get("started").asLong()).isPositive();
            assertThat(workers.get(1).get("name").asText()).isEqualTo("w-2");
            assertThat(workers.get(1).get("running").asInt()).isEqualTo(1);
            assertThat(workers.get(1).get("paused").asBoolean()).isTrue();
        }
    }

    @Test
    void aWorkerNameIsDataAndComesBackEscapedAsJson(BullpenTestContext ctx) {
        Queue.builder(ctx.redisson(), ctx.queueName(), Order.class).build().add("a", new Order("1"));
        String name = "<img src=x onerror=alert(1)>\"&'";
        beat(ctx, name, 1, 0, false);
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()))) {
            Reply r = get(d, "/api/queues/" + ctx.queueName() + "/workers");
            assertThat(r.body()).doesNotContain("<img");
            assertThat(r.json().get("workers").get(0).get("name").asText()).isEqualTo(name);
        }
    }

    @Test
    void everyQueueSummaryCountsItsLiveWorkers(BullpenTestContext ctx) {
        Queue.builder(ctx.redisson(), ctx.queueName(), Order.class).build().add("a", new Order("1"));
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()))) {
            assertThat(get(d, "/api/queues/" + ctx.queueName()).json().get("workers").asInt()).isZero();
            beat(ctx, "w-1", 1, 0, false);
            beat(ctx, "w-2", 1, 0, false);
            assertThat(get(d, "/api/queues/" + ctx.queueName()).json().get("workers").asInt()).isEqualTo(2);
            JsonNode queues = get(d, "/api/queues").json().get("queues");
            assertThat(queues.get(0).get("workers").asInt()).isEqualTo(2);
            Futures.join(new WorkerScripts(ctx.redisson(), new KeyScheme("bp", ctx.queueName())).left("w-1"));
            assertThat(get(d, "/api/queues/" + ctx.queueName()).json().get("workers").asInt()).isEqualTo(1);
        }
    }

    @Test
    void anUnknownQueueIs404(BullpenTestContext ctx) {
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()))) {
            assertError(get(d, "/api/queues/nope-" + ctx.queueName() + "/workers"), 404, "nope-");
        }
    }
}
