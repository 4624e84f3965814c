package io.bullpen.dashboard;

import static io.bullpen.dashboard.ApiReadTest.assertError;
import static io.bullpen.dashboard.Dashboards.compact;
import static io.bullpen.dashboard.Dashboards.fields;
import static io.bullpen.dashboard.Dashboards.start;
import static io.bullpen.dashboard.Http.get;
import static io.bullpen.dashboard.Http.post;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.bullpen.JobOptions;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.dashboard.Http.Reply;
import io.bullpen.flow.ChildFailure;
import io.bullpen.flow.FlowJob;
import io.bullpen.flow.FlowProducer;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Flows in the JSON API: the waiting-children count and list, a job's parents, a parent's
 * children page by page with their states, and what a waiting parent still waits for. The flow:
 * a parent in one queue, children in two other queues (other hash tags, so each child's end
 * reaches the parent through the relay); one child completed, one failed on an IGNORE edge, one
 * still waiting.
 */
@BullpenTest
class FlowsApiTest {
    static final String MARKUP = "<script>window.__xss=1</script>";

    /** The queues and ids of the flow. */
    record Flow(String reports, String pages, String images) {
    }

    /** Adds the flow and moves its children as workers would; the parent is left waiting for img-1. */
    static Flow addFlow(BullpenTestContext ctx) {
        Flow f = new Flow(ctx.queueName(), ctx.newQueueName(), ctx.newQueueName());
        FlowProducer flows = FlowProducer.builder(ctx.redisson()).build();
        flows.add(FlowJob.builder(f.reports(), "assemble", Map.of("report", 7))
                .options(JobOptions.builder().jobId("report-7").build())
                .child(FlowJob.builder(f.pages(), "render", Map.of("page", 1))
                        .options(JobOptions.builder().jobId("page-1").build()).build())
                .child(FlowJob.builder(f.pages(), MARKUP, Map.of("page", 2))
                        .options(JobOptions.builder().jobId("page-2").build()).build(), ChildFailure.IGNORE)
                .child(FlowJob.builder(f.images(), "thumbnail", Map.of("image", 1))
                        .options(JobOptions.builder().jobId("img-1").build()).build())
                .build());
        new TestJobs(ctx.redisson(), f.reports());         // the queues' workers register them
        new TestJobs(ctx.redisson(), f.images());
        TestJobs pages = new TestJobs(ctx.redisson(), f.pages());
        TestJobs.Taken first = pages.take();
        assertThat(first.id()).isEqualTo("page-1");
        assertThat(first.parent()).isTrue();
        pages.complete(first, "\"<b>page 1</b>\"");
        pages.fail(pages.take(), MARKUP + " out of ink", null);
        pages.relayChildEnds();
        return f;
    }

    @Test
    void countsListTheWaitingChildrenStateAndItsTabListsTheWaitingParents(BullpenTestContext ctx) {
        Flow f = addFlow(ctx);
        Queue<JsonNode> reports = Queue.builder(ctx.redisson(), f.reports(), JsonNode.class).build();
        assertThat(reports.getState("report-7")).isEqualTo(JobState.WAITING_CHILDREN);

        try (Dashboard d = start(Dashboard.builder(ctx.redisson()))) {
            JsonNode queue = get(d, "/api/queues/" + f.reports()).json();
            assertThat(queue.get("counts").toString()).isEqualTo(compact("""
                    {"waiting": 0, "active": 0, "delayed": 0, "prioritized": 0, "waiting-children": 1,
                     "completed": 0, "failed": 0}"""));
            JsonNode listed = null;
            for (JsonNode q : get(d, "/api/queues").json().get("queues")) {
                if (q.get("name").asText().equals(f.pages())) {
                    listed = q;
                }
            }
            assertThat(listed).isNotNull();
            assertThat(fields(listed.get("counts"))).containsExactly("waiting", "active", "delayed", "prioritized",
                    "waiting-children", "completed", "failed");
            assertThat(listed.get("counts").get("completed").asLong()).isEqualTo(1);
            assertThat(listed.get("counts").get("failed").asLong()).isEqualTo(1);

            JsonNode page = get(d, "/api/queues/" + f.reports() + "/jobs?state=waiting-children").json();
            assertThat(page.get("state").asText()).isEqualTo("waiting-children");
            assertThat(page.get("total").asLong()).isEqualTo(1);
            assertThat(page.get("jobs")).hasSize(1);
            assertThat(page.get("jobs").get(0).get("id").asText()).isEqualTo("report-7");
            assertThat(page.get("jobs").get(0).get("state").asText()).isEqualTo("waiting-children");
        }
    }

