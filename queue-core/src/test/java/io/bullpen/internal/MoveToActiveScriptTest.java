package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.LOCK_MS;
import static io.bullpen.internal.ScriptFixture.NOW;
import static io.bullpen.internal.ScriptFixture.complete;
import static io.bullpen.internal.ScriptFixture.fetch;
import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bullpen.Retention;
import io.bullpen.internal.ScriptTypes.FetchArgs;
import io.bullpen.internal.ScriptTypes.FetchResult;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import io.bullpen.testing.RedisKind;
import io.bullpen.testing.Resp;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.redisnode.RedisNode;
import org.redisson.api.redisnode.RedisNodes;

@BullpenTest
class MoveToActiveScriptTest {
    private ScriptFixture f;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
    }

    @Test
    void takesOldestWaitingJobWithLockLeaseAndFencingToken() {
        f.job("1").job("2").waiting("2", "1");

        long before = System.currentTimeMillis();
        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(1)));
        long after = System.currentTimeMillis();

        assertThat(r.jobs()).hasSize(1);
        RawJob job = r.jobs().get(0);
        assertThat(job.id()).isEqualTo("1");
        assertThat(job.lockToken()).isEqualTo("w:1");
        assertThat(job.hash()).contains(entry("processedOn", Long.toString(NOW)), entry("pb", "worker-1"),
                entry("fence", "1"), entry("ats", "1"), entry("name", "job-1"));
        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).containsExactly("2");
        assertThat(s.active()).containsExactly("1");
        assertThat(s.exists("active")).as("leases is the set of active jobs: no active list").isFalse();
        assertThat(s.lock("1")).as("the lock is the job hash's field").isEqualTo("w:1");
        assertThat(s.exists("job:1:lock")).as("no lock key").isFalse();
        // The lease's expiry is on Redis's clock, not the caller's (NOW is in 2023).
        assertThat(s.leases()).containsOnlyKeys("1");
        assertThat(s.leases().get("1")).isBetween((double) before + LOCK_MS, (double) after + LOCK_MS);
        assertThat(s.string("fence")).isEqualTo("1");
        assertThat(s.eventNames()).containsExactly("active");
        // Work is left, so another blocked worker is woken.
        assertThat(s.zset("marker")).containsOnly(entry("0", 0.0));
        // It got all it asked for and will not wait: no wake times are read for it.
        assertThat(r.nextLeaseExpiry()).isEqualTo(-1);
        assertThat(r.nextDelayedDue()).isEqualTo(-1);
        f.assertInvariant();
    }

    /**
     * An empty take reads the first member of delayed and of leases once each (the promotion and
     * the stalled scan look there first; the wake times reuse it) and, with no active job, no clock.
     */
    @Test
    void anEmptyTakeReadsTheHeadOfDelayedAndLeasesOnceAndNoClock(BullpenTestContext ctx) throws Exception {
        assumeTrue(ctx.redis().kind() != RedisKind.EXTERNAL, "resets the server's command statistics");
        ctx.redis().assumeNotCluster("INFO commandstats of one server");
        f.job("d").delayed("d", NOW + 700);
        RedisNode node = ctx.redisson().getRedisNodes(RedisNodes.SINGLE).getInstance();
        Resp.text(ctx.redis().host(), ctx.redis().port(), "CONFIG", "RESETSTAT");

        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(3)));

        assertThat(r.jobs()).isEmpty();
        assertThat(r.nextDelayedDue()).isEqualTo(NOW + 700);
        assertThat(r.nextLeaseExpiry()).isEqualTo(-1);
        Map<String, Long> calls = commandCalls(node);
        assertThat(calls.getOrDefault("zrange", 0L)).as("one head read of delayed and of leases: %s", calls).isEqualTo(2);
        assertThat(calls).as("no scan, no clock: %s", calls).doesNotContainKeys("zrangebyscore", "time");
    }

    /** The lease wake time is the earlier of the leases held before the take and those it added. */
    @Test
    void theLeaseWakeTimeCoversLeasesFromBeforeTheTakeAndItsOwn() {
        f.job("a").active("a", "w:1", LOCK_MS, NOW + 5_000).job("1").waiting("1");

        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(3)));

        assertThat(r.jobs()).hasSize(1);
        // a's lease expires 5 s after the fixture read the clock, on Redis's clock; the take's own, 30 s after the take.
        assertThat(r.nextLeaseExpiry()).isBetween(NOW + 5_000 - 4_000, NOW + 5_000);
        assertThat(r.nextDelayedDue()).isEqualTo(-1);

        FetchResult again = join(f.scripts.moveToActive(NOW, fetch(3)));
        assertThat(again.nextLeaseExpiry()).as("no new lease: the held ones").isBetween(NOW + 5_000 - 4_000, NOW + 5_000);
    }

    /** A lapsed lease is recovered by the scan, and the wake time is then read after it. */
    @Test
    void aLapsedLeaseIsRecoveredAndTheWakeTimeReadAfterTheScan() {
        f.job("x").active("x", "w:1", 0, NOW - 1_000);

        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(3)));

        assertThat(r.recoveredStalled()).containsExactly("x");
        assertThat(r.jobs()).extracting(RawJob::id).containsExactly("x");
        assertThat(r.nextLeaseExpiry()).isEqualTo(NOW + LOCK_MS);
    }

    private static Map<String, Long> commandCalls(RedisNode node) {
        Map<String, Long> calls = new HashMap<>();
        node.info(RedisNode.InfoSection.COMMANDSTATS).forEach((key, value) ->
                calls.put(key.substring(key.indexOf('_') + 1), Long.parseLong(value.replaceAll("^calls=(\\d+),.*$", "$1"))));
        return calls;
    }

    @Test
    void aTakeThatComesUpShortReportsWhenToLookAgain() {
        f.job("1").waiting("1").job("d").delayed("d", NOW + 700);

        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(3)));

        assertThat(r.jobs()).hasSize(1);
        assertThat(r.nextDelayedDue()).isEqualTo(NOW + 700);
        assertThat(r.nextLeaseExpiry()).isEqualTo(NOW + LOCK_MS);
    }

    @Test
    void takeReturnsTheHashAsStoredAfterTheTakePlusTheFence() {
        f.job("1", "ats", "2", "pb", "old-worker").waiting("1");

        RawJob job = join(f.scripts.moveToActive(NOW, fetch(1))).jobs().get(0);

        Map<String, String> stored = new HashMap<>(f.snap().job("1"));
        assertThat(stored).as("the fence lives in the lock token, not in the stored job").doesNotContainKey("fence");
        // The reply carries the lock token at its end, not among the hash's fields.
        assertThat(stored.remove("lock")).isEqualTo(job.lockToken());
        stored.put("fence", "1");
        assertThat(job.hash()).isEqualTo(stored);
        assertThat(job.hash()).containsEntry("ats", "3").containsEntry("pb", "worker-1");
        assertThat(job.lockToken()).endsWith(":1");
    }

    @Test
    void anUnnamedWorkerStoresNoProcessedBy() {
        f.job("1", "pb", "old-worker").waiting("1");

        RawJob job = join(f.scripts.moveToActive(NOW, new FetchArgs(1, "tok", LOCK_MS, "", 1000, 1000, 1, 0)))
                .jobs().get(0);

        assertThat(job.hash()).as("reply").containsEntry("pb", "old-worker");
        assertThat(f.snap().job("1")).as("stored").containsEntry("pb", "old-worker").containsEntry("ats", "1");
    }

    @Test
    void takesUpToCountJobsInOneCallWaitBeforePrioritized() {
        f.job("1").job("2").job("p1", "priority", "1").job("p2", "priority", "2").waiting("2", "1")
                .zadd(f.k.prioritized(), "p2", 2 * 4294967296.0 + 1).zadd(f.k.prioritized(), "p1", 1 * 4294967296.0 + 2);

        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(3)));

        assertThat(r.jobs()).extracting(RawJob::id).containsExactly("1", "2", "p1");
        assertThat(r.jobs()).extracting(RawJob::lockToken).containsExactly("w:1", "w:2", "w:3");
        QueueSnapshot s = f.snap();
        assertThat(s.prioritized()).containsOnlyKeys("p2");
        assertThat(s.active()).containsExactlyInAnyOrder("1", "2", "p1");
        assertThat(s.leases()).containsOnlyKeys("1", "2", "p1");
        assertThat(new java.util.HashSet<>(s.leases().values())).as("one lease expiry for the whole take").hasSize(1);
        f.assertInvariant();
    }

    @Test
    void aTakeThatFillsItsSlotsGivesTheNextDelayedDueBackToTheMarker() {
        // The marker this worker consumed may have been the only news of d's due time for the
        // idle workers; it took all it asked for, so it will not wait and reports nothing.
        f.job("1").waiting("1").job("d").delayed("d", NOW + 700).job("e").delayed("e", NOW + 900);

        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(1)));

        assertThat(r.jobs()).extracting(RawJob::id).containsExactly("1");
        assertThat(r.nextDelayedDue()).isEqualTo(-1);
        assertThat(f.snap().zset("marker")).containsOnly(entry("0", (double) NOW + 700));
        f.assertInvariant();
    }

    @Test
    void aTakeThatComesUpShortOrFinishesLeavesTheMarkerAloneForDelayedJobs() {
        // Short: the reply's wake time covers d. A finishing worker's take never consumed the marker.
        f.job("1").waiting("1").job("d").delayed("d", NOW + 700);
        join(f.scripts.moveToActive(NOW, fetch(2)));
        assertThat(f.snap().exists("marker")).isFalse();

        f.job("2").waiting("2");
        join(f.scripts.moveToFinished(NOW, fetch(1), complete("1", "w:1", "null", Retention.keepAll())));
        assertThat(f.snap().active()).containsExactly("2");
        assertThat(f.snap().exists("marker")).isFalse();
    }

    @Test
    void takingTheLastJobEmitsDrainedAndLeavesNoMarker() {
        f.job("1").waiting("1");

        join(f.scripts.moveToActive(NOW, fetch(5)));

        QueueSnapshot s = f.snap();
        assertThat(s.eventNames()).containsExactly("active", "drained");
        assertThat(s.exists("marker")).isFalse();
    }

    @Test
    void emptyQueueReturnsNoJobsAndNoEvent() {
        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(5)));

        assertThat(r.jobs()).isEmpty();
        assertThat(r.nextDelayedDue()).isEqualTo(-1);
        assertThat(f.snap().keys()).isEmpty();
    }

    @Test
    void pausedQueueGivesNoJobsButStillReportsNextDue() {
        f.meta("paused", "1").job("1").waiting("1").job("d").delayed("d", NOW + 700);

        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(5)));

        assertThat(r.jobs()).isEmpty();
        assertThat(r.nextDelayedDue()).isEqualTo(NOW + 700);
        assertThat(f.snap().waiting()).containsExactly("1");
    }

    @Test
    void promotesDueDelayedJobsInDueOrderAndReportsTheNextDue() {
        f.job("late").job("early").job("future").job("prio", "priority", "3")
                .delayed("late", NOW).delayed("early", NOW - 50).delayed("future", NOW + 1).delayed("prio", NOW - 10);

        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(0)));

        QueueSnapshot s = f.snap();
        assertThat(s.delayed()).containsOnlyKeys("future");
        assertThat(s.waiting()).containsExactly("late", "early");
        assertThat(s.prioritized()).containsOnlyKeys("prio");
        assertThat(s.events()).as("one entry for the jobs promoted together, in due order").singleElement()
                .satisfies(e -> assertThat(e).containsEntry("event", "waiting").containsEntry("jobId", "early prio late")
                        .containsEntry("prev", "delayed"));
        assertThat(r.nextDelayedDue()).isEqualTo(NOW + 1);
        f.assertInvariant();
    }

    @Test
    void promotionIsBoundedPerCall() {
        for (int i = 0; i < 5; i++) {
            f.job("d" + i).delayed("d" + i, NOW - 100 + i);
        }
        FetchArgs twoAtATime = new FetchArgs(0, "w", LOCK_MS, "worker-1", 2, 100, 1);

        join(f.scripts.moveToActive(NOW, twoAtATime));

        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).containsExactly("d1", "d0");
        assertThat(s.delayed()).containsOnlyKeys("d2", "d3", "d4");
    }

    @Test
    void expiredLeaseWithoutLockIsRecoveredToTheFrontOfWait() {
        f.job("old").waiting("old").job("s").active("s", "w:9", 0, NOW - 1);

        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(1)));

        assertThat(r.jobs()).extracting(RawJob::id).containsExactly("s");
        assertThat(f.snap().job("s")).containsEntry("stc", "1").containsEntry("ats", "1");
        assertThat(f.snap().eventNames()).containsSubsequence("stalled", "active");
        f.assertInvariant();
    }

    @Test
    void jobThatStallsMoreThanMaxStalledCountFails() {
        f.job("s", "stc", "1").active("s", "w:9", 0, NOW - 1);

        join(f.scripts.moveToActive(NOW, fetch(1)));

        QueueSnapshot s = f.snap();
        assertThat(s.failed()).containsOnly(entry("s", (double) NOW));
        assertThat(s.job("s")).containsEntry("stc", "2").containsEntry("atm", "1")
                .containsEntry("finishedOn", Long.toString(NOW))
                .containsEntry("failedReason", "job stalled more than maxStalledCount times (maxStalledCount = 1)");
        assertThat(s.active()).isEmpty();
        assertThat(s.leases()).isEmpty();
        f.assertInvariant();
    }

    @Test
    void aCallerWhoseClockRunsAheadCannotExpireALiveLease() {
        // Leases are written and judged on Redis's clock: a caller a day ahead changes nothing.
        f.job("a").active("a", "w:1", 20_000, NOW - 1);
        double lease = f.snap().leases().get("a");

        FetchResult r = join(f.scripts.moveToActive(System.currentTimeMillis() + 86_400_000L, fetch(1)));

        QueueSnapshot s = f.snap();
        assertThat(r.recoveredStalled()).isEmpty();
        assertThat(s.active()).containsExactly("a");
        assertThat(s.leases().get("a")).isEqualTo(lease);
        assertThat(s.lock("a")).isEqualTo("w:1");
        assertThat(s.job("a")).doesNotContainKey("stc");
    }

    @Test
    void aLeaseExpiredOnRedissClockIsRecoveredWhateverTheCallersClockSays() {
        // The caller's clock lags (NOW is in 2023): the lease, past on Redis's clock, is recovered.
        f.job("a").active("a", "w:1", 20_000, NOW + 20_000).expire("a");

        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(0)));

        QueueSnapshot s = f.snap();
        assertThat(r.recoveredStalled()).containsExactly("a");
        assertThat(s.waiting()).containsExactly("a");
        assertThat(s.lock("a")).as("recovery clears the lock field").isNull();
        assertThat(s.job("a")).containsEntry("stc", "1");
        f.assertInvariant();
    }

    @Test
    void danglingIdWithoutHashIsDroppedNotRun() {
        f.waiting("ghost");

        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(1)));

        assertThat(r.jobs()).isEmpty();
        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).isEmpty();
        assertThat(s.active()).isEmpty();
        assertThat(s.leases()).as("a dangling id never gets a lease").isEmpty();
        assertThat(s.exists("job:ghost:lock")).isFalse();
        f.assertInvariant();
    }

    @Test
    void danglingIdAmongRealJobsIsDroppedAndTheOthersAreTaken() {
        f.job("1").job("2").waiting("2", "ghost", "1");

        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(3)));

        assertThat(r.jobs()).extracting(RawJob::id).containsExactly("1", "2");
        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).isEmpty();
        assertThat(s.leases()).containsOnlyKeys("1", "2");
        assertThat(s.lock("1")).isNotNull();
        assertThat(s.lock("2")).isNotNull();
        assertThat(s.exists("job:ghost:lock")).isFalse();
        f.assertInvariant();
    }

    @Test
    void reportsTheStalledJobsItRecoveredAndFailed() {
        f.job("back").active("back", "w:1", 0, NOW - 2).job("dead", "stc", "1").active("dead", "w:2", 0, NOW - 1);

        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(0)));

        assertThat(r.recoveredStalled()).containsExactly("back");
        assertThat(r.failedStalled()).containsExactly("dead");
    }

    @Test
    void janitorRemovesFinishedJobsPastTheirOwnRetentionAge() {
        String keep5s = "{\"removeOnComplete\":{\"age\":5000},\"removeOnFail\":{\"age\":5000}}";
        f.job("old", "opts", keep5s).zadd(f.k.completed(), "old", NOW - 5_000)
                .job("young", "opts", keep5s).zadd(f.k.completed(), "young", NOW - 4_999)
                .job("forever").zadd(f.k.completed(), "forever", NOW - 99_000)
                .job("oldFail", "opts", keep5s).zadd(f.k.failed(), "oldFail", NOW - 60_000)
                .job("countOnly", "opts", "{\"removeOnComplete\":{\"count\":5}}").zadd(f.k.completed(), "countOnly", NOW - 99_000);

        join(f.scripts.moveToActive(NOW, fetch(0).withCleanLimit(100)));

        QueueSnapshot s = f.snap();
        assertThat(s.completed()).containsOnlyKeys("forever", "countOnly", "young");
        assertThat(s.failed()).isEmpty();
        assertThat(s.jobIds()).containsExactlyInAnyOrder("forever", "countOnly", "young");
        f.assertInvariant();
    }

    @Test
    void janitorIsSkippedUnlessAskedAndBoundedWhenAsked() {
        String keep1s = "{\"removeOnComplete\":{\"age\":1000}}";
        for (int i = 0; i < 5; i++) {
            f.job("c" + i, "opts", keep1s).zadd(f.k.completed(), "c" + i, NOW - 10_000 + i);
        }

        join(f.scripts.moveToActive(NOW, fetch(0)));
        assertThat(f.snap().completed()).hasSize(5);

        join(f.scripts.moveToActive(NOW, fetch(0).withCleanLimit(2)));
        assertThat(f.snap().completed()).containsOnlyKeys("c2", "c3", "c4");
    }
}
