package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.NOW;
import static io.bullpen.internal.ScriptFixture.fetch;
import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.internal.ScriptTypes.FetchResult;
import io.bullpen.internal.ScriptTypes.SchedulerUpdate;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** upsertJobScheduler, advanceJobScheduler and the scheduler step of moveToActive. */
@BullpenTest
class SchedulerScriptsTest {
    private static final String EVERY_MINUTE = "{\"every\":60000}";
    private ScriptFixture f;
    private SchedulerScripts scripts;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
        scripts = new SchedulerScripts(f.redisson, f.k);
    }

    private void upsert(long firstDue, long following) {
        join(scripts.upsertJobScheduler(NOW, "s", new SchedulerScripts.Definition("tick", "{}", "", 0, EVERY_MINUTE,
                "RUN_ONCE_NOW", -1, -1), firstDue, following));
    }

    private static String iteration(long due) {
        return "repeat-s-" + due;
    }

    @Test
    void upsertCreatesOnePendingIterationWithADeterministicId() {
        upsert(NOW + 60_000, NOW + 120_000);

        QueueSnapshot s = f.snap();
        assertThat(s.delayed()).containsOnlyKeys(iteration(NOW + 60_000));
        assertThat(s.job(iteration(NOW + 60_000))).containsEntry("schedulerId", "s").containsEntry("name", "tick")
                .containsEntry("delay", "60000");
        assertThat(s.hash("scheduler:s")).containsEntry("jobId", iteration(NOW + 60_000))
                .containsEntry("next", Long.toString(NOW + 60_000)).containsEntry("following", Long.toString(NOW + 120_000))
                .containsEntry("iterations", "1");
        assertThat(s.zset("schedulers")).containsEntry("s", (double) (NOW + 60_000));
        f.assertInvariant();
    }

    @Test
    void theUpsertsTraceHeadersGoToTheSchedulerAndEveryIterationAndAnUntracedUpsertStoresNone() {
        String tc = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        var tick = new SchedulerScripts.Definition("tick", "{}", "", 0, EVERY_MINUTE, "RUN_ONCE_NOW", -1, -1);
        join(scripts.upsertJobScheduler(NOW, "s", tick, NOW, NOW + 60_000, tc));
        join(scripts.upsertJobScheduler(NOW, "s", tick, NOW, NOW + 60_000, "00-other")); // same definition: unchanged
        assertThat(f.snap().hash("scheduler:s")).containsEntry(SchedulerFields.TRACE_CONTEXT, tc);
        assertThat(f.snap().job(iteration(NOW))).containsEntry(JobFields.TRACE_CONTEXT, tc);

        // The worker's take makes the next iteration from the scheduler: it carries them too.
        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(1)));
        assertThat(r.jobs().get(0).hash()).containsEntry(JobFields.TRACE_CONTEXT, tc);
        assertThat(f.snap().job(iteration(NOW + 60_000))).containsEntry(JobFields.TRACE_CONTEXT, tc);

        // A new definition upserted without headers drops them; its iterations carry none.
        join(scripts.upsertJobScheduler(NOW, "s", new SchedulerScripts.Definition("tock", "{}", "", 0, EVERY_MINUTE,
                "RUN_ONCE_NOW", -1, -1), NOW + 120_000, NOW + 180_000));
        assertThat(f.snap().hash("scheduler:s")).doesNotContainKey(SchedulerFields.TRACE_CONTEXT);
        assertThat(f.snap().job(iteration(NOW + 120_000))).doesNotContainKey(JobFields.TRACE_CONTEXT);
        f.assertInvariant();
    }

    @Test
    void theOwnersMarkIsWrittenWithTheDefinitionAnUpsertWithoutOneClearsItAndAnOwnersRemovalTakesOnlyItsOwn() {
        var tick = new SchedulerScripts.Definition("tick", "{}", "", 0, EVERY_MINUTE, "RUN_ONCE_NOW", -1, -1);
        join(scripts.upsertJobScheduler(NOW, "s", tick, NOW + 60_000, NOW + 120_000, null, "app"));
        assertThat(f.snap().hash("scheduler:s")).containsEntry(SchedulerFields.OWNER, "app");

        // The same definition without an owner changes nothing but the mark.
        List<Object> same = join(scripts.upsertJobScheduler(NOW, "s", tick, NOW + 60_000, NOW + 120_000, null, null));
        assertThat(same.get(0)).isEqualTo(0L);
        assertThat(f.snap().hash("scheduler:s")).doesNotContainKey(SchedulerFields.OWNER);
        assertThat(join(scripts.removeJobScheduler("s", "app"))).as("no longer app's").isFalse();
        assertThat(f.snap().zset("schedulers")).containsKey("s");

        // The same definition with an owner marks it again; only that owner's removal takes it.
        join(scripts.upsertJobScheduler(NOW, "s", tick, NOW + 60_000, NOW + 120_000, null, "app"));
        assertThat(f.snap().hash("scheduler:s")).containsEntry(SchedulerFields.OWNER, "app");
        assertThat(join(scripts.removeJobScheduler("s", "other"))).isFalse();
        assertThat(join(scripts.removeJobScheduler("s", "app"))).isTrue();
        QueueSnapshot s = f.snap();
        assertThat(s.zset("schedulers")).isEmpty();
        assertThat(s.delayed()).isEmpty();
        assertThat(s.hash("scheduler:s")).isEmpty();
        f.assertInvariant();
    }

    @Test
    void takingThePendingIterationCreatesTheNextOneInTheSameCall() {
        upsert(NOW, NOW + 60_000);

        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(1)));

        assertThat(r.jobs()).extracting(ScriptTypes.RawJob::id).containsExactly(iteration(NOW));
        QueueSnapshot s = f.snap();
        assertThat(s.delayed()).containsOnlyKeys(iteration(NOW + 60_000));
        assertThat(s.hash("scheduler:s")).containsEntry("jobId", iteration(NOW + 60_000)).containsEntry("iterations", "2")
                .doesNotContainKey("following");
        // The worker is asked to precompute the run after the new pending iteration.
        assertThat(r.schedulerUpdates()).containsExactly(
                new SchedulerUpdate("s", iteration(NOW + 60_000), NOW + 60_000, EVERY_MINUTE, NOW + 60_000));
        f.assertInvariant();
    }

    @Test
    void withoutAFutureFollowingRunTheSchedulerAwaitsRepairAndAdvanceAddsItOnce() {
        upsert(NOW - 300_000, NOW - 240_000); // overdue: runs were missed

        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(1)));

        assertThat(r.jobs()).hasSize(1);
        assertThat(r.schedulerUpdates()).containsExactly(new SchedulerUpdate("s", "", 0, EVERY_MINUTE, NOW - 300_000));
        assertThat(f.snap().zset("schedulers")).containsEntry("s", 0.0);
        assertThat(f.snap().hash("scheduler:s")).containsEntry("jobId", "");

        assertThat(join(scripts.advanceJobScheduler(NOW, "s", "", NOW + 60_000, NOW + 120_000))).isEqualTo(2);
        assertThat(join(scripts.advanceJobScheduler(NOW, "s", "", NOW + 60_000, NOW + 120_000))).isZero();
        QueueSnapshot s = f.snap();
        assertThat(s.delayed()).containsOnlyKeys(iteration(NOW + 60_000));
        assertThat(s.zset("schedulers")).containsEntry("s", (double) (NOW + 60_000));
        f.assertInvariant();
    }

    @Test
    void advanceStoresFollowingOnlyForTheIterationItSaw() {
        upsert(NOW + 60_000, 0);

        assertThat(join(scripts.advanceJobScheduler(NOW, "s", "repeat-s-1", 0, NOW + 120_000))).isZero();
        assertThat(join(scripts.advanceJobScheduler(NOW, "s", iteration(NOW + 60_000), 0, NOW + 120_000))).isEqualTo(1);
        assertThat(f.snap().hash("scheduler:s")).containsEntry("following", Long.toString(NOW + 120_000));
    }

    @Test
    void janitorPassHandsBackSchedulersAwaitingRepair() {
        upsert(NOW - 300_000, 0);
        join(f.scripts.moveToActive(NOW, fetch(1))); // taken; its worker "dies" before advancing

        FetchResult r = join(f.scripts.moveToActive(NOW + 5_000, fetch(0).withCleanLimit(100)));

        assertThat(r.schedulerUpdates()).extracting(SchedulerUpdate::schedulerId, SchedulerUpdate::pendingJobId)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("s", ""));
    }

    @Test
    void limitEndsTheSchedule() {
        join(scripts.upsertJobScheduler(NOW, "s", new SchedulerScripts.Definition("tick", "{}", "", 0, EVERY_MINUTE,
                "RUN_ONCE_NOW", 1, -1), NOW, NOW + 60_000));

        join(f.scripts.moveToActive(NOW, fetch(1)));

        QueueSnapshot s = f.snap();
        assertThat(s.delayed()).isEmpty();
        assertThat(s.zset("schedulers")).containsEntry("s", -1.0);
        assertThat(s.hash("scheduler:s")).containsEntry("jobId", "").containsEntry("next", "-1");
        assertThat(join(scripts.advanceJobScheduler(NOW, "s", "", NOW + 60_000, 0))).isZero();
    }

    @Test
    void skipMissedDropsTheOverdueIterationInsteadOfRunningIt() {
        join(scripts.upsertJobScheduler(NOW, "s", new SchedulerScripts.Definition("tick", "{}", "", 0, EVERY_MINUTE,
                "SKIP_MISSED", -1, -1), NOW - 300_000, NOW - 240_000));

        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(1)));

        assertThat(r.jobs()).isEmpty();
        QueueSnapshot s = f.snap();
        assertThat(s.jobIds()).isEmpty();
        assertThat(s.active()).isEmpty();
        assertThat(s.leases()).as("a skipped iteration never gets a lease").isEmpty();
        assertThat(s.events()).anySatisfy(e -> assertThat(e).containsEntry("event", "removed").containsEntry("prev", "skipped"));
        assertThat(r.schedulerUpdates()).extracting(SchedulerUpdate::pendingJobId).containsExactly("");
        f.assertInvariant();
    }

    @Test
    void plainJobsAreUntouchedByTheSchedulerStep() {
        f.job("1").waiting("1");

        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(1)));

        assertThat(r.schedulerUpdates()).isEmpty();
        assertThat(List.copyOf(f.snap().keys())).doesNotContain("schedulers");
    }

    @Test
    void janitorRepairsASchedulerWhosePendingIterationWasDeleted() {
        upsert(NOW + 60_000, NOW + 120_000);
        join(f.scripts.removeJob(iteration(NOW + 60_000)));   // e.g. an admin's clean or drain

        // Before the iteration was due nothing happens; once it is overdue the janitor hands it back.
        assertThat(join(f.scripts.moveToActive(NOW + 30_000, fetch(0).withCleanLimit(100))).schedulerUpdates()).isEmpty();
        FetchResult r = join(f.scripts.moveToActive(NOW + 62_000, fetch(0).withCleanLimit(100)));

        assertThat(r.schedulerUpdates()).containsExactly(new SchedulerUpdate("s", "", 0, EVERY_MINUTE, NOW + 60_000));
        assertThat(f.snap().zset("schedulers")).containsEntry("s", 0.0);
        assertThat(join(scripts.advanceJobScheduler(NOW + 62_000, "s", "", NOW + 120_000, NOW + 180_000))).isEqualTo(2);
        assertThat(f.snap().delayed()).containsOnlyKeys(iteration(NOW + 120_000));
    }
}
