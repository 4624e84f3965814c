package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.LOCK_MS;
import static io.bullpen.internal.ScriptFixture.NOW;
import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.bullpen.internal.ScriptTypes.StalledResult;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** extendLocks and moveStalledJobsToWait. */
@BullpenTest
class LockAndStalledScriptTest {
    private ScriptFixture f;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
    }

    @Test
    void extendLocksRenewsOwnLocksAndReportsTheOthersInOneCall() {
        f.job("mine").active("mine", "w:1", 1_000, NOW + 1_000)
                .job("theirs").active("theirs", "x:2", 1_000, NOW + 1_000)
                .job("gone").active("gone", "w:3", 0, NOW + 1_000);
        Map<String, String> held = new LinkedHashMap<>();
        held.put("mine", "w:1");
        held.put("theirs", "w:2");
        held.put("gone", "w:3");

        double theirsBefore = f.snap().leases().get("theirs");
        long before = System.currentTimeMillis();
        List<String> lost = join(f.scripts.extendLocks(NOW + 500, LOCK_MS, held));
        long after = System.currentTimeMillis();

        assertThat(lost).containsExactly("theirs", "gone");
        QueueSnapshot s = f.snap();
        // Renewed on Redis's clock (the caller's NOW + 500 is not used).
        assertThat(s.leases().get("mine")).isBetween((double) before + LOCK_MS, (double) after + LOCK_MS);
        assertThat(s.leases().get("theirs")).isEqualTo(theirsBefore);
        assertThat(s.lock("mine")).isEqualTo("w:1");
        assertThat(s.lock("theirs")).isEqualTo("x:2");
        assertThat(s.lock("gone")).isNull();
    }

    @Test
    void extendLocksNeverRecreatesARemovedLease() {
        f.job("a").active("a", "w:1", 1_000, NOW);
        f.redisson.getScoredSortedSet(f.k.leases(), org.redisson.client.codec.StringCodec.INSTANCE).remove("a");

        join(f.scripts.extendLocks(NOW, LOCK_MS, Map.of("a", "w:1")));

        assertThat(f.snap().leases()).isEmpty();
    }

    @Test
    void extendLocksNeverRevivesAnExpiredLeaseAndDropsItsLock() {
        // Expired on Redis's clock, not recovered yet: reviving it could exceed a concurrency cap.
        f.job("a").active("a", "w:1", LOCK_MS, NOW + LOCK_MS).expire("a");

        List<String> lost = join(f.scripts.extendLocks(NOW, LOCK_MS, Map.of("a", "w:1")));

        assertThat(lost).containsExactly("a");
        QueueSnapshot s = f.snap();
        assertThat(s.leases()).containsExactly(entry("a", 1.0));
        assertThat(s.lock("a")).as("dropped, as an expiring lock key was").isNull();
        var finish = join(f.scripts.moveToFinished(NOW, ScriptFixture.fetch(0),
                List.of(ScriptFixture.complete("a", "w:1", "null", io.bullpen.Retention.keepAll()))));
        assertThat(finish.outcomes().get(0).error()).as("the late finish is rejected").isNotNull();
        assertThat(f.snap().completed()).isEmpty();
        f.assertInvariant();
    }

    @Test
    void aHolderWhoseLeaseLapsedUnrecoveredMayStillFinish() {
        // Nobody else can hold the job: recovery would have cleared the lock field in its script.
        f.job("a").active("a", "w:1", LOCK_MS, NOW + LOCK_MS).expire("a");

        var finish = join(f.scripts.moveToFinished(NOW, ScriptFixture.fetch(0),
                List.of(ScriptFixture.complete("a", "w:1", "null", io.bullpen.Retention.keepAll()))));

        assertThat(finish.outcomes().get(0).state()).isEqualTo(io.bullpen.JobState.COMPLETED);
        QueueSnapshot s = f.snap();
        assertThat(s.completed()).containsOnlyKeys("a");
        assertThat(s.leases()).isEmpty();
        assertThat(s.lock("a")).isNull();
        f.assertInvariant();
    }

    @Test
    void stalledJobsReturnToTheFrontOfWaitOrToPrioritized() {
        f.job("w1").waiting("w1")
                .job("s1").active("s1", "w:1", 0, NOW - 10)
                .job("s2", "priority", "4").active("s2", "w:2", 0, NOW - 5)
                .job("ok").active("ok", "w:3", LOCK_MS, NOW + LOCK_MS);

        StalledResult r = join(f.scripts.moveStalledJobsToWait(NOW, 1, 100));

        assertThat(r.recovered()).containsExactly("s1", "s2");
        assertThat(r.failed()).isEmpty();
        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).containsExactly("w1", "s1");
        assertThat(s.prioritized()).containsOnlyKeys("s2");
        assertThat(s.active()).containsExactly("ok");
        assertThat(s.leases()).containsOnlyKeys("ok");
        assertThat(s.job("s1")).containsEntry("stc", "1");
        assertThat(s.eventNames()).containsExactly("stalled", "stalled");
        assertThat(s.zset("marker")).containsOnly(entry("0", 0.0));
        f.assertInvariant();
    }

    @Test
    void stalledTooOftenFailsWithAReason() {
        f.job("s", "stc", "2").active("s", "w:1", 0, NOW - 1);

        StalledResult r = join(f.scripts.moveStalledJobsToWait(NOW, 2, 100));

        assertThat(r.failed()).containsExactly("s");
        QueueSnapshot s = f.snap();
        assertThat(s.failed()).containsOnlyKeys("s");
        assertThat(s.job("s")).containsEntry("failedReason", "job stalled more than maxStalledCount times (maxStalledCount = 2)");
        assertThat(s.events().get(0)).contains(entry("event", "failed"), entry("prev", "active"));
        f.assertInvariant();
    }

    @Test
    void maxStalledZeroFailsOnTheFirstStall() {
        f.job("s").active("s", "w:1", 0, NOW - 1);

        assertThat(join(f.scripts.moveStalledJobsToWait(NOW, 0, 100)).failed()).containsExactly("s");
    }

    @Test
    void leaseExpiringExactlyNowCountsAsExpired() {
        f.job("s").active("s", "w:1", 0, NOW);

        assertThat(join(f.scripts.moveStalledJobsToWait(NOW, 1, 100)).recovered()).containsExactly("s");
    }

    @Test
    void recoveryIsBoundedPerCall() {
        for (int i = 0; i < 5; i++) {
            f.job("s" + i).active("s" + i, "w:" + i, 0, NOW - 10 + i);
        }

        StalledResult r = join(f.scripts.moveStalledJobsToWait(NOW, 1, 2));

        assertThat(r.recovered()).containsExactly("s0", "s1");
        assertThat(f.snap().active()).hasSize(3);
        f.assertInvariant();
    }

    @Test
    void pausedQueueRecoversButDoesNotWakeWorkers() {
        f.meta("paused", "1").job("s").active("s", "w:1", 0, NOW - 1);

        join(f.scripts.moveStalledJobsToWait(NOW, 1, 100));

        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).containsExactly("s");
        assertThat(s.exists("marker")).isFalse();
    }

    @Test
    void moveToWaitGivesBackAnUnstartedJobWithoutCountingAStall() {
        f.job("other").waiting("other").job("a", "ats", "1").active("a", "w:1", LOCK_MS, NOW + LOCK_MS);

        join(f.scripts.moveToWait("a", "w:1"));

        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).containsExactly("other", "a");
        assertThat(s.active()).isEmpty();
        assertThat(s.leases()).isEmpty();
        assertThat(s.lock("a")).isNull();
        assertThat(s.job("a")).containsEntry("ats", "0").doesNotContainKey("stc");
        assertThat(s.events().get(0)).contains(entry("event", "waiting"), entry("prev", "active"));
        f.assertInvariant();
    }

    @Test
    void moveToWaitOfAStartedAttemptKeepsItsStartCounted() {
        f.job("a", "ats", "1").active("a", "w:1", LOCK_MS, NOW + LOCK_MS);

        join(f.scripts.moveToWait("a", "w:1", true));

        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).containsExactly("a");
        assertThat(s.leases()).isEmpty();
        assertThat(s.lock("a")).isNull();
        assertThat(s.job("a")).containsEntry("ats", "1").doesNotContainKey("stc");
        f.assertInvariant();
    }

    @Test
    void moveToWaitChecksTheToken() {
        f.job("a").active("a", "w:1", LOCK_MS, NOW + LOCK_MS);

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> join(f.scripts.moveToWait("a", "w:2")))
                .isInstanceOf(io.bullpen.LockLostException.class);
        assertThat(f.snap().active()).containsExactly("a");
    }
}
