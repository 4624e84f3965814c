package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.LOCK_MS;
import static io.bullpen.internal.ScriptFixture.NOW;
import static io.bullpen.internal.ScriptFixture.complete;
import static io.bullpen.internal.ScriptFixture.fetch;
import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.within;

import io.bullpen.JobState;
import io.bullpen.Retention;
import io.bullpen.internal.ScriptTypes.FetchResult;
import io.bullpen.internal.ScriptTypes.Finish;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.redisnode.RedisNode;
import org.redisson.api.redisnode.RedisNodes;
import org.redisson.client.protocol.Time;
import org.redisson.client.codec.StringCodec;

/**
 * The queue-level limits in the scripts: setQueueLimits, the take's cap and booked starts
 * (limitTake in takeJobs), the fetch's wake time, moveToFinished's "limited" outcome
 * (putBackLimited) and its capacity signal (signalCapacity). Rate limits run on Redis's clock,
 * so those assertions read TIME themselves.
 */
@BullpenTest
class QueueLimitsScriptTest {
    private ScriptFixture f;
    private boolean cluster;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
        cluster = ctx.redis().isCluster();
    }

    /** Redis's clock (TIME), as the limiter reads it; on a cluster any master's (one host's clock). */
    private long redisNow() {
        RedisNode node = cluster
                ? f.redisson.getRedisNodes(RedisNodes.CLUSTER).getMasters().iterator().next()
                : f.redisson.getRedisNodes(RedisNodes.SINGLE).getInstance();
        Time t = node.time();
        return t.getSeconds() * 1000L + t.getMicroseconds() / 1000;
    }

    private Map<String, Double> marker() {
        return f.snap().zset("marker");
    }

    private void clearMarker() {
        f.redisson.getScoredSortedSet(f.k.marker(), StringCodec.INSTANCE).delete();
    }

    @Test
    void setsAndRemovesTheLimitsAndWakesTheWorkers() {
        join(f.scripts.setQueueLimits("10", 1000, 0, "4"));
        assertThat(f.snap().meta()).containsEntry("rl:max", "10").containsEntry("rl:per", "1000")
                .containsEntry("concurrency", "4").doesNotContainKey("rl:burst");
        assertThat(marker()).containsEntry("0", 0.0);
        clearMarker();

        join(f.scripts.setQueueLimits("5", 2000, 3, null));
        assertThat(f.snap().meta()).containsEntry("rl:max", "5").containsEntry("rl:burst", "3")
                .containsEntry("concurrency", "4");
        f.meta("rl:tat", "1");
        join(f.scripts.setQueueLimits("-", 0, 0, "-"));
        assertThat(f.snap().meta()).doesNotContainKeys("rl:max", "rl:per", "rl:burst", "rl:tat", "concurrency");
        assertThat(marker()).containsEntry("0", 0.0);
    }

    @Test
    void anOwnersWriteMarksTheSettingAWriteWithoutOneClearsTheMarkAndAnOwnersRemovalTakesOnlyWhatItMarked() {
        assertThat(join(f.scripts.setQueueLimits("2", 1000, 0, "3", "app"))).isEqualTo(2L);
        assertThat(f.snap().meta()).containsEntry("rl:owner", "app").containsEntry("concurrency:owner", "app");
        clearMarker();

        // Another owner's removal takes nothing, and wakes no worker.
        assertThat(join(f.scripts.setQueueLimits("-", 0, 0, "-", "other"))).isZero();
        assertThat(f.snap().meta()).containsEntry("rl:max", "2").containsEntry("concurrency", "3");
        assertThat(marker()).isEmpty();

        // A write without an owner (the API, the dashboard) clears the mark of what it writes only.
        join(f.scripts.setQueueLimits(null, 0, 0, "5", null));
        assertThat(f.snap().meta()).doesNotContainKey("concurrency:owner").containsEntry("rl:owner", "app");
        assertThat(join(f.scripts.setQueueLimits("-", 0, 0, "-", "app"))).isEqualTo(1L);
        assertThat(f.snap().meta()).doesNotContainKeys("rl:max", "rl:per", "rl:owner")
                .containsEntry("concurrency", "5");

        // A removal without an owner takes a marked setting too, with its mark.
        join(f.scripts.setQueueLimits(null, 0, 0, "4", "app"));
        assertThat(join(f.scripts.setQueueLimits(null, 0, 0, "-", null))).isEqualTo(1L);
        assertThat(f.snap().meta()).doesNotContainKeys("concurrency", "concurrency:owner", "flow");
        assertThat(join(f.scripts.setQueueLimits("-", 0, 0, "-", null))).as("nothing left to remove").isZero();
    }

    @Test
    void metaFlowIsSetWhileAnyFlowControlFieldIsInUse() {
        join(f.scripts.setQueueLimits(null, 0, 0, "4"));
        assertThat(f.snap().meta()).containsEntry("flow", "1");
        join(f.scripts.setQueueLimits("10", 1000, 0, "-"));
        assertThat(f.snap().meta()).containsEntry("flow", "1");
        join(f.scripts.setQueueLimits("-", 0, 0, null));
        assertThat(f.snap().meta()).doesNotContainKey("flow");

        // Groups keep it: removing the last limit leaves the take reading the group fields.
        f.redisson.<String, String>getMap(f.k.meta(), StringCodec.INSTANCE).put("groups", "1");
        join(f.scripts.setQueueLimits(null, 0, 0, "2"));
        join(f.scripts.setQueueLimits(null, 0, 0, "-"));
        assertThat(f.snap().meta()).containsEntry("flow", "1");
    }

    @Test
    void withoutMetaFlowTheTakeReadsNoLimit() {
        // A limit field without flow (never written so by a script) is not read: the take is plain.
        f.job("b").job("a").waiting("b", "a");
        f.redisson.<String, String>getMap(f.k.meta(), StringCodec.INSTANCE).put("concurrency", "1");
        assertThat(join(f.scripts.moveToActive(NOW, fetch(2))).jobs()).hasSize(2);
    }

    @Test
    void aRaisedLimitIsNotHeldBackByTheOldSchedule() {
        long r = redisNow();
        f.meta("rl:max", "1").meta("rl:per", "60000").meta("rl:tat", Long.toString(r + 60_000));
        join(f.scripts.setQueueLimits("10", 1000, 0, null));
        double tat = Double.parseDouble(f.snap().meta().get("rl:tat"));
        assertThat(tat).isLessThanOrEqualTo(redisNow() + 100.0);
    }

    @Test
    void globalConcurrencyCapsTheTakeByTheLiveLeasesAndLeavesTheMarkerAlone() {
        f.meta("concurrency", "3");
        f.job("a").active("a", "w:1", LOCK_MS, NOW + LOCK_MS);
        // An expired lease does not count, even before a stalled scan recovers it (none here).
        f.job("b").active("b", "w:2", 0, NOW - 1);
        f.job("c").job("d").job("e").job("g").waiting("g", "e", "d", "c");
        var noScan = new ScriptTypes.FetchArgs(5, "w", LOCK_MS, "worker-1", 100, 0, 1);

        FetchResult r = join(f.scripts.moveToActive(NOW, noScan));

        assertThat(r.jobs()).extracting(RawJob::id).containsExactly("c", "d");
        assertThat(f.snap().waiting()).containsExactly("g", "e");
        assertThat(marker()).isEmpty();
        assertThat(r.nextDelayedDue()).as("a finish wakes the worker, not a timer").isEqualTo(-1);

        assertThat(join(f.scripts.moveToActive(NOW, noScan)).jobs()).isEmpty();
    }

    @Test
    void aRateLimitBooksStartsWithinTheHorizonAndSaysWhenToLookAgain() {
        // 10 per second: one start every 100 ms; the horizon is 200 ms.
        f.meta("rl:max", "10").meta("rl:per", "1000");
        for (String id : List.of("a", "b", "c", "d", "e")) {
            f.job(id);
        }
        f.waiting("e", "d", "c", "b", "a");
        long before = redisNow();

        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(5)));

        long after = redisNow();
        assertThat(r.jobs()).extracting(RawJob::id).containsExactly("a", "b", "c");
        long first = Long.parseLong(r.jobs().get(0).hash().get("processedOn"));
        assertThat(first).isBetween(before, after);
        for (int i = 0; i < 3; i++) {
            Map<String, String> hash = r.jobs().get(i).hash();
            assertThat(Long.parseLong(hash.get("processedOn"))).isEqualTo(first + 100L * i);
            assertThat(f.snap().job(r.jobs().get(i).id())).containsEntry("processedOn", hash.get("processedOn"))
                    .doesNotContainKey("startIn");
            if (i == 0) {
                assertThat(hash).doesNotContainKey("startIn");
            } else {
                assertThat(Long.parseLong(hash.get("startIn"))).isBetween(100L * i - 1, 100L * i);
            }
        }
        assertThat(Double.parseDouble(f.snap().meta().get("rl:tat"))).isCloseTo(first + 300.0, within(1.0));
        // Next start at first + 300: look again 200 ms before it, in the caller's clock.
        assertThat(r.nextDelayedDue()).isBetween(NOW + 99, NOW + 100);
        assertThat(marker()).isEmpty();
        assertThat(f.snap().leases()).containsOnlyKeys("a", "b", "c");
    }

    @Test
    void aBurstLetsThatManyMoreStartAtOnce() {
        f.meta("rl:max", "1").meta("rl:per", "1000").meta("rl:burst", "2");
        f.job("a").job("b").job("c").job("d").waiting("d", "c", "b", "a");

        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(4)));

        assertThat(r.jobs()).extracting(RawJob::id).containsExactly("a", "b", "c");
        assertThat(r.jobs()).allSatisfy(j -> assertThat(j.hash()).doesNotContainKey("startIn"));
    }

    @Test
    void aManualLimitHoldsTheTakeUntilItPassesAndIsDeletedThen() {
        long r0 = redisNow();
        f.meta("limitedUntil", Long.toString(r0 + 5_000));
        f.job("a").waiting("a");

        FetchResult held = join(f.scripts.moveToActive(NOW, fetch(1)));

        assertThat(held.jobs()).isEmpty();
        assertThat(held.nextDelayedDue()).isBetween(NOW + 4_700, NOW + 4_800);
        assertThat(marker()).isEmpty();

        f.meta("limitedUntil", Long.toString(r0 - 1));
        assertThat(join(f.scripts.moveToActive(NOW, fetch(1))).jobs()).extracting(RawJob::id).containsExactly("a");
        // It was the only flow-control field: the plain path (no flow-field reads) is back.
        assertThat(f.snap().meta()).doesNotContainKeys("limitedUntil", "flow");
    }

    @Test
    void aHeldBackTakeOnAnEmptyQueueGivesNoWakeTime() {
        f.meta("limitedUntil", Long.toString(redisNow() + 5_000));
        assertThat(join(f.scripts.moveToActive(NOW, fetch(1))).nextDelayedDue()).isEqualTo(-1);
    }

    @Test
    void delayedJobsArePromotedWhileTheQueueIsLimited() {
        f.meta("limitedUntil", Long.toString(redisNow() + 5_000));
        f.job("a").delayed("a", NOW - 1);
        join(f.scripts.moveToActive(NOW, fetch(1)));
        assertThat(f.snap().waiting()).containsExactly("a");
    }

    @Test
    void aLimitedResultPutsTheJobBackInFrontWithoutUsingAnAttemptAndLimitsTheQueue() {
        f.job("a", "ats", "2", "atm", "1").active("a", "w:1", LOCK_MS, NOW + LOCK_MS);
        f.job("b").job("c").waiting("c", "b");
        long before = redisNow();

        var result = join(f.scripts.moveToFinished(NOW, fetch(1), Finish.limited("a", "w:1", 5_000, false)));

        assertThat(result.state()).isEqualTo(JobState.WAITING);
        assertThat(result.next().jobs()).as("the queue takes nothing while limited").isEmpty();
        assertThat(f.snap().waiting()).containsExactly("c", "b", "a");
        assertThat(f.snap().job("a")).containsEntry("ats", "1").containsEntry("atm", "1").doesNotContainKey("stc");
        assertThat(f.snap().lock("a")).isNull();
        assertThat(f.snap().leases()).isEmpty();
        long until = Long.parseLong(f.snap().meta().get("limitedUntil"));
        assertThat(until).isBetween(before + 5_000, redisNow() + 5_000);
        assertThat(f.snap().eventNames()).containsExactly("waiting");
        assertThat(f.snap().events().get(0)).containsEntry("jobId", "a").containsEntry("prev", "active");
        f.assertInvariant();
    }

    @Test
    void aLimitedResultWakesIdleWorkersForThePutBackJob() {
        // Idle workers set their timers before the job came back: without a signal it would wait
        // for them however quiet the queue.
        f.job("a", "ats", "1").active("a", "w:1", LOCK_MS, NOW + LOCK_MS);
        f.job("b", "grp", "tenant-1", "ats", "1").active("b", "w:2", LOCK_MS, NOW + LOCK_MS);

        join(f.scripts.moveToFinished(NOW, fetch(0), Finish.limited("a", "w:1", 5_000, false)));
        assertThat(f.snap().zset("marker")).containsOnly(entry("0", (double) NOW + 5_000));

        join(f.scripts.moveToFinished(NOW, fetch(0), Finish.limited("b", "w:2", 2_000, true)));
        assertThat(f.snap().zset("marker")).as("the earlier of the two").containsOnly(entry("0", (double) NOW + 2_000));
        f.assertInvariant();
    }

    @Test
    void aLimitedResultOnAPausedQueueWakesNobody() {
        f.job("a", "ats", "1").active("a", "w:1", LOCK_MS, NOW + LOCK_MS).meta("paused", "1");

        join(f.scripts.moveToFinished(NOW, fetch(0), Finish.limited("a", "w:1", 5_000, false)));

        assertThat(f.snap().exists("marker")).isFalse();
    }

    @Test
    void aGroupLimitedResultLimitsTheJobsGroupOnlyAndAnUngroupedJobsQueue() {
        f.job("a", "grp", "tenant-1", "ats", "1").active("a", "w:1", LOCK_MS, NOW + LOCK_MS);
        f.job("b", "ats", "1").active("b", "w:2", LOCK_MS, NOW + LOCK_MS);

        join(f.scripts.moveToFinished(NOW, fetch(0), List.of(Finish.limited("a", "w:1", 1_000, true),
                Finish.limited("b", "w:2", 2_000, true))));

        assertThat(f.snap().hash("groupmeta:tenant-1")).containsKey("limitedUntil");
        long groupUntil = Long.parseLong(f.snap().hash("groupmeta:tenant-1").get("limitedUntil"));
        long queueUntil = Long.parseLong(f.snap().meta().get("limitedUntil"));
        assertThat(queueUntil - groupUntil).isBetween(990L, 1_010L);
    }

    @Test
    void aLimitedResultForALostLockChangesNothing() {
        f.job("a", "ats", "1").active("a", "w:other", LOCK_MS, NOW + LOCK_MS);
        var batch = join(f.scripts.moveToFinished(NOW, fetch(0), List.of(Finish.limited("a", "w:1", 1_000, false))));
        assertThat(batch.outcomes().get(0).error()).isNotNull();
        assertThat(f.snap().meta()).doesNotContainKey("limitedUntil");
        assertThat(f.snap().job("a")).containsEntry("ats", "1");
    }

    @Test
    void aFinishThatFreesAGlobalSlotItDoesNotRefillWakesOneWorker() {
        f.meta("concurrency", "2");
        f.job("a").active("a", "w:1", LOCK_MS, NOW + LOCK_MS);
        f.job("b").active("b", "w:2", LOCK_MS, NOW + LOCK_MS);
        f.job("c").job("d").waiting("d", "c");

        join(f.scripts.moveToFinished(NOW, fetch(0), complete("a", "w:1", "null", Retention.keepAll())));
        assertThat(marker()).containsEntry("0", 0.0);
        clearMarker();

        // The finisher refills the slot itself and no room is left: nobody else is woken.
        f.job("x").active("x", "w:3", LOCK_MS, NOW + LOCK_MS);
        var r = join(f.scripts.moveToFinished(NOW, fetch(1), complete("b", "w:2", "null", Retention.keepAll())));
        assertThat(r.next().jobs()).extracting(RawJob::id).containsExactly("c");
        assertThat(marker()).isEmpty();
    }

    @Test
    void withoutLimitsAFinishLeavesTheMarkerAsBefore() {
        f.job("a").active("a", "w:1", LOCK_MS, NOW + LOCK_MS);
        f.job("c").waiting("c");
        join(f.scripts.moveToFinished(NOW, fetch(0), complete("a", "w:1", "null", Retention.keepAll())));
        assertThat(marker()).isEmpty();
    }
}
