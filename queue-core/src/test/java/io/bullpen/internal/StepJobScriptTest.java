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

import io.bullpen.JobState;
import io.bullpen.LockLostException;
import io.bullpen.Retention;
import io.bullpen.internal.ScriptTypes.Finish;
import io.bullpen.internal.ScriptTypes.FinishBatchResult;
import io.bullpen.internal.ScriptTypes.FinishResult;
import io.bullpen.internal.ScriptTypes.NewJob;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** moveToFinished's step outcome and the staged data that rides on completed and failed records. */
@BullpenTest
class StepJobScriptTest {
    private ScriptFixture f;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
    }

    private void activeJob(String... fields) {
        f.job("a", fields).active("a", "w:1", LOCK_MS, NOW + LOCK_MS);
    }

    @Test
    void aStepMovesTheJobToDelayedWithItsStagedDataWithoutUsingAnAttempt() {
        activeJob("ats", "2", "atm", "1", "data", "{\"step\":1}", "processedOn", Long.toString(NOW - 10));

        FinishResult r = join(f.scripts.moveToFinished(NOW, fetch(0), Finish.step("a", "w:1", NOW + 5000, "{\"step\":2}")));

        assertThat(r.state()).isEqualTo(JobState.DELAYED);
        QueueSnapshot s = f.snap();
        assertThat(s.delayed()).containsOnly(entry("a", (NOW + 5000) * 4096.0 + 1));
        assertThat(s.job("a")).contains(entry("data", "{\"step\":2}"), entry("ats", "1"), entry("atm", "1"),
                entry("processedOn", Long.toString(NOW - 10)));
        assertThat(s.job("a")).doesNotContainKeys("finishedOn", "failedReason", "returnValue");
        assertThat(s.lock("a")).isNull();
        assertThat(s.leases()).isEmpty();
        assertThat(s.zset("marker")).containsOnly(entry("0", (double) (NOW + 5000)));
        assertThat(s.eventNames()).containsExactly("dataUpdated", "delayed");
        assertThat(s.events().get(1)).contains(entry("jobId", "a"), entry("delay", "5000"), entry("prev", "active"));
        f.assertInvariant();
    }

    @Test
    void aStepWithoutStagedDataKeepsTheData() {
        activeJob("ats", "1", "data", "{\"step\":1}");

        join(f.scripts.moveToFinished(NOW, fetch(0), Finish.step("a", "w:1", NOW + 100, null)));

        QueueSnapshot s = f.snap();
        assertThat(s.job("a")).containsEntry("data", "{\"step\":1}").containsEntry("ats", "0");
        assertThat(s.eventNames()).containsExactly("delayed");
        f.assertInvariant();
    }

    @Test
    void aStepIsLockCheckedAndARejectedOneChangesNothing() {
        activeJob("ats", "1", "data", "{\"step\":1}");

        assertThatThrownBy(() -> join(f.scripts.moveToFinished(NOW, fetch(0),
                Finish.step("a", "w:2", NOW + 100, "{\"step\":2}")))).isInstanceOf(LockLostException.class);

        QueueSnapshot s = f.snap();
        assertThat(s.job("a")).containsEntry("data", "{\"step\":1}").containsEntry("ats", "1");
        assertThat(s.lock("a")).isEqualTo("w:1");
        assertThat(s.delayed()).isEmpty();
        assertThat(s.events()).isEmpty();
    }

    @Test
    void aStepDueInThePastIsTakenByTheSameCallsFetch() {
        activeJob("ats", "1");

        FinishBatchResult r = join(f.scripts.moveToFinished(NOW, fetch(1),
                List.of(Finish.step("a", "w:1", NOW - 1, "{\"step\":2}"))));

        assertThat(r.outcomes().get(0).state()).isEqualTo(JobState.DELAYED);
        assertThat(r.next().jobs()).extracting(RawJob::id).containsExactly("a");
        assertThat(r.next().jobs().get(0).hash()).containsEntry("data", "{\"step\":2}").containsEntry("ats", "1");
        f.assertInvariant();
    }

    @Test
    void stagedDataIsWrittenWithACompletionAndWithAFailure() {
        f.job("c", "ats", "1", "data", "{\"step\":1}").active("c", "w:1", LOCK_MS, NOW + LOCK_MS);
        f.job("r", "ats", "1", "data", "{\"step\":1}").active("r", "w:2", LOCK_MS, NOW + LOCK_MS);

        FinishBatchResult r = join(f.scripts.moveToFinished(NOW, fetch(0), List.of(
                complete("c", "w:1", "\"ok\"", Retention.keepAll()).withStagedData("{\"step\":3}"),
                fail("r", "w:2", "boom", 3, 1000, false).withStagedData("{\"step\":2}"))));

        assertThat(r.outcomes()).extracting(o -> o.state()).containsExactly(JobState.COMPLETED, JobState.DELAYED);
        QueueSnapshot s = f.snap();
        assertThat(s.job("c")).contains(entry("data", "{\"step\":3}"), entry("atm", "1"), entry("returnValue", "\"ok\""));
        // The retry starts from the last step.
        assertThat(s.job("r")).contains(entry("data", "{\"step\":2}"), entry("atm", "1"), entry("failedReason", "boom"));
        assertThat(s.eventNames()).containsExactly("dataUpdated", "completed", "dataUpdated", "retrying");
        f.assertInvariant();
    }

    @Test
    void aGroupedStepFreesItsGroupSlotAndReturnsToItsGroupWhenDue() {
        join(f.scripts.addJob(NOW, List.of(new NewJob(null, "g", "{}", "", 0, 0, false, "acme"))));
        RawJob taken = join(f.scripts.moveToActive(NOW, fetch(1))).jobs().get(0);
        assertThat(f.snap().hash("groupmeta:acme")).containsEntry("active", "1");

        join(f.scripts.moveToFinished(NOW, fetch(0), Finish.step("1", taken.lockToken(), NOW + 1000, "{\"n\":2}")));

        QueueSnapshot s = f.snap();
        assertThat(s.delayed()).containsOnlyKeys("1");
        assertThat(s.hash("groupmeta:acme")).doesNotContainKey("active");
        f.assertInvariant();
        RawJob again = join(f.scripts.moveToActive(NOW + 1000, fetch(1))).jobs().get(0);
        assertThat(again.id()).isEqualTo("1");
        assertThat(again.hash()).containsEntry("data", "{\"n\":2}").containsEntry("ats", "1");
        assertThat(f.snap().hash("groupmeta:acme")).containsEntry("active", "1");
        f.assertInvariant();
    }
}
