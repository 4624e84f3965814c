package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.NOW;
import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.bullpen.JobState;
import io.bullpen.internal.AdminScripts.MoveChunk;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** retryJobs and promoteJobs: bounded chunks, the same per-job change as retryJob and promote. */
@BullpenTest
class RetryAndPromoteJobsScriptTest {
    private ScriptFixture f;
    private AdminScripts admin;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
        admin = new AdminScripts(ctx.redisson(), f.k);
    }

    /** A finished job as retryJob finds it. */
    private void finished(JobState state, String id, long finishedOn, String... extra) {
        f.job(id, "atm", "3", "stc", "1", "finishedOn", Long.toString(finishedOn),
                "failedReason", "boom", "returnValue", "42", "stacktrace", "[\"t\"]");
        if (extra.length > 0) {
            f.job(id, extra);
        }
        f.zadd(f.k.stateKey(state), id, finishedOn);
    }

    @ParameterizedTest
    @EnumSource(value = JobState.class, names = {"FAILED", "COMPLETED"})
    void retryJobsRetriesTheOldestFinishedFirstWithFreshAttemptsUpToTheLimit(JobState state) {
        finished(state, "x1", NOW - 30);
        finished(state, "x2", NOW - 20, "priority", "5");
        finished(state, "x3", NOW - 10);

        MoveChunk c = join(admin.retryJobs(state, 2));

        assertThat(c).isEqualTo(new MoveChunk(2, 2));
        QueueSnapshot s = f.snap();
        assertThat(s.zset(state.key())).containsOnlyKeys("x3");
        assertThat(s.waiting()).containsExactly("x1");
        assertThat(s.prioritized()).containsOnlyKeys("x2");
        for (String id : new String[] {"x1", "x2"}) {
            assertThat(s.job(id)).contains(entry("atm", "0"), entry("stc", "0"), entry("stacktrace", "[\"t\"]"))
                    .doesNotContainKeys("finishedOn", "failedReason", "returnValue");
        }
        assertThat(s.events()).extracting(e -> e.get("event") + " " + e.get("jobId") + " " + e.get("prev"))
                .containsExactly("waiting x1 " + state.label(), "waiting x2 " + state.label());
        assertThat(s.zset("marker")).containsOnly(entry("0", 0.0));
        f.assertInvariant();

        assertThat(join(admin.retryJobs(state, 2))).isEqualTo(new MoveChunk(1, 1));
        assertThat(join(admin.retryJobs(state, 2))).isEqualTo(new MoveChunk(0, 0));
        assertThat(f.snap().waiting()).containsExactly("x3", "x1"); // x1 runs first
    }

    @Test
    void retryJobsDropsAnIdWithoutAHashInsteadOfRetryingIt() {
        finished(JobState.FAILED, "x", NOW);
        f.zadd(f.k.failed(), "ghost", NOW - 1);

        assertThat(join(admin.retryJobs(JobState.FAILED, 10))).isEqualTo(new MoveChunk(1, 2));

        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).containsExactly("x");
        assertThat(s.jobIds()).containsExactly("x");
        f.assertInvariant();
    }

    @Test
    void retryJobsOfAPausedQueueDoesNotWakeWorkers() {
        finished(JobState.FAILED, "x", NOW);
        f.meta("paused", "1");

        join(admin.retryJobs(JobState.FAILED, 10));

        assertThat(f.snap().exists("marker")).isFalse();
        assertThat(f.snap().waiting()).containsExactly("x");
    }

    @Test
    void promoteJobsMovesDelayedJobsEarliestDueFirstAndClearsTheirDelay() {
        f.job("late", "delay", "9000").delayed("late", NOW + 9000)
                .job("soon", "delay", "1000").delayed("soon", NOW + 1000)
                .job("prio", "delay", "5000", "priority", "2").delayed("prio", NOW + 5000);

        MoveChunk c = join(admin.promoteJobs(2));

        assertThat(c).isEqualTo(new MoveChunk(2, 2));
        QueueSnapshot s = f.snap();
        assertThat(s.delayed()).containsOnlyKeys("late");
        assertThat(s.waiting()).containsExactly("soon");
        assertThat(s.prioritized()).containsOnlyKeys("prio");
        assertThat(s.job("soon")).containsEntry("delay", "0");
        assertThat(s.job("prio")).contains(entry("delay", "0"), entry("priority", "2"));
        assertThat(s.events()).extracting(e -> e.get("event") + " " + e.get("jobId") + " " + e.get("prev"))
                .containsExactly("waiting soon delayed", "waiting prio delayed");
        assertThat(s.zset("marker")).containsOnly(entry("0", 0.0));
        f.assertInvariant();

        assertThat(join(admin.promoteJobs(2))).isEqualTo(new MoveChunk(1, 1));
        assertThat(f.snap().waiting()).containsExactly("late", "soon");
    }

    @Test
    void promoteJobsOnAnEmptyDelayedSetDoesNothing() {
        assertThat(join(admin.promoteJobs(10))).isEqualTo(new MoveChunk(0, 0));
        assertThat(f.snap().keys()).isEmpty();
    }

    @Test
    void retryJobStillRetriesOneJobThroughTheSharedInclude() {
        finished(JobState.FAILED, "x", NOW, "priority", "7");

        join(f.scripts.retryJob("x", JobState.FAILED));

        QueueSnapshot s = f.snap();
        assertThat(s.prioritized()).containsOnlyKeys("x");
        assertThat(s.job("x")).containsEntry("atm", "0").doesNotContainKey("returnValue");
        assertThat(s.events()).singleElement().satisfies(e -> assertThat(e).isEqualTo(Map.of(
                "_id", e.get("_id"), "event", "waiting", "jobId", "x", "prev", "failed")));
    }
}
