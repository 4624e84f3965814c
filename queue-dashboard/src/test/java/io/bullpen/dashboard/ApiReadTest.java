package io.bullpen.dashboard;

import static io.bullpen.dashboard.Dashboards.compact;
import static io.bullpen.dashboard.Dashboards.fields;
import static io.bullpen.dashboard.Dashboards.start;
import static io.bullpen.dashboard.Http.TOKEN;
import static io.bullpen.dashboard.Http.get;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.bullpen.Backoff;
import io.bullpen.Job;
import io.bullpen.JobCounts;
import io.bullpen.JobOptions;
import io.bullpen.JobScheduler;
import io.bullpen.JobTemplate;
import io.bullpen.MetricsType;
import io.bullpen.Queue;
import io.bullpen.Repeat;
import io.bullpen.dashboard.Http.Reply;
import io.bullpen.internal.WireFormat;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.redisson.client.codec.StringCodec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The read routes of API.md: shapes, field order, paging, errors. */
@BullpenTest
class ApiReadTest {
    record Order(String id, int amount) {
    }

    static final List<String> SUMMARY_FIELDS = List.of("id", "name", "state", "timestamp", "processedOn",
            "finishedOn", "attemptsMade", "attemptsStarted", "priority", "delay", "failedReason", "progress");

    private static Queue<Order> queue(BullpenTestContext ctx, String name) {
        return Queue.builder(ctx.redisson(), name, Order.class).build();
    }

