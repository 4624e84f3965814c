package io.bullpen.dashboard;

import static io.bullpen.dashboard.ApiReadTest.assertError;
import static io.bullpen.dashboard.Dashboards.start;
import static io.bullpen.dashboard.Http.TOKEN;
import static io.bullpen.dashboard.Http.get;
import static io.bullpen.dashboard.Http.post;
import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.JobOptions;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.dashboard.Http.Reply;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The action routes: each changes what it says with the token, and nothing without it. */
@BullpenTest
class ActionsTest {
    record Order(String id) {
    }

    /** Every action route, for a queue named Q, jobs 1 (failed) and 2 (delayed) and a group tenant-a. */
    static final List<String> ACTION_PATHS = List.of(
            "/api/queues/Q/jobs/1/retry",
            "/api/queues/Q/jobs/2/promote",
            "/api/queues/Q/jobs/2/remove",
            "/api/queues/Q/jobs/3/cancel",
            "/api/queues/Q/retry-failed",
            "/api/queues/Q/clean?state=failed&graceMs=0",
            "/api/queues/Q/pause",
            "/api/queues/Q/resume",
            "/api/queues/Q/groups/tenant-a/pause",
            "/api/queues/Q/groups/tenant-a/resume");

    private static Queue<Order> queue(BullpenTestContext ctx) {
        return Queue.builder(ctx.redisson(), ctx.queueName(), Order.class).build();
    }

    private static Dashboard dashboard(BullpenTestContext ctx) {
        return start(Dashboard.builder(ctx.redisson()).queues(ctx.queueName()).token(TOKEN));
    }

    /** Job 1 failed, job 2 delayed by an hour, job 3 waiting. */
    private static Queue<Order> failedDelayedWaiting(BullpenTestContext ctx) {
        Queue<Order> q = queue(ctx);
        q.add("doomed", new Order("1"));
        new TestJobs(ctx.redisson(), ctx.queueName()).failNext("boom");
        q.add("later", new Order("2"), JobOptions.builder().delay(Duration.ofHours(1)).build());
        q.add("now", new Order("3"));
        return q;
    }

    private static String path(BullpenTestContext ctx, String template) {
        return template.replace("/Q/", "/" + ctx.queueName() + "/");
    }

    @Test
    void retryMovesAFailedJobBackToWaiting(BullpenTestContext ctx) {
        Queue<Order> q = failedDelayedWaiting(ctx);
        try (Dashboard d = dashboard(ctx)) {
            Reply r = post(d, path(ctx, "/api/queues/Q/jobs/1/retry"));
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("{\"ok\":true}");
            assertThat(q.getState("1")).isEqualTo(JobState.WAITING);
        }
        ctx.assertInvariant(ctx.queueName());
    }

    @Test
    void promoteRunsADelayedJobNow(BullpenTestContext ctx) {
        Queue<Order> q = failedDelayedWaiting(ctx);
        try (Dashboard d = dashboard(ctx)) {
            assertThat(post(d, path(ctx, "/api/queues/Q/jobs/2/promote")).body()).isEqualTo("{\"ok\":true}");
            assertThat(q.getState("2")).isEqualTo(JobState.WAITING);
        }
        ctx.assertInvariant(ctx.queueName());
    }

    @Test
    void removeDeletesAJobInAnyState(BullpenTestContext ctx) {
        Queue<Order> q = failedDelayedWaiting(ctx);
        try (Dashboard d = dashboard(ctx)) {
            for (String id : List.of("1", "2", "3")) {
                assertThat(post(d, path(ctx, "/api/queues/Q/jobs/" + id + "/remove")).body()).isEqualTo("{\"ok\":true}");
                assertThat(q.getJob(id)).isEmpty();
            }
            assertThat(q.getJobCounts().total()).isZero();
        }
        ctx.assertInvariant(ctx.queueName());
    }

    @Test
    void cancelFailsAWaitingOrDelayedJobAsCancelledAndRefusesAFinishedOne(BullpenTestContext ctx) {
        Queue<Order> q = failedDelayedWaiting(ctx);
        try (Dashboard d = dashboard(ctx)) {
            assertThat(post(d, path(ctx, "/api/queues/Q/jobs/3/cancel")).body())
                    .isEqualTo("{\"ok\":true,\"result\":\"CANCELLED_WAITING\"}");
            assertThat(q.getJob("3").orElseThrow().failedReason()).contains("cancelled: cancelled from the dashboard");
            assertThat(post(d, path(ctx, "/api/queues/Q/jobs/2/cancel?reason=no%20longer%20needed")).body())
                    .isEqualTo("{\"ok\":true,\"result\":\"CANCELLED_DELAYED\"}");
            assertThat(q.getJob("2").orElseThrow().failedReason()).contains("cancelled: no longer needed");
            assertError(post(d, path(ctx, "/api/queues/Q/jobs/1/cancel")), 409, "cannot cancel job 1");
        }
        ctx.assertInvariant(ctx.queueName());
    }

