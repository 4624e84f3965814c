package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Queue.search as a user calls it: filters, cursors and limits over real Redis. */
@BullpenTest
class QueueSearchTest {
    private static final Instant T0 = Instant.parse("2030-01-01T10:00:00Z");

    private BullpenTestContext ctx;
    private SettableClock clock;
    private Queue<Map<String, Object>> queue;
    private JobDriver driver;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.ctx = ctx;
        this.clock = ctx.clock();
        clock.set(T0);
        this.queue = Queue.builder(ctx.redisson(), ctx.queueName(), new TypeReference<Map<String, Object>>() {
        }).clock(clock).build();
        this.driver = new JobDriver(ctx.redisson(), queue.name());
    }

    private static Map<String, Object> order(String id) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("order", Map.of("id", id));
        return data;
    }

    private static Map<String, Object> with(String key, Object value) {
        Map<String, Object> data = new HashMap<>();
        data.put(key, value);
        return data;
    }

    private static List<String> ids(SearchPage<?> page) {
        return page.jobs().stream().map(Job::id).toList();
    }

    @Test
    void findsJobsByNameAndByTheValueAtADataPath() {
        Job<Map<String, Object>> wanted = queue.add("charge", order("o-17"));
        queue.add("refund", order("o-17"));
        queue.add("charge", order("o-18"));

        SearchPage<Map<String, Object>> page = queue.search(JobSearch.state(JobState.WAITING).name("charge")
                .data("/order/id", "o-17").limit(50));

        assertThat(ids(page)).containsExactly(wanted.id());
        assertThat(page.jobs().get(0).data()).isEqualTo(order("o-17"));
        assertThat(page.cursor()).isEmpty();
        assertThat(page.scanned()).isEqualTo(3);
        assertThat(ids(queue.search(JobSearch.state(JobState.WAITING).name("charge")))).hasSize(2);
    }

    @Test
    void aDataFilterComparesJsonValuesWithTheirTypes() {
        String number = queue.add("n", with("n", 17)).id();
        String string = queue.add("n", with("n", "17")).id();
        String explicitNull = queue.add("n", with("n", null)).id();
        String decimal = queue.add("n", with("n", 17.0)).id();
        queue.add("n", with("other", 17));
        String nested = queue.add("n", with("n", List.of(1, Map.of("a", true)))).id();

        JobSearch waiting = JobSearch.state(JobState.WAITING);
        assertThat(ids(queue.search(waiting.data("/n", 17)))).containsExactlyInAnyOrder(number, decimal);
        assertThat(ids(queue.search(waiting.data("/n", 17L)))).containsExactlyInAnyOrder(number, decimal);
        assertThat(ids(queue.search(waiting.data("/n", "17")))).containsExactly(string);
        // A missing node never matches, not even null.
        assertThat(ids(queue.search(waiting.data("/n", null)))).containsExactly(explicitNull);
        assertThat(ids(queue.search(waiting.data("/n", List.of(1, Map.of("a", true)))))).containsExactly(nested);
        assertThat(ids(queue.search(waiting.data("/n/1/a", true)))).containsExactly(nested);
        assertThat(ids(queue.search(waiting.data("/n", 18)))).isEmpty();
    }

    @Test
    void aPointerEscapesSlashAndTildeInNames() {
        String id = queue.add("n", with("a/b~c", "x")).id();
        assertThat(ids(queue.search(JobSearch.state(JobState.WAITING).data("/a~1b~0c", "x")))).containsExactly(id);
    }

    @Test
    void findsFailedJobsByTextInTheirFailedReason() {
        queue.add("charge", order("o-1"));
        queue.add("charge", order("o-2"));
        queue.add("charge", order("o-3"));
        RawJob first = driver.take();
        driver.fail(first, "card declined: insufficient funds", 1, 0);
        RawJob second = driver.take();
        driver.fail(second, "gateway timeout", 1, 0);

        JobSearch failed = JobSearch.state(JobState.FAILED);
        assertThat(ids(queue.search(failed.failedReason("declined")))).containsExactly(first.id());
        assertThat(ids(queue.search(failed.failedReason("timeout").name("charge")))).containsExactly(second.id());
        assertThat(ids(queue.search(failed.failedReason("Declined")))).isEmpty();
        // Waiting jobs have no failed reason.
        assertThat(ids(queue.search(JobSearch.state(JobState.WAITING).failedReason("declined")))).isEmpty();
    }

    @Test
    void aTimeRangeOnDelayedJobsIsOnTheirDueTime() {
        List<String> byMinute = new ArrayList<>();
        for (int m = 1; m <= 10; m++) {
            byMinute.add(queue.add("d", order("o-" + m), JobOptions.builder().delay(Duration.ofMinutes(m)).build()).id());
        }
        SearchPage<Map<String, Object>> page = queue.search(JobSearch.state(JobState.DELAYED)
                .between(T0.plus(Duration.ofMinutes(3)), T0.plus(Duration.ofMinutes(6))));

        assertThat(ids(page)).containsExactlyElementsOf(byMinute.subList(2, 5));
        assertThat(page.cursor()).isEmpty();
        // Only the range is read: the start is found by score, and the scan stops past the end.
        assertThat(page.scanned()).isEqualTo(3);
    }

    @Test
    void aTimeRangeOnWaitingJobsIsOnWhenTheyWereAdded() {
        List<String> ids = new ArrayList<>();
        for (int m = 0; m < 5; m++) {
            clock.set(T0.plus(Duration.ofMinutes(m)));
            ids.add(queue.add("w", order("o-" + m)).id());
        }
        SearchPage<Map<String, Object>> page = queue.search(JobSearch.state(JobState.WAITING)
                .between(T0.plus(Duration.ofMinutes(1)), T0.plus(Duration.ofMinutes(3))));

        assertThat(ids(page)).containsExactlyInAnyOrder(ids.get(1), ids.get(2));
    }

    @Test
    void aTimeRangeOnCompletedJobsIsOnWhenTheyFinished() {
        for (int i = 0; i < 3; i++) {
            queue.add("c", order("o-" + i));
            driver.complete(driver.take(), "1");
        }
        List<Job<Map<String, Object>>> done = queue.getJobs(JobState.COMPLETED, 0, -1);
        long newest = done.get(0).finishedOn().orElseThrow().toEpochMilli();
        long oldest = done.get(2).finishedOn().orElseThrow().toEpochMilli();
        JobSearch completed = JobSearch.state(JobState.COMPLETED);

        SearchPage<Map<String, Object>> all = queue.search(completed.between(Instant.ofEpochMilli(oldest),
                Instant.ofEpochMilli(newest + 1)));
        assertThat(ids(all)).containsExactlyElementsOf(done.stream().map(Job::id).toList());

        SearchPage<Map<String, Object>> later = queue.search(completed.between(Instant.ofEpochMilli(newest + 1),
                Instant.ofEpochMilli(newest + 60_000)));
        assertThat(later.jobs()).isEmpty();
        assertThat(later.scanned()).isZero();
        assertThat(later.cursor()).isEmpty();

        SearchPage<Map<String, Object>> earlier = queue.search(completed.between(Instant.ofEpochMilli(oldest - 60_000),
                Instant.ofEpochMilli(oldest)));
        assertThat(earlier.jobs()).isEmpty();
        assertThat(earlier.cursor()).isEmpty();
    }

    enum Layout {
        WAITING_WITH_GROUPS(JobState.WAITING, i -> i % 4 == 0 ? JobOptions.builder().group("g" + (i % 3)).build()
                : JobOptions.defaults()),
        PRIORITIZED(JobState.PRIORITIZED, i -> JobOptions.builder().priority(1 + i % 5).build()),
        DELAYED(JobState.DELAYED, i -> JobOptions.builder().delay(Duration.ofSeconds(1 + i % 50)).build());

        final JobState state;
        final IntFunction<JobOptions> options;

        Layout(JobState state, IntFunction<JobOptions> options) {
            this.state = state;
            this.options = options;
        }
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void continuingWithTheCursorReturnsEveryMatchOnceInTheStatesOrder(Layout layout) {
        List<JobSpec<Map<String, Object>>> specs = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            specs.add(JobSpec.of(i % 3 == 0 ? "match" : "other", with("i", i), layout.options.apply(i)));
        }
        queue.addBulk(specs);
        List<String> expected = queue.getJobs(layout.state, 0, -1).stream()
                .filter(j -> j.name().equals("match")).map(Job::id).toList();
        assertThat(expected).hasSize(200);

        JobSearch search = JobSearch.state(layout.state).name("match").limit(7).scanLimit(50);
        List<String> found = new ArrayList<>();
        SearchPage<Map<String, Object>> page = queue.search(search);
        int pages = 1;
        found.addAll(ids(page));
        while (page.cursor().isPresent()) {
            assertThat(page.jobs().size()).isLessThanOrEqualTo(7);
            assertThat(page.scanned()).isLessThanOrEqualTo(50);
            page = queue.search(search.cursor(page.cursor().get()));
            found.addAll(ids(page));
            pages++;
        }
        assertThat(found).containsExactlyElementsOf(expected);
        assertThat(pages).isGreaterThanOrEqualTo(200 / 7);
    }

    @Test
    void theCursorOfTheCompletedStateGoesNewestFirst() {
        List<String> finished = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            queue.add("c", with("i", i));
            RawJob job = driver.take();
            driver.complete(job, "1");
            finished.add(0, job.id());
        }
        JobSearch search = JobSearch.state(JobState.COMPLETED).limit(4);
        List<String> found = new ArrayList<>();
        SearchPage<Map<String, Object>> page = queue.search(search);
        found.addAll(ids(page));
        while (page.cursor().isPresent()) {
            page = queue.search(search.cursor(page.cursor().get()));
            found.addAll(ids(page));
        }
        assertThat(found).containsExactlyElementsOf(queue.getJobs(JobState.COMPLETED, 0, -1).stream().map(Job::id).toList());
        assertThat(found).containsExactlyInAnyOrderElementsOf(finished);
    }

    @Test
    void aPageStopsAtItsScanLimitWithACursorEvenWithoutAMatch() {
        List<JobSpec<Map<String, Object>>> specs = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            specs.add(JobSpec.of("other", with("i", i), JobOptions.defaults()));
        }
        queue.addBulk(specs);
        JobSearch search = JobSearch.state(JobState.WAITING).name("missing").scanLimit(30);

        SearchPage<Map<String, Object>> page = queue.search(search);
        List<Long> scanned = new ArrayList<>();
        scanned.add(page.scanned());
        while (page.cursor().isPresent()) {
            assertThat(page.jobs()).isEmpty();
            page = queue.search(search.cursor(page.cursor().get()));
            scanned.add(page.scanned());
        }
        assertThat(scanned).containsExactly(30L, 30L, 30L, 10L);
    }

    @Test
    void aPageStopsAtItsLimitOfMatches() {
        for (int i = 0; i < 10; i++) {
            queue.add("m", with("i", i));
        }
        SearchPage<Map<String, Object>> page = queue.search(JobSearch.state(JobState.WAITING).limit(3));
        assertThat(page.jobs()).hasSize(3);
        assertThat(page.scanned()).isEqualTo(3);
        assertThat(page.cursor()).isPresent();
    }

    @Test
    void badInputThrowsNamingTheValue() {
        JobSearch waiting = JobSearch.state(JobState.WAITING);
        assertThatThrownBy(() -> waiting.data("order/id", "o-1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"order/id\"");
        assertThatThrownBy(() -> JobSearch.state(JobState.UNKNOWN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("UNKNOWN");
        assertThatThrownBy(() -> waiting.limit(0)).hasMessageContaining("but was 0");
        assertThatThrownBy(() -> waiting.limit(1001)).hasMessageContaining("but was 1001");
        assertThatThrownBy(() -> waiting.scanLimit(-5)).hasMessageContaining("but was -5");
        assertThatThrownBy(() -> waiting.failedReason("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> waiting.between(T0, T0.minusMillis(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(T0.toString());
        assertThatThrownBy(() -> waiting.cursor("not a cursor!"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a cursor!");

        for (int i = 0; i < 3; i++) {
            queue.add("m", with("i", i));
        }
        String cursor = queue.search(waiting.limit(1)).cursor().orElseThrow();
        assertThatThrownBy(() -> JobSearch.state(JobState.FAILED).cursor(cursor))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("waiting");
        assertThat(queue.search(waiting.cursor(cursor)).jobs()).hasSize(2);
    }
}
