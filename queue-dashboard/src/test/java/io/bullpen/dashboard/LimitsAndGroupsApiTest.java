package io.bullpen.dashboard;

import static io.bullpen.dashboard.ApiReadTest.assertError;
import static io.bullpen.dashboard.Dashboards.compact;
import static io.bullpen.dashboard.Dashboards.fields;
import static io.bullpen.dashboard.Dashboards.start;
import static io.bullpen.dashboard.Http.TOKEN;
import static io.bullpen.dashboard.Http.get;
import static io.bullpen.dashboard.Http.post;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.bullpen.GroupInfo;
import io.bullpen.JobOptions;
import io.bullpen.Queue;
import io.bullpen.RateLimit;
import io.bullpen.dashboard.Http.Reply;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Flow control in the API (API.md): a queue's limits, its groups page by page, and pausing and
 * resuming a group. The tests that read or change limits and groups need queue-core's flow
 * control; the ones about bad input, unknown queues and the token do not.
 */
@BullpenTest
class LimitsAndGroupsApiTest {
    record Order(String id) {
    }

    static final List<String> GROUP_FIELDS = List.of("name", "waiting", "active", "paused", "concurrency",
            "rateLimit", "maxSize", "weight");

    private static Queue<Order> queue(BullpenTestContext ctx) {
        return Queue.builder(ctx.redisson(), ctx.queueName(), Order.class).build();
    }

    private static Dashboard dashboard(BullpenTestContext ctx) {
        return start(Dashboard.builder(ctx.redisson()).token(TOKEN));
    }

    private static void addTo(Queue<Order> q, String group, int jobs) {
        for (int i = 0; i < jobs; i++) {
            q.add("export", new Order(group + "-" + i), JobOptions.builder().group(group).build());
        }
    }

    private static String base(BullpenTestContext ctx) {
        return "/api/queues/" + ctx.queueName();
    }

    @Test
    void limitsShowTheQueuesRateLimitAndGlobalConcurrencyAndNullForThoseNotSet(BullpenTestContext ctx) {
        Queue<Order> q = queue(ctx);
        q.add("a", new Order("1"));
        try (Dashboard d = dashboard(ctx)) {
            assertThat(get(d, base(ctx) + "/limits").body()).isEqualTo(compact("""
                    {"name": "%s", "rateLimit": null, "globalConcurrency": null,
                     "defaultGroupConcurrency": null, "defaultGroupRateLimit": null}""".formatted(ctx.queueName())));

            q.setRateLimit(RateLimit.of(100, Duration.ofSeconds(1)).burst(20));
            q.setGlobalConcurrency(5);
            Reply r = get(d, base(ctx) + "/limits");
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            assertThat(r.body()).isEqualTo(compact("""
                    {"name": "%s", "rateLimit": {"max": 100, "per": 1000, "burst": 20}, "globalConcurrency": 5,
                     "defaultGroupConcurrency": null, "defaultGroupRateLimit": null}""".formatted(ctx.queueName())));
        }
    }

    @Test
    void limitsShowTheDefaultsForGroups(BullpenTestContext ctx) {
        Queue<Order> q = queue(ctx);
        q.add("a", new Order("1"));
        q.setDefaultGroupConcurrency(2);
        q.setDefaultGroupRateLimit(RateLimit.of(10, Duration.ofMinutes(1)));
        try (Dashboard d = dashboard(ctx)) {
            Reply r = get(d, base(ctx) + "/limits");
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            assertThat(r.body()).isEqualTo(compact("""
                    {"name": "%s", "rateLimit": null, "globalConcurrency": null,
                     "defaultGroupConcurrency": 2, "defaultGroupRateLimit": {"max": 10, "per": 60000, "burst": 0}}"""
                    .formatted(ctx.queueName())));
        }
    }

    @Test
    void allLimitsListEveryQueueSortedByName(BullpenTestContext ctx) {
        String b = ctx.queueName() + "-b";
        String a = ctx.queueName() + "-a";
        Queue<Order> qb = Queue.builder(ctx.redisson(), b, Order.class).build();
        qb.add("x", new Order("1"));
        Queue.builder(ctx.redisson(), a, Order.class).build().add("x", new Order("1"));
        qb.setGlobalConcurrency(3);
        try (Dashboard d = start(Dashboard.builder(ctx.redisson()).queues(a, b))) {
            JsonNode list = get(d, "/api/limits").json().get("queues");
            assertThat(list).hasSize(2);
            assertThat(list.get(0).get("name").asText()).isEqualTo(a);
            assertThat(list.get(0).get("globalConcurrency").isNull()).isTrue();
            assertThat(list.get(1).get("name").asText()).isEqualTo(b);
            assertThat(list.get(1).get("globalConcurrency").asLong()).isEqualTo(3);
        }
    }

