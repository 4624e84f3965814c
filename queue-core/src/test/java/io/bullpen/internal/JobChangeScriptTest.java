package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.LOCK_MS;
import static io.bullpen.internal.ScriptFixture.NOW;
import static io.bullpen.internal.ScriptFixture.fetch;
import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.bullpen.JobNotFoundException;
import io.bullpen.JobState;
import io.bullpen.JobStateException;
import io.bullpen.internal.ScriptTypes.FetchResult;
import io.bullpen.internal.ScriptTypes.NewJob;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The contracts of the job-change scripts: changeDelay, changePriority, updateData. */
@BullpenTest
class JobChangeScriptTest {
    private static final double P = 4294967296.0;
    private ScriptFixture f;
    private JobChangeScripts changes;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
        changes = new JobChangeScripts(f.redisson, f.k);
    }

    /** One job in each state the refusals name: waiting, prioritized, delayed, active, completed, failed. */
    private void oneJobInEachState() {
        f.job("w").waiting("w");
        f.job("p", "priority", "3").zadd(f.k.prioritized(), "p", 3 * P + 1);
        f.job("d", "delay", "5000").delayed("d", NOW + 5000);
        f.job("a", "ats", "1").active("a", "w:1", LOCK_MS, NOW + LOCK_MS);
        f.job("c", "finishedOn", "1").zadd(f.k.completed(), "c", NOW);
        f.job("x", "finishedOn", "1").zadd(f.k.failed(), "x", NOW);
    }

    /** The call is refused with {@code type}, naming {@code state}, and nothing is written. */
    private void refused(ThrowingCallable call, Class<? extends Exception> type, String state) {
        QueueSnapshot before = f.snap();
        var thrown = assertThatThrownBy(call).isInstanceOf(type);
        if (state != null) {
            thrown.hasMessageContaining("(it is " + state + ")");
        }
        QueueSnapshot after = f.snap();
        assertThat(after.keys()).isEqualTo(before.keys());
        for (String id : before.jobIds()) {
            assertThat(after.job(id)).isEqualTo(before.job(id));
        }
        assertThat(after.waiting()).isEqualTo(before.waiting());
        assertThat(after.prioritized()).isEqualTo(before.prioritized());
        assertThat(after.delayed()).isEqualTo(before.delayed());
        assertThat(after.leases()).isEqualTo(before.leases());
        assertThat(after.meta()).isEqualTo(before.meta());
        assertThat(after.events()).isEqualTo(before.events());
    }

    private List<String> take(int count) {
        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(count)));
        return r.jobs().stream().map(RawJob::id).toList();
    }

    // --- changeDelay ---

    @Test
    void changeDelayGivesADelayedJobANewDueTimeAndWakesWorkersWhenItIsTheEarliest() {
        f.job("d", "delay", "60000").delayed("d", NOW + 60_000);
        f.job("e", "delay", "30000").delayed("e", NOW + 30_000);

        assertThat(join(changes.changeDelay(NOW, "d", 1000))).isEqualTo(JobState.DELAYED);

        QueueSnapshot s = f.snap();
        assertThat(s.delayed().get("d")).isEqualTo((NOW + 1000) * 4096.0 + 1);
        assertThat(s.job("d")).containsEntry("delay", "1000");
        assertThat(s.zset("marker")).containsOnly(entry("0", (double) (NOW + 1000)));
        assertThat(s.eventNames()).containsExactly("delayChanged");
        assertThat(s.events().get(0)).contains(entry("jobId", "d"), entry("delay", "1000"),
                entry("due", Long.toString(NOW + 1000)));
        f.assertInvariant();
    }

    @Test
    void changeDelayZeroRunsTheJobNowAsAPromoteDoes() {
        f.job("d", "delay", "60000").delayed("d", NOW + 60_000);
        f.job("p", "delay", "60000", "priority", "2").delayed("p", NOW + 60_000);

        assertThat(join(changes.changeDelay(NOW, "d", 0))).isEqualTo(JobState.WAITING);
        assertThat(join(changes.changeDelay(NOW, "p", 0))).isEqualTo(JobState.PRIORITIZED);

        QueueSnapshot s = f.snap();
        assertThat(s.delayed()).isEmpty();
        assertThat(s.waiting()).containsExactly("d");
        assertThat(s.prioritized()).containsOnlyKeys("p");
        assertThat(s.job("d")).containsEntry("delay", "0");
        assertThat(s.zset("marker")).containsOnly(entry("0", 0.0));
        assertThat(s.eventNames()).containsExactly("delayChanged", "waiting", "delayChanged", "waiting");
        assertThat(s.events().get(1)).containsEntry("prev", "delayed");
        f.assertInvariant();
    }

    @Test
    void changeDelayZeroOnAGroupedJobPutsItInItsGroupAndCountsIt() {
        join(f.scripts.addJob(NOW, List.of(new NewJob(null, "g", "{}", "", 60_000, 0, false, "acme"))));
        assertThat(f.snap().groupedWaiting()).isZero();

        join(changes.changeDelay(NOW, "1", 0));

        QueueSnapshot s = f.snap();
        assertThat(s.zset("group:acme")).containsOnlyKeys("1");
        assertThat(s.readyGroups()).containsOnlyKeys("acme");
        assertThat(s.groupedWaiting()).isEqualTo(1);
        f.assertInvariant();
        assertThat(take(5)).containsExactly("1");
        f.assertInvariant();
    }

    @Test
    void changeDelayOnAGroupedDelayedJobLeavesTheGroupAlone() {
        join(f.scripts.addJob(NOW, List.of(new NewJob(null, "g", "{}", "", 60_000, 0, false, "acme"))));

        join(changes.changeDelay(NOW, "1", 5_000));

        QueueSnapshot s = f.snap();
        assertThat(s.delayed()).containsOnlyKeys("1");
        assertThat(s.exists("group:acme")).isFalse();
        assertThat(s.groupedWaiting()).isZero();
        f.assertInvariant();
    }

    @Test
    void changeDelayZeroOnAPausedQueueQueuesTheJobWithoutWakingWorkers() {
        f.meta("paused", "1").job("d", "delay", "60000").delayed("d", NOW + 60_000);

        join(changes.changeDelay(NOW, "d", 0));

        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).containsExactly("d");
        assertThat(s.exists("marker")).isFalse();
        assertThat(take(1)).isEmpty();
    }

    @Test
    void changeDelayRefusesEveryStateButDelayedAndWritesNothing() {
        oneJobInEachState();
        for (String[] c : new String[][] {{"w", "waiting"}, {"p", "prioritized"}, {"a", "active"},
                {"c", "completed"}, {"x", "failed"}}) {
            refused(() -> join(changes.changeDelay(NOW, c[0], 10)), JobStateException.class, c[1]);
        }
        refused(() -> join(changes.changeDelay(NOW, "nope", 10)), JobNotFoundException.class, null);
    }

    // --- changePriority ---

    @Test
    void changePriorityMovesAWaitingJobToPrioritizedAndBack() {
        f.job("a").job("b").waiting("b", "a");

        assertThat(join(changes.changePriority("a", 5))).isEqualTo(JobState.PRIORITIZED);
        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).containsExactly("b");
        assertThat(s.prioritized()).containsOnly(entry("a", 5 * P + 1));
        assertThat(s.job("a")).containsEntry("priority", "5");
        assertThat(s.events().get(0)).contains(entry("event", "priorityChanged"), entry("jobId", "a"),
                entry("priority", "5"));
        f.assertInvariant();

        assertThat(join(changes.changePriority("a", 0))).isEqualTo(JobState.WAITING);
        s = f.snap();
        assertThat(s.prioritized()).isEmpty();
        // Back of the line, like an add: b runs first.
        assertThat(s.waiting()).containsExactly("a", "b");
        assertThat(s.job("a")).doesNotContainKey("priority");
        assertThat(s.eventNames()).containsExactly("priorityChanged", "priorityChanged");
        f.assertInvariant();
        assertThat(take(2)).containsExactly("b", "a");
    }

    @Test
    void changePriorityReordersPrioritizedJobs() {
        f.job("a", "priority", "1").zadd(f.k.prioritized(), "a", P + 1);
        f.job("b", "priority", "2").zadd(f.k.prioritized(), "b", 2 * P + 2);

        assertThat(join(changes.changePriority("a", 3))).isEqualTo(JobState.PRIORITIZED);

        assertThat(f.snap().job("a")).containsEntry("priority", "3");
        assertThat(take(2)).containsExactly("b", "a");
    }

    @Test
    void changePriorityResortsAGroupedJobInItsGroupWithoutTouchingTheGroupsCounts() {
        join(f.scripts.addJob(NOW, List.of(new NewJob(null, "g1", "{}", "", 0, 0, false, "acme"),
                new NewJob(null, "g2", "{}", "", 0, 0, false, "acme"))));
        QueueSnapshot before = f.snap();

        assertThat(join(changes.changePriority("1", 4))).isEqualTo(JobState.WAITING);

        QueueSnapshot s = f.snap();
        assertThat(s.zset("group:acme")).containsOnlyKeys("1", "2");
        assertThat(s.zset("group:acme").get("1")).isGreaterThan(s.zset("group:acme").get("2"));
        assertThat(s.waiting()).isEmpty();
        assertThat(s.prioritized()).isEmpty();
        assertThat(s.groupedWaiting()).isEqualTo(before.groupedWaiting()).isEqualTo(2);
        assertThat(s.readyGroups()).isEqualTo(before.readyGroups());
        assertThat(s.job("1")).containsEntry("priority", "4");
        f.assertInvariant();
        assertThat(take(1)).containsExactly("2");
        assertThat(take(1)).containsExactly("1");
        f.assertInvariant();
    }

    @Test
    void changePriorityRefusesDelayedActiveAndFinishedJobsAndWritesNothing() {
        oneJobInEachState();
        for (String[] c : new String[][] {{"d", "delayed"}, {"a", "active"}, {"c", "completed"}, {"x", "failed"}}) {
            refused(() -> join(changes.changePriority(c[0], 1)), JobStateException.class, c[1]);
        }
        refused(() -> join(changes.changePriority("nope", 1)), JobNotFoundException.class, null);
    }

    // --- updateData ---

    @Test
    void updateDataReplacesTheDataOfEveryUnfinishedJob() {
        oneJobInEachState();
        for (String id : List.of("w", "p", "d", "a")) {
            join(changes.updateData(id, "{\"v\":\"" + id + "\"}"));
        }
        QueueSnapshot s = f.snap();
        for (String id : List.of("w", "p", "d", "a")) {
            assertThat(s.job(id)).containsEntry("data", "{\"v\":\"" + id + "\"}");
        }
        assertThat(s.eventNames()).containsExactly("dataUpdated", "dataUpdated", "dataUpdated", "dataUpdated");
        // Nothing moved: the active job keeps its lock and lease.
        assertThat(s.lock("a")).isEqualTo("w:1");
        assertThat(s.waiting()).containsExactly("w");
        f.assertInvariant();
    }

    @Test
    void updateDataRefusesFinishedAndUnknownJobsAndWritesNothing() {
        oneJobInEachState();
        refused(() -> join(changes.updateData("c", "1")), JobStateException.class, "completed");
        refused(() -> join(changes.updateData("x", "1")), JobStateException.class, "failed");
        refused(() -> join(changes.updateData("nope", "1")), JobNotFoundException.class, null);
        Map<String, String> c = f.snap().job("c");
        assertThat(c).containsEntry("data", "{}");
    }
}