    @Test
    void aJobNamesItsParentsAndWhetherTheDashboardShowsTheirQueue(BullpenTestContext ctx) {
        Flow f = addFlow(ctx);
        try (Dashboard all = start(Dashboard.builder(ctx.redisson()));
             Dashboard childrenOnly = start(Dashboard.builder(ctx.redisson()).queues(f.pages(), f.images()))) {
            JsonNode child = get(all, "/api/queues/" + f.pages() + "/jobs/page-2").json();
            assertThat(fields(child)).endsWith("schedulerId", "parents");
            assertThat(child.get("parents").toString()).isEqualTo(compact("""
                    [{"queue": "%s", "id": "report-7", "shown": true}]""".formatted(f.reports())));
            assertThat(get(all, "/api/queues/" + f.reports() + "/jobs/report-7").json().get("parents").toString())
                    .isEqualTo("[]");
            assertThat(get(childrenOnly, "/api/queues/" + f.images() + "/jobs/img-1").json().get("parents").toString())
                    .isEqualTo(compact("""
                            [{"queue": "%s", "id": "report-7", "shown": false}]""".formatted(f.reports())));
        }
    }

    @Test
    void aParentsChildrenComePageByPageWithTheirStatesOutcomesAndLinks(BullpenTestContext ctx) {
        Flow f = addFlow(ctx);
        String children = "/api/queues/" + f.reports() + "/jobs/report-7/children";
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()))) {
            Reply first = get(d, children + "?limit=2");
            assertThat(first.status()).as(first.body()).isEqualTo(200);
            assertThat(first.body()).as("markup in a value is escaped in the JSON text").doesNotContain("<", ">");
            assertThat(first.json().toString()).isEqualTo(compact("""
                    {"after": null, "next": "%2$s:page-2", "total": 3, "ended": null, "children": [
                      {"queue": "%2$s", "id": "page-1", "name": "render", "state": "completed", "ended": true,
                       "returnValue": "\\"<b>page 1</b>\\"", "failedReason": null, "shown": true},
                      {"queue": "%2$s", "id": "page-2", "name": "%3$s", "state": "failed", "ended": true,
                       "returnValue": null, "failedReason": "%3$s out of ink", "shown": true}
                    ]}""".formatted(f.reports(), f.pages(), MARKUP)));

            JsonNode second = get(d, children + "?limit=2&after=" + f.pages() + ":page-2").json();
            assertThat(second.toString()).isEqualTo(compact("""
                    {"after": "%1$s:page-2", "next": null, "total": 3, "ended": null, "children": [
                      {"queue": "%2$s", "id": "img-1", "name": "thumbnail", "state": "waiting", "ended": false,
                       "returnValue": null, "failedReason": null, "shown": true}
                    ]}""".formatted(f.pages(), f.images())));

            JsonNode all = get(d, children).json();
            assertThat(ids(all)).containsExactly("page-1", "page-2", "img-1");
            assertThat(all.get("next").isNull()).isTrue();
        }
    }

    @Test
    void aWaitingParentShowsWhatItStillWaitsFor(BullpenTestContext ctx) {
        Flow f = addFlow(ctx);
        String children = "/api/queues/" + f.reports() + "/jobs/report-7/children";
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()))) {
            JsonNode waitingFor = get(d, children + "?ended=false").json();
            assertThat(waitingFor.get("ended").asBoolean(true)).isFalse();
            assertThat(waitingFor.get("total").asInt()).isEqualTo(3);
            assertThat(ids(waitingFor)).containsExactly("img-1");
            assertThat(waitingFor.get("next").isNull()).isTrue();

            assertThat(ids(get(d, children + "?ended=true").json())).containsExactly("page-1", "page-2");

            new TestJobs(ctx.redisson(), f.images()).completeNext("1");
            assertThat(ids(get(d, children + "?ended=false").json())).isEmpty();
            assertThat(ids(get(d, children + "?ended=true").json())).containsExactly("page-1", "page-2", "img-1");
        }
    }

    @Test
    void theChildrenAParentStillWaitsForComePageByPage(BullpenTestContext ctx) {
        String q = ctx.queueName();
        TestJobs jobs = new TestJobs(ctx.redisson(), q);
        FlowJob.Builder parent = FlowJob.builder(q, "fan-in", Map.of("n", 5))
                .options(JobOptions.builder().jobId("fan-in").build());
        for (int i = 1; i <= 5; i++) {
            parent.child(FlowJob.builder(q, "part", Map.of("i", i))
                    .options(JobOptions.builder().jobId("part-" + i).build()).build());
        }
        FlowProducer.builder(ctx.redisson()).build().add(parent.build());
        List<TestJobs.Taken> taken = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            taken.add(jobs.take());
        }
        assertThat(taken).extracting(TestJobs.Taken::id).containsExactly("part-1", "part-2", "part-3", "part-4", "part-5");
        // Children of the parent's own queue end straight into it (one script, no relay).
        jobs.complete(taken.get(1), "2");
        jobs.complete(taken.get(3), "4");
        String children = "/api/queues/" + q + "/jobs/fan-in/children?limit=2";
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()))) {
            JsonNode first = get(d, children + "&ended=false").json();
            assertThat(ids(first)).containsExactly("part-1", "part-3");
            assertThat(first.get("children").get(0).get("state").asText()).isEqualTo("active");
            assertThat(first.get("next").asText()).isEqualTo(q + ":part-3");
            JsonNode second = get(d, children + "&ended=false&after=" + q + ":part-3").json();
            assertThat(ids(second)).containsExactly("part-5");
            assertThat(second.get("next").isNull()).isTrue();
            JsonNode ended = get(d, children + "&ended=true").json();
            assertThat(ids(ended)).containsExactly("part-2", "part-4");
            assertThat(ended.get("next").isNull()).isTrue();
            assertThat(get(d, "/api/queues/" + q).json().get("counts").get("waiting-children").asLong()).isEqualTo(1);
        }
    }

    @Test
    void cancellingAWaitingParentWithTheTokenCancelsWhatItWaitsFor(BullpenTestContext ctx) {
        Flow f = addFlow(ctx);
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()).token(Http.TOKEN))) {
            String cancel = "/api/queues/" + f.reports() + "/jobs/report-7/cancel";
            assertThat(post(d, cancel, null).status()).as("an action needs the token").isEqualTo(401);
            Queue<JsonNode> reports = Queue.builder(ctx.redisson(), f.reports(), JsonNode.class).build();
            assertThat(reports.getState("report-7")).isEqualTo(JobState.WAITING_CHILDREN);

            Reply r = post(d, cancel, Http.TOKEN);
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("{\"ok\":true,\"result\":\"CANCELLED_WAITING\"}");
            assertThat(reports.getState("report-7")).isEqualTo(JobState.FAILED);
            assertThat(Queue.builder(ctx.redisson(), f.images(), JsonNode.class).build().getState("img-1"))
                    .isEqualTo(JobState.FAILED);
            assertThat(get(d, "/api/queues/" + f.reports()).json().get("counts").get("waiting-children").asLong()).isZero();
        }
    }

    @Test
    void aChildInAQueueTheDashboardDoesNotShowIsListedWithoutALink(BullpenTestContext ctx) {
        Flow f = addFlow(ctx);
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()).queues(f.reports(), f.pages()))) {
            JsonNode page = get(d, "/api/queues/" + f.reports() + "/jobs/report-7/children").json();
            List<Boolean> shown = new ArrayList<>();
            page.get("children").forEach(c -> shown.add(c.get("shown").asBoolean()));
            assertThat(shown).containsExactly(true, true, false);
        }
    }

    @Test
    void childrenOfAJobWithoutChildrenUnknownJobsAndBadParameters(BullpenTestContext ctx) {
        Flow f = addFlow(ctx);
        String base = "/api/queues/" + f.reports() + "/jobs/";
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()))) {
            assertThat(get(d, "/api/queues/" + f.pages() + "/jobs/page-1/children").body()).isEqualTo(
                    "{\"after\":null,\"next\":null,\"total\":0,\"ended\":null,\"children\":[]}");
            assertError(get(d, base + "no-such-job/children"), 404, "job \"no-such-job\" not found in queue");
            assertError(get(d, "/api/queues/no-such-queue/jobs/report-7/children"), 404, "queue \"no-such-queue\" not found");
            assertError(get(d, base + "report-7/children?limit=0"), 400, "limit must be >= 1 but was 0");
            assertError(get(d, base + "report-7/children?limit=101"), 400, "a page holds at most 100 children but limit was 101");
            assertError(get(d, base + "report-7/children?after=page-1"), 400,
                    "after must be a child as <queue>:<id> but was \"page-1\"");
            assertError(get(d, base + "report-7/children?after=a:b:c"), 400, "after must be a child as <queue>:<id>");
            assertError(get(d, base + "report-7/children?after=a%7Bx%7D:b"), 400, "after must be a child as <queue>:<id>");
            assertError(get(d, base + "report-7/children?ended=yes"), 400, "ended must be true or false but was \"yes\"");
            JsonNode afterUnknown = get(d, base + "report-7/children?after=" + f.pages() + ":page-9").json();
            assertThat(afterUnknown.get("children")).isEmpty();
            assertThat(afterUnknown.get("next").isNull()).isTrue();
        }
    }

    private static List<String> ids(JsonNode page) {
        List<String> ids = new ArrayList<>();
        page.get("children").forEach(c -> ids.add(c.get("id").asText()));
        return ids;
    }
}
