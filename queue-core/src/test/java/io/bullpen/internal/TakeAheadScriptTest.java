package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.LOCK_MS;
import static io.bullpen.internal.ScriptFixture.NOW;
import static io.bullpen.internal.ScriptFixture.complete;
import static io.bullpen.internal.ScriptFixture.fail;
import static io.bullpen.internal.ScriptFixture.fetch;
import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.JobState;
import io.bullpen.Retention;
import io.bullpen.internal.ScriptTypes.FetchResult;
import io.bullpen.internal.ScriptTypes.FinishBatchResult;
import io.bullpen.internal.ScriptTypes.NewJob;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.internal.ScriptTypes.Started;
import io.bullpen.internal.ScriptTypes.StalledResult;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Take-ahead in the scripts: the fetch argument {@code ahead}, the job field
 * {@code ahd}, moveToFinished's "started" record and a taken-ahead job's real start, and the
 * stall rule for a job that never started.
 */
@BullpenTest
class TakeAheadScriptTest {
    private ScriptFixture f;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
    }

    @Test
    void aTakeLeasesTheJobsAheadAfterTheSlotsJobsAndMarksOnlyThem() {
        f.job("e").job("d").job("c").job("b").job("a").waiting("e", "d", "c", "b", "a");

        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(2).withAhead(2)));

        assertThat(r.jobs()).extracting(RawJob::id).containsExactly("a", "b", "c", "d");
        assertThat(r.jobs().subList(0, 2)).allSatisfy(j -> assertThat(j.hash()).doesNotContainKey("ahd"));
        assertThat(r.jobs().subList(2, 4)).allSatisfy(j -> assertThat(j.hash()).containsEntry("ahd", "1"));
        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).containsExactly("e");
        assertThat(s.leases()).containsOnlyKeys("a", "b", "c", "d");
        assertThat(s.lock("c")).isEqualTo(r.jobs().get(2).lockToken());
        assertThat(s.job("a")).doesNotContainKey("ahd").containsEntry("ats", "1");
        assertThat(s.job("c")).containsEntry("ahd", "1").containsEntry("ats", "1")
                .containsEntry("processedOn", Long.toString(NOW));
        f.assertInvariant();
    }

    @Test
    void aQueueWithALimitOrAGroupSettingIgnoresTheAhead() {
        f.job("c").job("b").job("a").waiting("c", "b", "a").meta("concurrency", "10");
        assertThat(join(f.scripts.moveToActive(NOW, fetch(1).withAhead(2))).jobs()).extracting(RawJob::id)
                .containsExactly("a");

        f.redisson.getMap(f.k.meta(), org.redisson.client.codec.StringCodec.INSTANCE).fastRemove("concurrency");
        f.meta("groups", "1").meta("gsettings", "1");
        assertThat(join(f.scripts.moveToActive(NOW, fetch(1).withAhead(2))).jobs()).extracting(RawJob::id)
                .containsExactly("b");

        // With a group setting and no free slot, a finish's take-ahead takes nothing.
        FinishBatchResult fin = join(f.scripts.moveToFinished(NOW, fetch(0).withAhead(5),
                List.of(complete("a", leaseToken("a"), "1", Retention.keepAll()))));
        assertThat(fin.next().jobs()).isEmpty();
        assertThat(f.snap().waiting()).containsExactly("c");
        assertThat(f.snap().job("b")).doesNotContainKey("ahd");
    }

    @Test
    void groupsWithoutSettingsTakeAheadInFairOrderAndCountTheBufferedJobsActive() {
        List<NewJob> jobs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            jobs.add(new NewJob(null, "a" + i, "{}", "", 0, 0, false, "a"));
            jobs.add(new NewJob(null, "b" + i, "{}", "", 0, 0, false, "b"));
        }
        join(f.scripts.addJob(NOW, jobs));

        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(1).withAhead(3)));

        assertThat(r.jobs()).extracting(j -> j.hash().get("name")).containsExactlyInAnyOrder("a0", "b0", "a1", "b1");
        assertThat(r.jobs().subList(0, 2)).extracting(j -> j.hash().get("name")).containsExactlyInAnyOrder("a0", "b0");
        assertThat(r.jobs().get(0).hash()).doesNotContainKey("ahd");
        assertThat(r.jobs().subList(1, 4)).allSatisfy(j -> assertThat(j.hash()).containsEntry("ahd", "1"));
        QueueSnapshot s = f.snap();
        assertThat(s.hash("groupmeta:a")).containsEntry("active", "2");
        assertThat(s.hash("groupmeta:b")).containsEntry("active", "2");
        assertThat(s.groupedWaiting()).isEqualTo(2);
        f.assertInvariant();
    }

    @Test
    void aFinishWithNoFreeSlotStillTakesAhead() {
        f.job("x").waiting("x").job("a", "ats", "1").active("a", "w:1", LOCK_MS, NOW + LOCK_MS);

        FinishBatchResult r = join(f.scripts.moveToFinished(NOW, fetch(0).withAhead(3),
                List.of(complete("a", "w:1", "1", Retention.keepAll()))));

        assertThat(r.outcomes()).extracting(o -> o.state()).containsExactly(JobState.COMPLETED);
        assertThat(r.next().jobs()).extracting(RawJob::id).containsExactly("x");
        assertThat(f.snap().job("x")).containsEntry("ahd", "1");
        f.assertInvariant();
    }

    @Test
    void theStartedRecordClearsTheMarkOnlyWithTheLockAndReturnsNoOutcome() {
        f.job("a", "ats", "1").active("a", "w:1", LOCK_MS, NOW + LOCK_MS)
                .job("b", "ats", "1", "ahd", "1").active("b", "w:2", LOCK_MS, NOW + LOCK_MS)
                .job("c", "ats", "1", "ahd", "1").active("c", "w:3", LOCK_MS, NOW + LOCK_MS);

        FinishBatchResult r = join(f.scripts.moveToFinished(NOW, fetch(0), List.of(complete("a", "w:1", "1",
                Retention.keepAll())), null, List.of(new Started("b", "w:2"), new Started("c", "other:9"))));

        assertThat(r.outcomes()).hasSize(1);
        QueueSnapshot s = f.snap();
        assertThat(s.job("b")).doesNotContainKey("ahd");
        assertThat(s.job("c")).containsEntry("ahd", "1");
        assertThat(s.leases()).containsOnlyKeys("b", "c");
        f.assertInvariant();
    }

    @Test
    void aTakenAheadJobsResultWritesWhenItsProcessorReallyStartedAndClearsTheMark() {
        f.job("a", "ats", "1", "ahd", "1", "processedOn", Long.toString(NOW - 100))
                .active("a", "w:1", LOCK_MS, NOW + LOCK_MS)
                .job("b", "ats", "1", "ahd", "1", "processedOn", Long.toString(NOW - 100))
                .active("b", "w:2", LOCK_MS, NOW + LOCK_MS)
                .job("c", "ats", "1", "processedOn", Long.toString(NOW - 100)).active("c", "w:3", LOCK_MS, NOW + LOCK_MS);

        FinishBatchResult r = join(f.scripts.moveToFinished(NOW, fetch(0), List.of(
                complete("a", "w:1", "1", Retention.keepAll()), fail("b", "w:2", "boom", 3, 0, false),
                complete("c", "w:3", "1", Retention.keepAll())), new long[] {NOW - 40, NOW - 30, 0}, List.of()));

        assertThat(r.outcomes()).extracting(o -> o.state()).containsExactly(JobState.COMPLETED, JobState.WAITING,
                JobState.COMPLETED);
        QueueSnapshot s = f.snap();
        assertThat(s.job("a")).containsEntry("processedOn", Long.toString(NOW - 40)).doesNotContainEntry("ahd", "1");
        assertThat(s.job("b")).containsEntry("processedOn", Long.toString(NOW - 30)).doesNotContainEntry("ahd", "1");
        assertThat(s.job("c")).containsEntry("processedOn", Long.toString(NOW - 100));
        f.assertInvariant();
    }

    @Test
    void aStalledJobThatNeverStartedCountsNoStallAndGetsItsStartBack() {
        f.job("never", "ats", "2", "stc", "1", "ahd", "1").active("never", "w:1", 0, NOW - 10)
                .job("ran", "ats", "1").active("ran", "w:2", 0, NOW - 5);

        StalledResult r = join(f.scripts.moveStalledJobsToWait(NOW, 1, 100));

        assertThat(r.recovered()).containsExactly("never", "ran");
        assertThat(r.failed()).isEmpty();
        QueueSnapshot s = f.snap();
        assertThat(s.job("never")).containsEntry("stc", "1").containsEntry("ats", "1").doesNotContainKey("ahd");
        assertThat(s.job("ran")).containsEntry("stc", "1").containsEntry("ats", "1");
        f.assertInvariant();
    }

    @Test
    void giveBackClearsTheMark() {
        f.job("a", "ats", "1", "ahd", "1").active("a", "w:1", LOCK_MS, NOW + LOCK_MS);

        join(f.scripts.moveToWait("a", "w:1"));

        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).containsExactly("a");
        assertThat(s.job("a")).containsEntry("ats", "0").doesNotContainKey("ahd").doesNotContainKey("stc");
        f.assertInvariant();
    }

    private String leaseToken(String id) {
        return f.snap().lock(id);
    }
}
