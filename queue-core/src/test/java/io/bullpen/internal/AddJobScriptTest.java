package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.NOW;
import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.bullpen.internal.ScriptTypes.AddResult;
import io.bullpen.internal.ScriptTypes.NewJob;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@BullpenTest
class AddJobScriptTest {
    private ScriptFixture f;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
    }

    private static NewJob plain(String name) {
        return new NewJob(null, name, "{\"n\":1}", "", 0, 0, false);
    }

    @Test
    void standardJobsGetAutomaticIdsAndQueueFifoInWait() {
        List<AddResult> results = join(f.scripts.addJob(NOW, List.of(plain("a"), plain("b"))));

        assertThat(results).containsExactly(new AddResult("1", true), new AddResult("2", true));
        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).containsExactly("2", "1");
        assertThat(s.job("1")).containsOnly(entry("name", "a"), entry("data", "{\"n\":1}"), entry("timestamp", Long.toString(NOW)));
        assertThat(s.string("id")).isEqualTo("2");
        assertThat(s.zset("marker")).containsOnly(entry("0", 0.0));
        assertThat(s.events()).extracting(e -> e.get("event"), e -> e.get("jobId"), e -> e.get("state"))
                .containsExactly(org.assertj.core.groups.Tuple.tuple("added", "1", "waiting"),
                        org.assertj.core.groups.Tuple.tuple("added", "2", "waiting"));
        f.assertInvariant();
    }

    @Test
    void anAwaitedJobStoresHowLongItsResultIsKeptAndKeepsItsLifo() {
        join(f.scripts.addJob(NOW, List.of(plain("a"))));
        join(f.scripts.addJob(NOW, List.of(
                new NewJob(null, "first", "null", "", 0, 0, true, null, null, 0, null, 3_600_000),
                new NewJob(null, "last", "null", "", 0, 0, false, null, null, 0, null, 7_200_000))));

        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).containsExactly("3", "1", "2");
        assertThat(s.job("2")).containsEntry("awaited", "3600000");
        assertThat(s.job("3")).containsEntry("awaited", "7200000");
        assertThat(s.job("1")).doesNotContainKey("awaited");
        f.assertInvariant();
    }

    @Test
    void optionsDelayAndPriorityAreStoredOnlyWhenSet() {
        join(f.scripts.addJob(NOW, List.of(new NewJob(null, "x", "null", "{\"attempts\":3}", 500, 7, false))));

        assertThat(f.snap().job("1")).containsOnly(entry("name", "x"), entry("data", "null"),
                entry("timestamp", Long.toString(NOW)), entry("opts", "{\"attempts\":3}"), entry("delay", "500"),
                entry("priority", "7"));
    }

    @Test
    void delayedJobIsScoredByDueTimeAndWakesWorkersWithItsDueTime() {
        join(f.scripts.addJob(NOW, List.of(new NewJob(null, "later", "{}", "", 500, 0, false))));

        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).isEmpty();
        assertThat(s.delayed()).containsOnly(entry("1", (NOW + 500) * 4096.0 + 1));
        assertThat(s.zset("marker")).containsOnly(entry("0", (double) (NOW + 500)));
        assertThat(s.events().get(0)).contains(entry("event", "added"), entry("state", "delayed"), entry("delay", "500"));
        f.assertInvariant();
    }

    @Test
    void aLaterDelayedJobDoesNotMoveTheMarkerLater() {
        join(f.scripts.addJob(NOW, List.of(new NewJob(null, "soon", "{}", "", 100, 0, false))));
        join(f.scripts.addJob(NOW, List.of(new NewJob(null, "later", "{}", "", 900, 0, false))));

        assertThat(f.snap().zset("marker")).containsOnly(entry("0", (double) (NOW + 100)));
    }

    @Test
    void delayedJobsDueInTheSameMillisecondKeepInsertionOrder() {
        join(f.scripts.addJob(NOW, List.of(new NewJob(null, "a", "{}", "", 100, 0, false),
                new NewJob(null, "b", "{}", "", 100, 0, false), new NewJob(null, "c", "{}", "", 100, 0, false))));

        assertThat(f.snap().delayed().keySet()).containsExactly("1", "2", "3");
    }

    @Test
    void prioritizedJobsAreScoredByPriorityThenSequence() {
        join(f.scripts.addJob(NOW, List.of(new NewJob(null, "low", "{}", "", 0, 5, false),
                new NewJob(null, "high", "{}", "", 0, 1, false), new NewJob(null, "low2", "{}", "", 0, 5, false))));

        QueueSnapshot s = f.snap();
        assertThat(s.prioritized()).containsExactly(entry("2", 1 * 4294967296.0 + 2), entry("1", 5 * 4294967296.0 + 1),
                entry("3", 5 * 4294967296.0 + 3));
        assertThat(s.meta()).containsEntry("seq", "3");
        assertThat(s.events()).extracting(e -> e.get("state")).containsOnly("prioritized");
        f.assertInvariant();
    }

    @Test
    void lifoJobGoesToTheEndWorkersTakeFrom() {
        join(f.scripts.addJob(NOW, List.of(plain("a"), new NewJob(null, "urgent", "{}", "", 0, 0, true), plain("c"))));

        assertThat(f.snap().waiting()).containsExactly("3", "1", "2");
    }

    @Test
    void duplicateCustomIdAddsNothingAndReturnsTheExistingId() {
        join(f.scripts.addJob(NOW, List.of(new NewJob("order-1", "first", "{\"v\":1}", "", 0, 0, false))));
        QueueSnapshot before = f.snap();

        List<AddResult> again = join(f.scripts.addJob(NOW + 5,
                List.of(new NewJob("order-1", "second", "{\"v\":2}", "", 300, 0, false))));

        assertThat(again).containsExactly(new AddResult("order-1", false));
        QueueSnapshot after = f.snap();
        assertThat(after.job("order-1")).isEqualTo(before.job("order-1"));
        assertThat(after.waiting()).containsExactly("order-1");
        assertThat(after.delayed()).isEmpty();
        assertThat(after.exists("id")).isFalse();
        assertThat(after.eventNames()).containsExactly("added", "duplicated");
        assertThat(after.events().get(1)).contains(entry("jobId", "order-1"), entry("name", "second"));
    }

    @Test
    void pausedQueueStillAcceptsJobsButDoesNotWakeWorkers() {
        f.meta("paused", "1");

        join(f.scripts.addJob(NOW, List.of(plain("a"), new NewJob(null, "d", "{}", "", 50, 0, false))));

        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).containsExactly("1");
        assertThat(s.delayed()).containsKey("2");
        assertThat(s.exists("marker")).isFalse();
    }

    @Test
    void bulkAddIsOneAtomicCallPreservingOrder() {
        List<AddResult> results = join(f.scripts.addJob(NOW, List.of(plain("a"), new NewJob("custom", "b", "{}", "", 0, 0, false),
                new NewJob(null, "c", "{}", "", 0, 3, false))));

        assertThat(results).extracting(AddResult::id).containsExactly("1", "custom", "2");
        Map<String, String> counts = Map.of("wait", "2", "prioritized", "1");
        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).hasSize(Integer.parseInt(counts.get("wait")));
        assertThat(s.prioritized()).hasSize(Integer.parseInt(counts.get("prioritized")));
        f.assertInvariant();
    }

    @Test
    void eventsStreamIsCappedApproximatelyAtTheQueuesStoredCap() {
        join(f.scripts.setQueueSettings(1000));
        for (int i = 0; i < 30; i++) {
            List<NewJob> batch = new java.util.ArrayList<>();
            for (int j = 0; j < 100; j++) {
                batch.add(plain("n"));
            }
            join(f.scripts.addJob(NOW, batch));
        }
        // MAXLEN ~ 1000 trims whole macro nodes: the stream stays near the cap, far below 3000.
        assertThat(f.snap().events().size()).isBetween(1000, 1200);
    }
}
