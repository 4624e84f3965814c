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

import io.bullpen.JobNotFoundException;
import io.bullpen.JobState;
import io.bullpen.LockLostException;
import io.bullpen.Retention;
import io.bullpen.internal.ScriptTypes.FinishBatchResult;
import io.bullpen.internal.ScriptTypes.FinishOutcome;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** moveToFinished with several results in one call (the worker's group commit). */
@BullpenTest
class MoveToFinishedBatchScriptTest {
    private ScriptFixture f;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
    }

    private void active(String id, String token, String... fields) {
        f.job(id, fields).active(id, token, LOCK_MS, NOW + LOCK_MS);
    }

    @Test
    void eachResultIsAppliedInOrderWithItsOwnOutcome() {
        active("a", "w:1");
        active("b", "w:2", "atm", "0");
        active("c", "w:3", "atm", "2");

        FinishBatchResult r = join(f.scripts.moveToFinished(NOW, fetch(0), List.of(
                complete("a", "w:1", "\"A\"", Retention.keepAll()),
                fail("b", "w:2", "retry me", 3, 500, false),
                fail("c", "w:3", "give up", 3, 500, false, 2))));

        assertThat(r.outcomes()).extracting(FinishOutcome::state)
                .containsExactly(JobState.COMPLETED, JobState.DELAYED, JobState.FAILED);
        assertThat(r.outcomes()).extracting(FinishOutcome::error).containsOnlyNulls();
        assertThat(r.next().jobs()).isEmpty();
        QueueSnapshot s = f.snap();
        assertThat(s.completed()).containsOnly(entry("a", (double) NOW));
        assertThat(s.failed()).containsOnly(entry("c", (double) NOW));
        assertThat(s.delayed()).containsOnlyKeys("b");
        assertThat(s.active()).isEmpty();
        assertThat(s.leases()).isEmpty();
        assertThat(s.lock("a")).isNull();
        assertThat(s.lock("b")).isNull();
        assertThat(s.lock("c")).isNull();
        assertThat(s.job("a")).contains(entry("returnValue", "\"A\""), entry("atm", "1"));
        assertThat(s.job("b")).contains(entry("failedReason", "retry me"), entry("atm", "1"));
        assertThat(s.job("c")).contains(entry("failedReason", "give up"), entry("atm", "3"),
                entry("finishedOn", Long.toString(NOW)));
        assertThat(s.eventNames()).containsExactly("completed", "retrying", "failed");
        assertThat(s.meta()).contains(entry("mc:completed", "1"), entry("mc:failed", "1"));
        f.assertInvariant();
    }

    @Test
    void aRejectedResultChangesNothingAndDoesNotStopTheOthers() {
        active("held", "w:other");
        f.job("expired").active("expired", "w:1", 0, NOW - 1);
        active("ok", "w:1");

        FinishBatchResult r = join(f.scripts.moveToFinished(NOW, fetch(0), List.of(
                complete("held", "w:1", "1", Retention.keepAll()),
                complete("expired", "w:1", "1", Retention.keepAll()),
                complete("ghost", "w:1", "1", Retention.keepAll()),
                complete("ok", "w:1", "1", Retention.keepAll()))));

        assertThat(r.outcomes().get(0).error()).isInstanceOfSatisfying(LockLostException.class,
                e -> assertThat(e.reason()).isEqualTo(LockLostException.Reason.HELD_BY_ANOTHER));
        assertThat(r.outcomes().get(1).error()).isInstanceOfSatisfying(LockLostException.class,
                e -> assertThat(e.reason()).isEqualTo(LockLostException.Reason.MISSING));
        assertThat(r.outcomes().get(2).error()).isInstanceOf(JobNotFoundException.class);
        assertThat(r.outcomes().get(3).state()).isEqualTo(JobState.COMPLETED);
        QueueSnapshot s = f.snap();
        assertThat(s.completed()).containsOnlyKeys("ok");
        assertThat(s.active()).containsExactlyInAnyOrder("held", "expired");
        assertThat(s.lock("held")).isEqualTo("w:other");
        assertThat(s.leases()).containsOnlyKeys("held", "expired");
        assertThat(s.job("held")).doesNotContainKeys("atm", "finishedOn");
        assertThat(s.eventNames()).containsExactly("completed");
        assertThat(s.meta()).containsEntry("mc:completed", "1");
    }

    @Test
    void theSameJobTwiceInOneCallIsRecordedOnce() {
        active("a", "w:1");

        FinishBatchResult r = join(f.scripts.moveToFinished(NOW, fetch(0), List.of(
                complete("a", "w:1", "1", Retention.keepAll()),
                fail("a", "w:1", "late", 3, 0, false))));

        assertThat(r.outcomes().get(0).state()).isEqualTo(JobState.COMPLETED);
        assertThat(r.outcomes().get(1).error()).isInstanceOfSatisfying(LockLostException.class,
                e -> assertThat(e.reason()).isEqualTo(LockLostException.Reason.MISSING));
        QueueSnapshot s = f.snap();
        assertThat(s.job("a")).containsEntry("atm", "1").doesNotContainKey("failedReason");
        assertThat(s.waiting()).isEmpty();
        assertThat(s.eventNames()).containsExactly("completed");
    }

    @Test
    void retentionIsAppliedToTheWholeBatch() {
        for (String id : List.of("old1", "old2")) {
            f.job(id, "finishedOn", Long.toString(NOW - 10)).zadd(f.k.completed(), id, NOW - 10);
        }
        List<String> ids = List.of("j1", "j2", "j3", "j4");
        ids.forEach(id -> active(id, "w:1"));

        join(f.scripts.moveToFinished(NOW, fetch(0), ids.stream()
                .map(id -> complete(id, "w:1", "1", Retention.keepLast(3))).toList()));

        QueueSnapshot s = f.snap();
        assertThat(s.completed()).hasSize(3);
        assertThat(s.completed()).doesNotContainKeys("old1", "old2");
        assertThat(s.jobIds()).doesNotContain("old1", "old2");
        assertThat(s.jobIds().stream().filter(ids::contains)).hasSize(3);
        assertThat(s.meta()).containsEntry("mc:completed", "4");
        f.assertInvariant();
    }

    @Test
    void aJobKeptByNoPolicyIsDeletedWhileTheOthersAreKept() {
        active("gone", "w:1");
        active("kept", "w:1");

        join(f.scripts.moveToFinished(NOW, fetch(0), List.of(
                complete("gone", "w:1", "1", Retention.keepNone()),
                complete("kept", "w:1", "1", Retention.keepAll()))));

        QueueSnapshot s = f.snap();
        assertThat(s.completed()).containsOnlyKeys("kept");
        assertThat(s.jobIds()).containsExactly("kept");
        assertThat(s.events()).singleElement().satisfies(e -> assertThat(e)
                .as("the call's completed events are one entry")
                .containsEntry("event", "completed").containsEntry("jobId", "gone kept")
                .containsEntry("returnValue:gone", "1").containsEntry("returnValue:kept", "1")
                .doesNotContainKey("jobIds"));
    }

    @Test
    void aNullReturnValueIsLeftOutOfTheSharedCompletedEntry() {
        active("x", "w:1");
        active("y", "w:1");

        join(f.scripts.moveToFinished(NOW, fetch(0), List.of(
                complete("x", "w:1", "null", Retention.keepAll()),
                complete("y", "w:1", "[2]", Retention.keepAll()))));

        assertThat(f.snap().events()).singleElement().satisfies(e -> assertThat(e)
                .containsEntry("jobId", "x y").containsEntry("returnValue:y", "[2]")
                .doesNotContainKey("returnValue:x"));
    }

    @Test
    void theCallTakesUpToOneNewJobPerResultAndReportsWakeTimesWhenShort() {
        active("a", "w:1");
        active("b", "w:1");
        active("c", "w:1");
        f.job("n1").job("n2").waiting("n2", "n1");

        FinishBatchResult r = join(f.scripts.moveToFinished(NOW, fetch(3), List.of(
                complete("a", "w:1", "1", Retention.keepAll()),
                complete("b", "w:1", "1", Retention.keepAll()),
                complete("c", "w:1", "1", Retention.keepAll()))));

        assertThat(r.next().jobs()).extracting(RawJob::id).containsExactly("n1", "n2");
        assertThat(r.next().nextLeaseExpiry()).as("came up short: the worker needs its wake times")
                .isEqualTo(NOW + LOCK_MS);
        QueueSnapshot s = f.snap();
        assertThat(s.active()).containsExactlyInAnyOrder("n1", "n2");
        assertThat(s.leases()).containsOnlyKeys("n1", "n2");
        assertThat(s.eventNames()).containsExactly("completed", "active", "drained");
        assertThat(s.events().get(0)).containsEntry("jobId", "a b c").containsEntry("returnValue:b", "1");
        assertThat(s.events().get(1)).containsEntry("jobId", "n1 n2");
        f.assertInvariant();
    }

    @Test
    void theSingleResultFormThrowsTheRejection() {
        active("a", "w:other");

        assertThatThrownBy(() -> join(f.scripts.moveToFinished(NOW, fetch(0), complete("a", "w:1", "1", Retention.keepAll()))))
                .isInstanceOf(LockLostException.class);
        assertThatThrownBy(() -> f.scripts.moveToFinished(NOW, fetch(0), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