    @Test
    void retryFailedRetriesEveryFailedJobAndCountsThem(BullpenTestContext ctx) {
        Queue<Order> q = queue(ctx);
        TestJobs jobs = new TestJobs(ctx.redisson(), ctx.queueName());
        for (int i = 0; i < 3; i++) {
            q.add("doomed", new Order("" + i));
            jobs.failNext("boom " + i);
        }
        try (Dashboard d = dashboard(ctx)) {
            assertThat(post(d, path(ctx, "/api/queues/Q/retry-failed")).body()).isEqualTo("{\"ok\":true,\"count\":3}");
            assertThat(q.getJobCounts().failed()).isZero();
            assertThat(q.getJobCounts().waiting()).isEqualTo(3);
            assertThat(post(d, path(ctx, "/api/queues/Q/retry-failed")).body()).isEqualTo("{\"ok\":true,\"count\":0}");
        }
        ctx.assertInvariant(ctx.queueName());
    }

    @Test
    void cleanRemovesFinishedJobsOlderThanTheGracePeriod(BullpenTestContext ctx) {
        Queue<Order> q = queue(ctx);
        TestJobs jobs = new TestJobs(ctx.redisson(), ctx.queueName());
        long now = System.currentTimeMillis();
        for (long ago : new long[] {7_200_000, 7_000_000, 0}) {
            q.add("done", new Order("c"));
            jobs.complete(jobs.take(), "1", now - ago);
        }
        q.add("doomed", new Order("f"));
        jobs.fail(jobs.take(), "boom", null, now - 7_200_000);
        try (Dashboard d = dashboard(ctx)) {
            assertThat(post(d, path(ctx, "/api/queues/Q/clean?state=completed&graceMs=3600000")).body())
                    .isEqualTo("{\"ok\":true,\"count\":2}");
            assertThat(q.getJobCounts().completed()).isEqualTo(1);
            assertThat(q.getJobCounts().failed()).isEqualTo(1);
            assertThat(post(d, path(ctx, "/api/queues/Q/clean?state=failed&graceMs=0")).body())
                    .isEqualTo("{\"ok\":true,\"count\":1}");
            assertThat(q.getJobCounts().failed()).isZero();
        }
        ctx.assertInvariant(ctx.queueName());
    }

    @Test
    void cleanRejectsOtherStatesAndBadGracePeriods(BullpenTestContext ctx) {
        Queue<Order> q = failedDelayedWaiting(ctx);
        try (Dashboard d = dashboard(ctx)) {
            assertError(post(d, path(ctx, "/api/queues/Q/clean?state=waiting&graceMs=0")), 400,
                    "state must be completed or failed but was \"waiting\"");
            assertError(post(d, path(ctx, "/api/queues/Q/clean?graceMs=0")), 400, "state is required");
            assertError(post(d, path(ctx, "/api/queues/Q/clean?state=failed")), 400, "graceMs is required");
            assertError(post(d, path(ctx, "/api/queues/Q/clean?state=failed&graceMs=-5")), 400, "graceMs must be >= 0 but was -5");
            assertError(post(d, path(ctx, "/api/queues/Q/clean?state=failed&graceMs=1h")), 400,
                    "graceMs must be a whole number but was \"1h\"");
            assertThat(q.getJobCounts().failed()).isEqualTo(1);
        }
    }

    @Test
    void pauseAndResume(BullpenTestContext ctx) {
        Queue<Order> q = failedDelayedWaiting(ctx);
        try (Dashboard d = dashboard(ctx)) {
            assertThat(post(d, path(ctx, "/api/queues/Q/pause")).body()).isEqualTo("{\"ok\":true}");
            assertThat(q.isPaused()).isTrue();
            assertThat(get(d, "/api/queues/" + ctx.queueName()).json().get("paused").asBoolean()).isTrue();
            assertThat(post(d, path(ctx, "/api/queues/Q/resume")).body()).isEqualTo("{\"ok\":true}");
            assertThat(q.isPaused()).isFalse();
        }
        ctx.assertInvariant(ctx.queueName());
    }

    @Test
    void anActionOnAJobInTheWrongStateIs409AndChangesNothing(BullpenTestContext ctx) {
        Queue<Order> q = failedDelayedWaiting(ctx);
        try (Dashboard d = dashboard(ctx)) {
            assertError(post(d, path(ctx, "/api/queues/Q/jobs/3/retry")), 409, "it is not failed");
            assertError(post(d, path(ctx, "/api/queues/Q/jobs/3/promote")), 409, "it is not delayed");
            assertThat(q.getState("3")).isEqualTo(JobState.WAITING);
        }
        ctx.assertInvariant(ctx.queueName());
    }