    @Test
    void groupsComeInPagesByNameWithCountsPausedFlagAndOwnSettings(BullpenTestContext ctx) {
        Queue<Order> q = queue(ctx);
        addTo(q, "tenant-c", 2);
        new TestJobs(ctx.redisson(), ctx.queueName()).take();     // tenant-c: 1 waiting, 1 active
        addTo(q, "tenant-a", 3);
        addTo(q, "tenant-b", 1);
        addTo(q, "tenant-d", 1);
        addTo(q, "tenant-e", 1);
        q.setGroupConcurrency("tenant-a", 1);
        q.setGroupRateLimit("tenant-a", RateLimit.of(5, Duration.ofSeconds(10)).burst(1));
        q.setGroupMaxSize("tenant-a", 100);
        q.setGroupWeight("tenant-a", 3);
        q.pauseGroup("tenant-b");
        try (Dashboard d = dashboard(ctx)) {
            Reply first = get(d, base(ctx) + "/groups?limit=2");
            assertThat(first.status()).as(first.body()).isEqualTo(200);
            JsonNode page = first.json();
            assertThat(fields(page)).containsExactly("after", "next", "groups");
            assertThat(page.get("after").isNull()).isTrue();
            assertThat(names(page)).containsExactly("tenant-a", "tenant-b");
            assertThat(page.get("next").asText()).isEqualTo("tenant-b");
            JsonNode a = page.get("groups").get(0);
            assertThat(fields(a)).isEqualTo(GROUP_FIELDS);
            assertThat(a.toString()).isEqualTo(compact("""
                    {"name": "tenant-a", "waiting": 3, "active": 0, "paused": false, "concurrency": 1,
                     "rateLimit": {"max": 5, "per": 10000, "burst": 1}, "maxSize": 100, "weight": 3}"""));
            assertThat(page.get("groups").get(1).toString()).isEqualTo(compact("""
                    {"name": "tenant-b", "waiting": 1, "active": 0, "paused": true, "concurrency": null,
                     "rateLimit": null, "maxSize": null, "weight": 1}"""));

            JsonNode second = get(d, base(ctx) + "/groups?limit=2&after=tenant-b").json();
            assertThat(second.get("after").asText()).isEqualTo("tenant-b");
            assertThat(names(second)).containsExactly("tenant-c", "tenant-d");
            JsonNode c = second.get("groups").get(0);
            assertThat(c.get("waiting").asLong()).isEqualTo(1);
            assertThat(c.get("active").asLong()).isEqualTo(1);

            JsonNode last = get(d, base(ctx) + "/groups?limit=2&after=tenant-d").json();
            assertThat(names(last)).containsExactly("tenant-e");
            assertThat(last.get("next").isNull()).isTrue();
            // A full last page has no next page either: the server asks for one more than it sends.
            assertThat(get(d, base(ctx) + "/groups?limit=1&after=tenant-d").json().get("next").isNull()).isTrue();
            assertThat(names(get(d, base(ctx) + "/groups").json())).hasSize(5);
        }
    }

    @Test
    void aQueueWithoutGroupsHasAnEmptyPage(BullpenTestContext ctx) {
        queue(ctx).add("plain", new Order("1"));
        try (Dashboard d = dashboard(ctx)) {
            assertThat(get(d, base(ctx) + "/groups").body()).isEqualTo("{\"after\":null,\"next\":null,\"groups\":[]}");
        }
    }

