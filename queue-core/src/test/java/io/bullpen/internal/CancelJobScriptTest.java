package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.LOCK_MS;
import static io.bullpen.internal.ScriptFixture.NOW;
import static io.bullpen.internal.ScriptFixture.complete;
import static io.bullpen.internal.ScriptFixture.fail;
import static io.bullpen.internal.ScriptFixture.fetch;
import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.bullpen.CancelResult;
import io.bullpen.JobState;
import io.bullpen.Retention;
import io.bullpen.internal.ScriptTypes.FinishBatchResult;
import io.bullpen.internal.ScriptTypes.NewJob;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.internal.ScriptTypes.StalledResult;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The contracts of cancelJob and checkCancels, and how a flagged active job ends. */
@BullpenTest
class CancelJobScriptTest {
    private ScriptFixture f;
    private CancelScripts cancels;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
        cancels = new CancelScripts(f.redisson, f.k);
    }

    private CancelResult cancel(String id, String reason) {
        return join(cancels.cancelJob(NOW, id, reason));
    }

    private void assertCancelledBeforeItRan(String id, String prev) {
        QueueSnapshot s = f.snap();
        assertThat(s.failed()).containsEntry(id, (double) NOW);
        assertThat(s.job(id)).containsEntry("failedReason", "cancelled: not needed")
                .containsEntry("finishedOn", Long.toString(NOW));
        assertThat(s.events()).hasSize(1);
        assertThat(s.events().get(0)).contains(entry("event", "failed"), entry("jobId", id), entry("prev", prev),
                entry("cancelled", "1"), entry("failedReason", "cancelled: not needed"), entry("attemptsMade", "0"));
        assertThat(s.meta()).containsEntry("mc:failed", "1");
        f.assertInvariant();
    }

    @Test
    void aWaitingJobIsTakenOutOfWaitAndFailedAsCancelledInTheSameCall() {
        f.job("a").job("b").waiting("a", "b");

        assertThat(cancel("a", "not needed")).isEqualTo(CancelResult.CANCELLED_WAITING);

        assertThat(f.snap().waiting()).containsExactly("b");
        assertCancelledBeforeItRan("a", "waiting");
    }

    @Test
    void aDelayedJobIsTakenOutOfDelayed() {
        f.job("d", "delay", "5000").delayed("d", NOW + 5000);

        assertThat(cancel("d", "not needed")).isEqualTo(CancelResult.CANCELLED_DELAYED);

        assertThat(f.snap().delayed()).isEmpty();
        assertCancelledBeforeItRan("d", "delayed");
    }

    @Test
    void aPrioritizedJobIsTakenOutOfPrioritized() {
        f.job("p", "priority", "3").zadd(f.k.prioritized(), "p", 3 * 4294967296.0);

        assertThat(cancel("p", "not needed")).isEqualTo(CancelResult.CANCELLED_PRIORITIZED);

        assertThat(f.snap().prioritized()).isEmpty();
        assertCancelledBeforeItRan("p", "prioritized");
    }

    @Test
    void aWaitingJobOfAPausedQueueIsCancelledToo() {
        f.job("a").waiting("a").meta("paused", "1");

        assertThat(cancel("a", "not needed")).isEqualTo(CancelResult.CANCELLED_WAITING);

        assertCancelledBeforeItRan("a", "waiting");
    }

    @Test
    void aGroupedWaitingJobLeavesItsGroupAndTheCountsStayRight() {
        join(f.scripts.addJob(NOW, List.of(new NewJob(null, "a", "{}", "", 0, 0, false, "acme"),
                new NewJob(null, "b", "{}", "", 0, 0, false, "acme"))));
        join(groupsOf().setGroupSettings("acme", "paused", "1"));

        assertThat(cancel("1", "x")).isEqualTo(CancelResult.CANCELLED_WAITING);
        QueueSnapshot s = f.snap();
        assertThat(s.zset("group:acme")).containsOnlyKeys("2");
        assertThat(s.groupedWaiting()).isEqualTo(1);
        assertThat(join(f.scripts.getCounts()).waiting()).isEqualTo(1);
        assertThat(join(f.scripts.getCounts()).failed()).isEqualTo(1);
        f.assertInvariant();

        assertThat(cancel("2", "x")).isEqualTo(CancelResult.CANCELLED_WAITING);
        s = f.snap();
        assertThat(s.exists("group:acme")).isFalse();
        assertThat(s.groupedWaiting()).isZero();
        assertThat(join(f.scripts.getCounts()).waiting()).isZero();
        assertThat(s.zset("groups")).as("the paused group keeps its setting, so it stays registered")
                .containsOnlyKeys("acme");
        assertThat(s.readyGroups()).isEmpty();
        f.assertInvariant();
    }

    @Test
    void theLastWaitingJobOfATransientGroupTakesTheGroupOutOfTheRegistry() {
        join(f.scripts.addJob(NOW, List.of(new NewJob(null, "a", "{}", "", 0, 0, false, "tmp"))));

        assertThat(cancel("1", "x")).isEqualTo(CancelResult.CANCELLED_WAITING);

        QueueSnapshot s = f.snap();
        assertThat(s.zset("groups")).isEmpty();
        assertThat(s.readyGroups()).isEmpty();
        assertThat(s.groupedWaiting()).isZero();
        f.assertInvariant();
    }

    @Test
    void anActiveJobIsOnlyFlaggedAndTheFirstReasonStays() {
        f.job("r").active("r", "w:1", LOCK_MS, NOW + LOCK_MS);

        assertThat(cancel("r", "first")).isEqualTo(CancelResult.CANCEL_REQUESTED);
        assertThat(cancel("r", "second")).isEqualTo(CancelResult.CANCEL_REQUESTED);

        QueueSnapshot s = f.snap();
        assertThat(s.leases()).containsOnlyKeys("r");
        assertThat(s.job("r")).containsEntry("cancel", "first").doesNotContainKey("failedReason");
        assertThat(s.events()).isEmpty();
        f.assertInvariant();
    }

    @Test
    void checkCancelsAnswersTheFlaggedJobsOnly() {
        f.job("r1").active("r1", "w:1", LOCK_MS, NOW + LOCK_MS).job("r2").active("r2", "w:2", LOCK_MS, NOW + LOCK_MS);
        cancel("r2", "stop");

        assertThat(join(cancels.checkCancels(List.of("r1", "r2", "gone")))).containsExactly(entry("r2", "stop"));
        assertThat(join(cancels.checkCancels(List.of("r1")))).isEmpty();
    }

    @Test
    void anUnknownJobIsNotFoundAndAFinishedOneIsLeftAlone() {
        f.job("c", "finishedOn", "1").zadd(f.k.completed(), "c", 1).job("x", "finishedOn", "1").zadd(f.k.failed(), "x", 1);
        QueueSnapshot before = f.snap();

        assertThat(cancel("nope", "x")).isEqualTo(CancelResult.NOT_FOUND);
        assertThat(cancel("c", "x")).isEqualTo(CancelResult.ALREADY_FINISHED);
        assertThat(cancel("x", "x")).isEqualTo(CancelResult.ALREADY_FINISHED);

        QueueSnapshot after = f.snap();
        assertThat(after.job("c")).isEqualTo(before.job("c"));
        assertThat(after.job("x")).isEqualTo(before.job("x"));
        assertThat(after.events()).isEmpty();
    }

    @Test
    void removeOnFailOfTheJobsOptionsApplies() {
        f.job("a", "opts", "{\"removeOnFail\":{\"count\":0}}").job("b", "opts", "{\"removeOnFail\":{\"count\":1}}")
                .job("old", "finishedOn", "1").zadd(f.k.failed(), "old", 1).waiting("a", "b");

        cancel("a", "x");
        assertThat(f.snap().exists("job:a")).isFalse();
        assertThat(f.snap().failed()).containsOnlyKeys("old");

        cancel("b", "x");
        assertThat(f.snap().failed()).containsOnlyKeys("b");
        assertThat(f.snap().exists("job:old")).isFalse();
        f.assertInvariant();
    }

    @Test
    void badArgumentsAreRefusedBeforeAnythingIsWritten() {
        assertThatThrownBy(() -> cancels.cancelJob(NOW, " ", "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("job id");
        assertThatThrownBy(() -> cancels.cancelJob(NOW, "a", null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reason");
        assertThatThrownBy(() -> cancels.cancelJob(NOW, "a", "x".repeat(1001)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1001");
    }

    private RawJob takeOne(String opts) {
        join(f.scripts.addJob(NOW, List.of(new NewJob(null, "j", "{}", opts, 0, 0, false))));
        return join(f.scripts.moveToActive(NOW, fetch(1))).jobs().get(0);
    }

    @Test
    void aFlaggedJobWhoseAttemptFailsIsFailedForGoodWithAttemptsLeft() {
        RawJob job = takeOne("");
        cancel(job.id(), "stop");

        FinishBatchResult r = join(f.scripts.moveToFinished(NOW, fetch(0),
                List.of(fail(job.id(), job.lockToken(), "interrupted", 3, 0, false))));

        assertThat(r.outcomes().get(0).state()).isEqualTo(JobState.FAILED);
        QueueSnapshot s = f.snap();
        assertThat(s.failed()).containsOnlyKeys(job.id());
        assertThat(s.waiting()).isEmpty();
        assertThat(s.job(job.id())).containsEntry("failedReason", "cancelled: stop").containsEntry("atm", "1");
        Map<String, String> failed = s.events().get(s.events().size() - 1);
        assertThat(failed).contains(entry("event", "failed"), entry("cancelled", "1"));
        f.assertInvariant();
    }

    @Test
    void aFlaggedJobWhoseProcessorReturnedCompletes() {
        RawJob job = takeOne("");
        cancel(job.id(), "stop");

        join(f.scripts.moveToFinished(NOW, fetch(0), List.of(complete(job.id(), job.lockToken(), "1", Retention.keepAll()))));

        assertThat(f.snap().completed()).containsOnlyKeys(job.id());
        f.assertInvariant();
    }

    @Test
    void aFlaggedJobPutBackByARateLimitFailsAsCancelled() {
        RawJob job = takeOne("");
        cancel(job.id(), "stop");

        FinishBatchResult r = join(f.scripts.moveToFinished(NOW, fetch(0),
                List.of(ScriptTypes.Finish.limited(job.id(), job.lockToken(), 1000, false))));

        assertThat(r.outcomes().get(0).state()).isEqualTo(JobState.FAILED);
        QueueSnapshot s = f.snap();
        assertThat(s.failed()).containsOnlyKeys(job.id());
        assertThat(s.waiting()).isEmpty();
        assertThat(s.meta()).doesNotContainKey("limitedUntil");
        assertThat(s.job(job.id())).containsEntry("failedReason", "cancelled: stop").containsEntry("atm", "1");
        f.assertInvariant();
    }

    @Test
    void aStalledFlaggedJobFailsAsCancelledInsteadOfGoingBack() {
        f.job("s").active("s", "w:1", 0, NOW - 1);
        cancel("s", "stop");

        StalledResult r = join(f.scripts.moveStalledJobsToWait(NOW, 5, 100));

        assertThat(r.failed()).containsExactly("s");
        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).isEmpty();
        assertThat(s.failed()).containsOnlyKeys("s");
        assertThat(s.job("s")).containsEntry("failedReason", "cancelled: stop");
        assertThat(s.events().get(0)).contains(entry("event", "failed"), entry("cancelled", "1"), entry("prev", "active"));
        f.assertInvariant();
    }

    @Test
    void aRetryOfACancelledJobForgetsTheCancel() {
        RawJob job = takeOne("");
        cancel(job.id(), "stop");
        join(f.scripts.moveToFinished(NOW, fetch(0), List.of(complete(job.id(), job.lockToken(), "1", Retention.keepAll()))));

        join(f.scripts.retryJob(job.id(), JobState.COMPLETED));

        assertThat(f.snap().job(job.id())).doesNotContainKey("cancel");
    }

    private GroupScripts groupsOf() {
        return new GroupScripts(f.redisson, f.k);
    }
}