    @Test
    void removingAJobAWorkerHoldsIs409(BullpenTestContext ctx) {
        Queue<Order> q = queue(ctx);
        q.add("busy", new Order("1"));
        String id = new TestJobs(ctx.redisson(), ctx.queueName()).take().id();
        try (Dashboard d = dashboard(ctx)) {
            assertError(post(d, path(ctx, "/api/queues/Q/jobs/" + id + "/remove")), 409, "locked by a worker");
            assertThat(q.getState(id)).isEqualTo(JobState.ACTIVE);
        }
        ctx.assertInvariant(ctx.queueName());
    }

    @Test
    void anActionOnAMissingJobOrQueueIs404(BullpenTestContext ctx) {
        failedDelayedWaiting(ctx);
        try (Dashboard d = dashboard(ctx)) {
            for (String action : List.of("retry", "promote", "remove", "cancel")) {
                assertError(post(d, path(ctx, "/api/queues/Q/jobs/404/" + action)), 404, "job 404 not found");
            }
            assertError(post(d, "/api/queues/no-such-queue/pause"), 404, "queue \"no-such-queue\" not found");
            assertError(post(d, "/api/queues/no-such-queue/jobs/1/retry"), 404, "queue \"no-such-queue\" not found");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "wrong", "prefix", "longer", "cookie", "query", "bearer"})
    void withoutTheRightTokenHeaderEveryActionIs401AndNothingChanges(String how, BullpenTestContext ctx) {
        failedDelayedWaiting(ctx);
        String before = ctx.snapshot(ctx.queueName()).toString();
        try (Dashboard d = dashboard(ctx)) {
            for (String template : ACTION_PATHS) {
                String path = path(ctx, template);
                HttpRequest.Builder request = HttpRequest.newBuilder(Http.uri(d, path)).POST(HttpRequest.BodyPublishers.noBody());
                switch (how) {
                    case "none" -> { }
                    case "wrong" -> request.header("X-Bullpen-Token", "not-the-token");
                    case "prefix" -> request.header("X-Bullpen-Token", TOKEN.substring(0, TOKEN.length() - 1));
                    case "longer" -> request.header("X-Bullpen-Token", TOKEN + "x");
                    case "cookie" -> request.header("Cookie", "X-Bullpen-Token=" + TOKEN + "; token=" + TOKEN);
                    case "query" -> request = HttpRequest.newBuilder(Http.uri(d, path + (path.contains("?") ? "&" : "?")
                            + "token=" + TOKEN + "&X-Bullpen-Token=" + TOKEN)).POST(HttpRequest.BodyPublishers.noBody());
                    case "bearer" -> request.header("Authorization", "Bearer " + TOKEN);
                    default -> throw new IllegalArgumentException(how);
                }
                Reply r = Http.send(request);
                assertThat(r.status()).as(path + ": " + r.body()).isEqualTo(401);
                assertThat(r.error()).contains("X-Bullpen-Token");
            }
        }
        assertThat(ctx.snapshot(ctx.queueName()).toString()).isEqualTo(before);
    }

    @Test
    void withNoTokenConfiguredActionsAre401AndConfigSaysSo(BullpenTestContext ctx) {
        failedDelayedWaiting(ctx);
        String before = ctx.snapshot(ctx.queueName()).toString();
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()).queues(ctx.queueName()).token(null))) {
            assertThat(get(d, "/api/config").json().get("actions").asBoolean()).isFalse();
            for (String template : ACTION_PATHS) {
                assertError(post(d, path(ctx, template), TOKEN), 401, "actions are disabled: the dashboard has no token configured");
                assertError(post(d, path(ctx, template), ""), 401, "actions are disabled");
            }
        }
        assertThat(ctx.snapshot(ctx.queueName()).toString()).isEqualTo(before);
    }

    @Test
    void inReadOnlyModeActionRoutesDoNotExist(BullpenTestContext ctx) {
        failedDelayedWaiting(ctx);
        String before = ctx.snapshot(ctx.queueName()).toString();
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()).queues(ctx.queueName()).token(TOKEN).readOnly(true))) {
            assertThat(get(d, "/api/config").body()).contains("\"readOnly\":true,\"actions\":false");
            for (String template : ACTION_PATHS) {
                assertError(post(d, path(ctx, template)), 404, "no such route");
            }
            assertThat(get(d, "/api/queues/" + ctx.queueName()).status()).isEqualTo(200);
        }
        assertThat(ctx.snapshot(ctx.queueName()).toString()).isEqualTo(before);
    }

    @Test
    void actionsAreOnlyPostAndReadsOnlyGet(BullpenTestContext ctx) {
        failedDelayedWaiting(ctx);
        try (Dashboard d = dashboard(ctx)) {
            Reply getAction = get(d, path(ctx, "/api/queues/Q/pause"));
            assertError(getAction, 405, "method GET is not allowed");
            assertThat(getAction.header("Allow")).isEqualTo("POST");
            Reply postRead = post(d, "/api/queues");
            assertError(postRead, 405, "method POST is not allowed");
            assertThat(postRead.header("Allow")).isEqualTo("GET");
            assertThat(queue(ctx).isPaused()).isFalse();
        }
    }
}