    @Test
    void groupNamesWithSlashesAndMarkupTravelEncodedAndComeBackEscaped(BullpenTestContext ctx) {
        Queue<Order> q = queue(ctx);
        String odd = "acme/eu west+1 <img src=x onerror=alert(1)>";
        addTo(q, odd, 1);
        try (Dashboard d = dashboard(ctx)) {
            Reply page = get(d, base(ctx) + "/groups");
            assertThat(page.body()).contains("\\u003Cimg").doesNotContain("<img");
            assertThat(names(page.json())).containsExactly(odd);
            String encoded = java.net.URLEncoder.encode(odd, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
            assertThat(post(d, base(ctx) + "/groups/" + encoded + "/pause").body()).isEqualTo("{\"ok\":true}");
            assertThat(q.getGroup(odd).map(GroupInfo::paused)).contains(true);
        }
    }

    @Test
    void pauseAndResumeAGroupWithTheToken(BullpenTestContext ctx) {
        Queue<Order> q = queue(ctx);
        addTo(q, "tenant-a", 2);
        try (Dashboard d = dashboard(ctx)) {
            assertError(post(d, base(ctx) + "/groups/tenant-a/pause", "not-the-token"), 401, "X-Bullpen-Token");
            assertThat(q.getGroup("tenant-a").orElseThrow().paused()).isFalse();

            Reply paused = post(d, base(ctx) + "/groups/tenant-a/pause");
            assertThat(paused.status()).as(paused.body()).isEqualTo(200);
            assertThat(paused.body()).isEqualTo("{\"ok\":true}");
            assertThat(q.getGroup("tenant-a").orElseThrow().paused()).isTrue();
            assertThat(get(d, base(ctx) + "/groups").json().get("groups").get(0).get("paused").asBoolean()).isTrue();

            assertThat(post(d, base(ctx) + "/groups/tenant-a/resume").body()).isEqualTo("{\"ok\":true}");
            assertThat(q.getGroup("tenant-a").orElseThrow().paused()).isFalse();
        }
        ctx.assertInvariant(ctx.queueName());
    }

    @Test
    void pausingAGroupTheQueueDoesNotHaveIs404AndCreatesNothing(BullpenTestContext ctx) {
        Queue<Order> q = queue(ctx);
        addTo(q, "tenant-a", 1);
        try (Dashboard d = dashboard(ctx)) {
            assertError(post(d, base(ctx) + "/groups/tenant-x/pause"), 404,
                    "group \"tenant-x\" not found in queue \"" + ctx.queueName() + "\"");
            assertThat(q.getGroup("tenant-x")).isEmpty();
            assertThat(q.getGroups(null, 10)).extracting(GroupInfo::name).containsExactly("tenant-a");
        }
    }

    // ---- Without flow control in queue-core: input checks, unknown queues, the token.

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "GET  | /groups?after=                 | group \"\" must be 1-128 characters long but has 0",
            "GET  | /groups?after=a%01b            | must not contain control characters",
            "GET  | /groups?limit=0                | limit must be >= 1 but was 0",
            "GET  | /groups?limit=101              | a page holds at most 100 groups but limit was 101",
            "GET  | /groups?limit=ten              | limit must be a whole number but was \"ten\"",
            "POST | /groups/a%01b/pause            | must not contain control characters",
            "POST | /groups/a%0Ab/resume           | must not contain control characters",
    })
    void badGroupNamesAndPageSizesAre400WithTheMessage(String method, String path, String message,
                                                        BullpenTestContext ctx) {
        queue(ctx).add("a", new Order("1"));
        try (Dashboard d = dashboard(ctx)) {
            Reply r = method.equals("GET") ? get(d, base(ctx) + path) : post(d, base(ctx) + path);
            assertError(r, 400, message);
        }
    }

    @Test
    void aGroupNameOver128CharactersIs400(BullpenTestContext ctx) {
        queue(ctx).add("a", new Order("1"));
        try (Dashboard d = dashboard(ctx)) {
            assertError(post(d, base(ctx) + "/groups/" + "g".repeat(129) + "/pause"), 400,
                    "must be 1-128 characters long but has 129");
            assertError(get(d, base(ctx) + "/groups?after=" + "g".repeat(129)), 400,
                    "must be 1-128 characters long but has 129");
        }
    }

    @Test
    void anUnknownQueueIs404(BullpenTestContext ctx) {
        queue(ctx).add("a", new Order("1"));
        try (Dashboard d = dashboard(ctx)) {
            String missing = "queue \"no-such-queue\" not found";
            assertError(get(d, "/api/queues/no-such-queue/limits"), 404, missing);
            assertError(get(d, "/api/queues/no-such-queue/groups"), 404, missing);
            assertError(post(d, "/api/queues/no-such-queue/groups/tenant-a/pause"), 404, missing);
            assertError(post(d, "/api/queues/no-such-queue/groups/tenant-a/resume"), 404, missing);
        }
    }

    @Test
    void groupActionsAreOnlyPostAndGroupReadsOnlyGet(BullpenTestContext ctx) {
        queue(ctx).add("a", new Order("1"));
        try (Dashboard d = dashboard(ctx)) {
            Reply getAction = get(d, base(ctx) + "/groups/tenant-a/pause");
            assertError(getAction, 405, "method GET is not allowed");
            assertThat(getAction.header("Allow")).isEqualTo("POST");
            assertError(post(d, base(ctx) + "/groups"), 405, "method POST is not allowed");
            assertError(post(d, base(ctx) + "/limits"), 405, "method POST is not allowed");
            assertError(post(d, "/api/limits"), 405, "method POST is not allowed");
        }
    }

    private static List<String> names(JsonNode page) {
        List<String> names = new ArrayList<>();
        page.get("groups").forEach(g -> names.add(g.get("name").asText()));
        return names;
    }
}