    @Test
    void configSaysWhetherThePageMayOfferActions(BullpenTestContext ctx) {
        try (Dashboard withToken = start(Dashboard.builder(ctx.redisson()).token(TOKEN));
             Dashboard noToken = start(Dashboard.builder(ctx.redisson()).token("  "));
             Dashboard readOnly = start(Dashboard.builder(ctx.redisson()).token(TOKEN).readOnly(true))) {
            Reply r = get(withToken, "/api/config");
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("Content-Type")).isEqualTo("application/json; charset=utf-8");
            assertThat(r.header("Cache-Control")).isEqualTo("no-store");
            assertThat(r.header("X-Content-Type-Options")).isEqualTo("nosniff");
            assertThat(r.body()).isEqualTo("{\"readOnly\":false,\"actions\":true,\"version\":\"0.1.0-SNAPSHOT\"}");
            assertThat(get(noToken, "/api/config").body())
                    .isEqualTo("{\"readOnly\":false,\"actions\":false,\"version\":\"0.1.0-SNAPSHOT\"}");
            assertThat(get(readOnly, "/api/config").body())
                    .isEqualTo("{\"readOnly\":true,\"actions\":false,\"version\":\"0.1.0-SNAPSHOT\"}");
        }
    }

    @Test
    void queuesListsEveryRegisteredQueueSortedByNameWithCountsAndPausedFlag(BullpenTestContext ctx) {
        String prefix = "dash-" + ctx.queueName();
        Queue<Order> beta = Queue.builder(ctx.redisson(), "beta", Order.class).prefix(prefix).build();
        beta.add("ship", new Order("b1", 1));
        beta.add("ship", new Order("b2", 2), JobOptions.builder().delay(Duration.ofHours(1)).build());
        beta.add("ship", new Order("b3", 3), JobOptions.builder().priority(2).build());
        Queue<Order> alpha = Queue.builder(ctx.redisson(), "alpha", Order.class).prefix(prefix).build();
        alpha.add("mail", new Order("a1", 1));
        alpha.pause();
        Queue<Order> gamma = Queue.builder(ctx.redisson(), "gamma", Order.class).prefix(prefix).build();
        gamma.pause();
        gamma.resume();

        try (Dashboard d = start(Dashboard.builder(ctx.redisson()).prefix(prefix))) {
            Reply r = get(d, "/api/queues");
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo(compact("""
                    {"queues": [
                      {"name": "alpha", "paused": true, "counts": {"waiting": 1, "active": 0, "delayed": 0,
                          "prioritized": 0, "waiting-children": 0, "completed": 0, "failed": 0}, "workers": 0},
                      {"name": "beta", "paused": false, "counts": {"waiting": 1, "active": 0, "delayed": 1,
                          "prioritized": 1, "waiting-children": 0, "completed": 0, "failed": 0}, "workers": 0},
                      {"name": "gamma", "paused": false, "counts": {"waiting": 0, "active": 0, "delayed": 0,
                          "prioritized": 0, "waiting-children": 0, "completed": 0, "failed": 0}, "workers": 0}
                    ]}"""));
        }
    }

    @Test
    void queuesOptionLimitsTheQueuesShownToRegisteredOnesAmongThem(BullpenTestContext ctx) {
        String shown = ctx.queueName();
        String other = ctx.newQueueName();
        String neverUsed = ctx.newQueueName();
        queue(ctx, shown).add("a", new Order("1", 1));
        queue(ctx, other).add("a", new Order("2", 2));

        try (Dashboard d = start(Dashboard.builder(ctx.redisson()).queues(shown, neverUsed))) {
            JsonNode queues = get(d, "/api/queues").json().get("queues");
            assertThat(queues).extracting(q -> q.get("name").asText()).containsExactly(shown);
            assertThat(get(d, "/api/queues/" + shown).status()).isEqualTo(200);
            assertThat(get(d, "/api/queues/" + other).status()).isEqualTo(404);
            assertThat(get(d, "/api/queues/" + neverUsed).status()).isEqualTo(404);
        }
    }

    @Test
    void queueViewAddsSchedulersAndTheLastHoursMetrics(BullpenTestContext ctx) {
        String name = ctx.queueName();
        Queue<Order> q = queue(ctx, name);
        TestJobs jobs = new TestJobs(ctx.redisson(), name);
        q.add("a", new Order("1", 1));
        q.add("b", new Order("2", 2));
        q.add("c", new Order("3", 3));
        jobs.completeNext("\"done\"");
        jobs.failNext("boom");
        q.upsertJobScheduler("hourly", Repeat.every(Duration.ofHours(1)), JobTemplate.of("tick", new Order("t", 0)));
        JobScheduler scheduler = q.getJobSchedulers().get(0);
        JobCounts counts = q.getJobCounts();

        try (Dashboard d = start(Dashboard.builder(ctx.redisson()).queues(name))) {
            JsonNode view = get(d, "/api/queues/" + name).json();
            long since = q.getMetrics(MetricsType.COMPLETED, 60).since().toEpochMilli();

            assertThat(fields(view)).containsExactly("name", "paused", "counts", "workers", "schedulers", "metrics");
            assertThat(view.get("name").asText()).isEqualTo(name);
            assertThat(view.get("paused").asBoolean()).isFalse();
            assertThat(view.get("counts").get("completed").asLong()).isEqualTo(1);
            assertThat(view.get("counts").get("failed").asLong()).isEqualTo(1);
            assertThat(view.get("counts").get("waiting").asLong()).isEqualTo(counts.waiting());
            assertThat(view.get("counts").get("delayed").asLong()).isEqualTo(counts.delayed());

            JsonNode s = view.get("schedulers").get(0);
            assertThat(view.get("schedulers")).hasSize(1);
            assertThat(fields(s)).containsExactly("id", "name", "repeat", "nextRun", "iterations");
            assertThat(s.get("id").asText()).isEqualTo("hourly");
            assertThat(s.get("name").asText()).isEqualTo("tick");
            assertThat(s.get("repeat").toString()).isEqualTo("{\"every\":3600000}");
            assertThat(s.get("nextRun").asLong()).isEqualTo(scheduler.nextRun().orElseThrow().toEpochMilli());
            assertThat(s.get("iterations").asLong()).isEqualTo(scheduler.iterations());

            JsonNode metrics = view.get("metrics");
            assertThat(fields(metrics)).containsExactly("since", "completed", "failed");
            assertThat(metrics.get("since").asLong()).isBetween(since - 60_000, since);
            assertThat(metrics.get("completed")).hasSize(60);
            assertThat(metrics.get("failed")).hasSize(60);
            assertThat(metrics.get("completed").get(0).asLong()).isEqualTo(1);
            assertThat(metrics.get("failed").get(0).asLong()).isEqualTo(1);
            assertThat(sum(metrics.get("completed")) + sum(metrics.get("failed"))).isEqualTo(2);
        }
    }

    @Test
    void jobsComeInPagesNewestWaitingFirstWithTheStatesTotal(BullpenTestContext ctx) {
        String name = ctx.queueName();
        Queue<Order> q = queue(ctx, name);
        for (int i = 1; i <= 5; i++) {
            q.add("job-" + i, new Order("o" + i, i));
        }
        Job<Order> fifth = q.getJob("5").orElseThrow();

        try (Dashboard d = start(Dashboard.builder(ctx.redisson()).queues(name))) {
            JsonNode first = get(d, "/api/queues/" + name + "/jobs?state=waiting&start=0&end=1").json();
            assertThat(fields(first)).containsExactly("state", "start", "end", "total", "jobs");
            assertThat(first.get("state").asText()).isEqualTo("waiting");
            assertThat(first.get("start").asLong()).isZero();
            assertThat(first.get("end").asLong()).isEqualTo(1);
            assertThat(first.get("total").asLong()).isEqualTo(5);
            assertThat(ids(first)).containsExactly("5", "4");

            JsonNode job = first.get("jobs").get(0);
            assertThat(fields(job)).isEqualTo(SUMMARY_FIELDS);
            assertThat(job.toString()).isEqualTo(compact("""
                    {"id": "5", "name": "job-5", "state": "waiting", "timestamp": %d, "processedOn": null,
                     "finishedOn": null, "attemptsMade": 0, "attemptsStarted": 0, "priority": 0, "delay": 0,
                     "failedReason": null, "progress": null}""".formatted(fifth.timestamp().toEpochMilli())));

            assertThat(ids(get(d, "/api/queues/" + name + "/jobs?state=waiting&start=2&end=4").json()))
                    .containsExactly("3", "2", "1");
            JsonNode past = get(d, "/api/queues/" + name + "/jobs?state=waiting&start=5&end=9").json();
            assertThat(past.get("jobs")).isEmpty();
            assertThat(past.get("total").asLong()).isEqualTo(5);
            JsonNode defaults = get(d, "/api/queues/" + name + "/jobs?state=waiting").json();
            assertThat(defaults.get("start").asLong()).isZero();
            assertThat(defaults.get("end").asLong()).isEqualTo(19);
            assertThat(ids(defaults)).containsExactly("5", "4", "3", "2", "1");
        }
    }

    @Test
    void eachStateListsInItsOwnOrder(BullpenTestContext ctx) {
        String name = ctx.queueName();
        Queue<Order> q = queue(ctx, name);
        TestJobs jobs = new TestJobs(ctx.redisson(), name);
        for (int minutes : new int[] {30, 10, 20}) {          // ids 1, 2, 3
            q.add("later", new Order("d", minutes), JobOptions.builder().delay(Duration.ofMinutes(minutes)).build());
        }
        for (int priority : new int[] {5, 1, 3}) {            // ids 4, 5, 6
            q.add("urgent", new Order("p", priority), JobOptions.builder().priority(priority).build());
        }
        long now = System.currentTimeMillis();
        for (long ago : new long[] {3000, 1000, 2000}) {      // ids 7, 8, 9 completed; 10, 11, 12 failed
            jobs.complete(addAndTake(q, jobs), "1", now - ago);
        }
        for (long ago : new long[] {3000, 1000, 2000}) {
            jobs.fail(addAndTake(q, jobs), "no", null, now - ago);
        }
        q.add("running", new Order("r", 0));                  // 13, 14 active: the newest taken first
        q.add("running", new Order("r", 0));
        jobs.take();
        jobs.take();

        try (Dashboard d = start(Dashboard.builder(ctx.redisson()).queues(name))) {
            assertThat(ids(page(d, name, "delayed"))).containsExactly("2", "3", "1");
            assertThat(ids(page(d, name, "prioritized"))).containsExactly("5", "6", "4");
            assertThat(ids(page(d, name, "completed"))).containsExactly("8", "9", "7");
            assertThat(ids(page(d, name, "failed"))).containsExactly("11", "12", "10");
            assertThat(ids(page(d, name, "active"))).containsExactly("14", "13");
            assertThat(page(d, name, "failed").get("jobs").get(0).get("state").asText()).isEqualTo("failed");
        }
        ctx.assertInvariant(name);
    }

    static Stream<Arguments> badPageParameters() {
        return Stream.of(
                Arguments.of("", "state is required: one of waiting, prioritized, delayed, active, waiting-children, completed, failed"),
                Arguments.of("state=bogus", "state must be one of waiting, prioritized, delayed, active, waiting-children, completed, failed but was \"bogus\""),
                Arguments.of("state=unknown", "but was \"unknown\""),
                Arguments.of("state=WAITING", "but was \"WAITING\""),
                Arguments.of("state=waiting&start=abc", "start must be a whole number but was \"abc\""),
                Arguments.of("state=waiting&start=-1", "start must be >= 0 but was -1"),
                Arguments.of("state=waiting&end=1.5", "end must be a whole number but was \"1.5\""),
                Arguments.of("state=waiting&start=99999999999999999999", "start must be a whole number but was \"99999999999999999999\""),
                Arguments.of("state=waiting&start=5&end=4", "end must be >= start (5) but was 4"),
                Arguments.of("state=waiting&start=0&end=100", "a page holds at most 100 jobs but start=0, end=100 asks for 101"));
    }

    @ParameterizedTest
    @MethodSource("badPageParameters")
    void badPageParametersAre400WithAMessageNamingTheValue(String query, String message, BullpenTestContext ctx) {
        String name = ctx.queueName();
        queue(ctx, name).add("a", new Order("1", 1));
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()).queues(name))) {
            Reply r = get(d, "/api/queues/" + name + "/jobs?" + query);
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.header("Content-Type")).isEqualTo("application/json; charset=utf-8");
            assertThat(r.error()).contains(message);
        }
    }

    @Test
    void unknownQueueJobOrRouteIs404WithAJsonError(BullpenTestContext ctx) {
        String name = ctx.queueName();
        queue(ctx, name).add("a", new Order("1", 1));
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()))) {
            assertError(get(d, "/api/queues/no-such-queue"), 404, "queue \"no-such-queue\" not found");
            assertError(get(d, "/api/queues/no-such-queue/jobs?state=waiting"), 404, "queue \"no-such-queue\" not found");
            assertError(get(d, "/api/queues/no-such-queue/jobs/1"), 404, "queue \"no-such-queue\" not found");
            assertError(get(d, "/api/queues/" + name + "/jobs/999"), 404, "job \"999\" not found in queue \"" + name + "\"");
            assertError(get(d, "/api/queues/" + name + "/jobs/1:logs"), 404, "job \"1:logs\" not found");
            assertError(get(d, "/api/queues/" + name + "/jobs/1/logs"), 404, "no such route: GET /api/queues/" + name + "/jobs/1/logs");
            assertError(get(d, "/api/nothing"), 404, "no such route: GET /api/nothing");
            assertError(get(d, "/api/queues/"), 404, "no such route");
        }
    }

    @Test
    void jobDetailHasDataOptionsLogsProgressAndReturnValue(BullpenTestContext ctx) {
        String name = ctx.queueName();
        Queue<Order> q = queue(ctx, name);
        TestJobs jobs = new TestJobs(ctx.redisson(), name);
        JobOptions options = JobOptions.builder().attempts(3).backoff(Backoff.fixed(Duration.ofSeconds(1))).build();
        String id = q.add("charge", new Order("A-1", 42), options).id();
        TestJobs.Taken taken = jobs.take();
        jobs.log(id, "checking payment");
        jobs.log(id, "charged");
        jobs.progress(id, "{\"pct\":50}");
        jobs.complete(taken, "{\"receipt\":\"R-9\"}");
        Job<Order> stored = q.getJob(id).orElseThrow();

        try (Dashboard d = start(Dashboard.builder(ctx.redisson()).queues(name))) {
            Reply r = get(d, "/api/queues/" + name + "/jobs/" + id);
            assertThat(r.status()).isEqualTo(200);
            JsonNode job = r.json();
            List<String> expectedFields = new ArrayList<>(SUMMARY_FIELDS);
            expectedFields.addAll(List.of("data", "options", "returnValue", "stacktrace", "logs", "processedBy",
                    "stalledCount", "fencingToken", "schedulerId", "parents"));
            assertThat(fields(job)).isEqualTo(expectedFields);
            assertThat(stored.fencingToken()).as("the fence lives in the attempt's lock, not in the stored job").isZero();
            assertThat(job.toString()).isEqualTo(compact("""
                    {"id": "%s", "name": "charge", "state": "completed", "timestamp": %d, "processedOn": %d,
                     "finishedOn": %d, "attemptsMade": 1, "attemptsStarted": 1, "priority": 0, "delay": 0,
                     "failedReason": null, "progress": "{\\"pct\\":50}",
                     "data": "{\\"id\\":\\"A-1\\",\\"amount\\":42}",
                     "options": {"attempts": 3, "backoff": %s},
                     "returnValue": "{\\"receipt\\":\\"R-9\\"}",
                     "stacktrace": [], "logs": ["checking payment", "charged"], "processedBy": "test-worker",
                     "stalledCount": 0, "fencingToken": null, "schedulerId": null, "parents": []}""".formatted(id,
                    stored.timestamp().toEpochMilli(), stored.processedOn().orElseThrow().toEpochMilli(),
                    stored.finishedOn().orElseThrow().toEpochMilli(),
                    Http.JSON.valueToTree(WireFormat.describe(options.backoff().orElseThrow())))));
        }
    }

    @Test
    void failedJobDetailHasTheReasonAndStackTraces(BullpenTestContext ctx) {
        String name = ctx.queueName();
        Queue<Order> q = queue(ctx, name);
        TestJobs jobs = new TestJobs(ctx.redisson(), name);
        String id = q.add("refund", new Order("B-2", 7)).id();
        String trace = "java.lang.IllegalStateException: card declined\n\tat Refunds.run(Refunds.java:12)";
        jobs.fail(jobs.take(), "card declined", trace);

        try (Dashboard d = start(Dashboard.builder(ctx.redisson()).queues(name))) {
            JsonNode job = get(d, "/api/queues/" + name + "/jobs/" + id).json();
            assertThat(job.get("state").asText()).isEqualTo("failed");
            assertThat(job.get("failedReason").asText()).isEqualTo("card declined");
            assertThat(job.get("stacktrace")).extracting(JsonNode::asText).containsExactly(trace);
            assertThat(job.get("returnValue").isNull()).isTrue();
            assertThat(job.get("finishedOn").isNumber()).isTrue();
            assertThat(job.get("attemptsMade").asInt()).isEqualTo(1);
            assertThat(job.get("options").toString()).isEqualTo("{}");
        }
    }

    @Test
    void searchByIdFindsCustomIdsWithReservedCharactersAndSchedulerIterations(BullpenTestContext ctx) {
        String name = ctx.queueName();
        Queue<Order> q = queue(ctx, name);
        q.add("ship", new Order("C-3", 3), JobOptions.builder().jobId("order/7+x").build());
        q.upsertJobScheduler("hourly", Repeat.every(Duration.ofHours(1)), JobTemplate.of("tick", new Order("t", 0)));
        String pending = q.getJobSchedulers().get(0).pendingJobId().orElseThrow();

        try (Dashboard d = start(Dashboard.builder(ctx.redisson()).queues(name))) {
            JsonNode custom = get(d, "/api/queues/" + name + "/jobs/order%2F7%2Bx").json();
            assertThat(custom.get("id").asText()).isEqualTo("order/7+x");
            assertThat(custom.get("state").asText()).isEqualTo("waiting");
            assertThat(custom.get("options").toString()).isEqualTo("{\"jobId\":\"order/7+x\"}");
            assertThat(get(d, "/api/queues/" + name + "/jobs/order%2F7+x").json().get("id").asText()).isEqualTo("order/7+x");

            JsonNode iteration = get(d, "/api/queues/" + name + "/jobs/" + pending).json();
            assertThat(iteration.get("schedulerId").asText()).isEqualTo("hourly");
            assertThat(iteration.get("name").asText()).isEqualTo("tick");
            assertThat(iteration.get("state").asText()).isEqualTo(q.getState(pending).label());
        }
    }

    @Test
    void anUnexpectedFailureIs500WithAGenericMessage(BullpenTestContext ctx) {
        String name = ctx.queueName();
        String id = queue(ctx, name).add("a", new Order("1", 1)).id();
        ctx.redisson().getMap("bp:{" + name + "}:job:" + id, StringCodec.INSTANCE).put("data", "{broken");
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()).queues(name))) {
            assertError(get(d, "/api/queues/" + name + "/jobs/" + id), 500, "internal error (see the server log)");
            assertThat(get(d, "/api/queues/" + name + "/jobs/" + id).body()).doesNotContain("broken");
            assertThat(get(d, "/api/config").status()).isEqualTo(200);
        }
    }

    private static TestJobs.Taken addAndTake(Queue<Order> q, TestJobs jobs) {
        q.add("work", new Order("w", 0));
        return jobs.take();
    }

    private static JsonNode page(Dashboard d, String queue, String state) {
        Reply r = get(d, "/api/queues/" + queue + "/jobs?state=" + state + "&start=0&end=99");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    private static List<String> ids(JsonNode page) {
        List<String> ids = new ArrayList<>();
        page.get("jobs").forEach(j -> ids.add(j.get("id").asText()));
        return ids;
    }

    private static long sum(JsonNode counts) {
        long total = 0;
        for (JsonNode c : counts) {
            total += c.asLong();
        }
        return total;
    }

    static void assertError(Reply r, int status, String message) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.header("Content-Type")).isEqualTo("application/json; charset=utf-8");
        assertThat(fields(r.json())).containsExactly("error");
        assertThat(r.error()).contains(message);
    }
}
