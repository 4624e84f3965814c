package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.LOCK_MS;
import static io.bullpen.internal.ScriptFixture.NOW;
import static io.bullpen.internal.ScriptFixture.fetch;
import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.internal.ScriptTypes.FetchResult;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Expiry deadlines in the scripts: the fetch fails a job past its deadline from its state, drops
 * a started one, clears the meta flag once the set is empty; moveToWait gives an unstarted job
 * its deadline back.
 */
@BullpenTest
class ExpiryScriptTest {
    /** A deadline long past, on any clock. */
    private static final double PAST = 1;
    private static final double FAR = 9e15;
    private ScriptFixture f;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
    }

    @Test
    void aFetchFailsJobsPastTheirDeadlineFromEachStateAndTakesTheRest() {
        f.job("w", "xp", "1").job("p", "xp", "1", "priority", "3").job("d", "xp", "1").job("late", "xp", "9000000000000000")
                .job("plain").waiting("plain", "late", "w").zadd(f.k.prioritized(), "p", 3L * 4294967296L)
                .delayed("d", NOW + 60_000)
                .zadd(f.k.expiry(), "w", PAST).zadd(f.k.expiry(), "p", PAST).zadd(f.k.expiry(), "d", PAST).zadd(f.k.expiry(), "late", FAR)
                .meta("expiry", "1");

        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(1)));

        assertThat(r.jobs()).extracting(ScriptTypes.RawJob::id).containsExactly("late");
        QueueSnapshot s = f.snap();
        assertThat(s.failed()).containsOnlyKeys("w", "p", "d");
        assertThat(s.waiting()).containsExactly("plain");
        assertThat(s.prioritized()).isEmpty();
        assertThat(s.delayed()).isEmpty();
        for (String id : new String[] {"w", "p", "d"}) {
            assertThat(s.job(id)).containsEntry("failedReason", "expired").containsEntry("atm", "0");
        }
        assertThat(s.events()).filteredOn(e -> "failed".equals(e.get("event")))
                .allSatisfy(e -> assertThat(e).containsEntry("expired", "1").containsEntry("attemptsMade", "0"))
                .extracting(e -> e.get("prev")).containsExactlyInAnyOrder("waiting", "prioritized", "delayed");
        assertThat(s.zset("expiry")).as("the taken job started: no deadline left").isEmpty();
        assertThat(s.meta()).containsEntry("expiry", "1");
        f.assertInvariant();

        join(f.scripts.moveToActive(NOW, fetch(0)));
        assertThat(f.snap().meta()).as("an empty set clears the flag").doesNotContainKey("expiry");
    }

    @Test
    void aStartedJobIsDroppedFromTheSetAndNotFailed() {
        f.job("a", "xp", "1", "ats", "1").active("a", "w:1", LOCK_MS, NOW + LOCK_MS)
                .zadd(f.k.expiry(), "a", PAST).meta("expiry", "1");

        join(f.scripts.moveToActive(NOW, fetch(0)));

        QueueSnapshot s = f.snap();
        assertThat(s.failed()).isEmpty();
        assertThat(s.leases()).containsOnlyKeys("a");
        assertThat(s.zset("expiry")).isEmpty();
    }

    @Test
    void withoutTheFlagTheFetchDoesNotLookAtTheSet() {
        f.job("w", "xp", "1").waiting("w").zadd(f.k.expiry(), "w", PAST);

        join(f.scripts.moveToActive(NOW, fetch(0)));

        assertThat(f.snap().waiting()).containsExactly("w");
        assertThat(f.snap().zset("expiry")).containsOnlyKeys("w");
    }

    @Test
    void givingBackAnUnstartedJobRestoresItsDeadline() {
        f.job("a", "ats", "1", "ahd", "1", "xp", "1234").active("a", "w:1", LOCK_MS, NOW + LOCK_MS);

        join(f.scripts.moveToWait("a", "w:1"));

        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).containsExactly("a");
        assertThat(s.zset("expiry")).isEqualTo(Map.of("a", 1234.0));
        assertThat(s.meta()).containsEntry("expiry", "1");
        f.assertInvariant();
    }

    @Test
    void aStalledTakeAheadJobThatNeverStartedGetsItsDeadlineBack() {
        f.job("ahead", "ats", "1", "ahd", "1", "xp", "1234").active("ahead", "w:1", 0, 1)
                .job("ran", "ats", "1", "xp", "1234").active("ran", "w:2", 0, 1);

        join(f.scripts.moveStalledJobsToWait(NOW, 1, 100));

        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).containsExactlyInAnyOrder("ahead", "ran");
        assertThat(s.zset("expiry")).as("only the job that never started").isEqualTo(Map.of("ahead", 1234.0));
        assertThat(s.meta()).containsEntry("expiry", "1");
        f.assertInvariant();
    }

    @Test
    void aDeadlineOfAJobThatIsGoneIsDroppedWithoutFailingAGhost() {
        // A dangling id: its hash was deleted behind the queue's back.
        f.waiting("ghost").zadd(f.k.expiry(), "ghost", PAST).meta("expiry", "1");

        join(f.scripts.moveToActive(NOW, fetch(0)));

        QueueSnapshot s = f.snap();
        assertThat(s.failed()).isEmpty();
        assertThat(s.jobIds()).doesNotContain("ghost");
        assertThat(s.zset("expiry")).isEmpty();
    }

    @Test
    void aRetriedExpiredJobRunsWithoutItsOldDeadline() {
        f.job("x", "xp", "1", "failedReason", "expired", "finishedOn", Long.toString(NOW), "atm", "0")
                .zadd(f.k.failed(), "x", NOW);

        join(f.scripts.retryJob("x", io.bullpen.JobState.FAILED));

        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).containsExactly("x");
        assertThat(s.job("x")).doesNotContainKey("xp");
        assertThat(s.zset("expiry")).isEmpty();
    }

    @Test
    void aJobPutBackByARateLimitStartedAndKeepsNoDeadline() {
        f.job("a", "ats", "1", "xp", "1").active("a", "w:1", LOCK_MS, NOW + LOCK_MS);

        join(f.scripts.moveToFinished(NOW, fetch(0), ScriptTypes.Finish.limited("a", "w:1", 5, false)));

        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).containsExactly("a");
        assertThat(s.job("a")).as("its processor was called: a later hand-back must not restore a deadline")
                .containsEntry("ats", "0").doesNotContainKey("xp");
    }
}
