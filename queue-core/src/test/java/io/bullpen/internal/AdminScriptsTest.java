package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.LOCK_MS;
import static io.bullpen.internal.ScriptFixture.NOW;
import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.bullpen.JobCounts;
import io.bullpen.JobLockedException;
import io.bullpen.JobNotFoundException;
import io.bullpen.JobState;
import io.bullpen.JobStateException;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** promote, retryJob, removeJob, pause, getCounts, getJobs, getState, updateProgress, addLog, connectedReplicas. */
@BullpenTest
class AdminScriptsTest {
    private ScriptFixture f;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
    }

    @Test
    void promoteMovesADelayedJobToWaitNow() {
        f.job("d", "delay", "60000").delayed("d", NOW + 60_000);

        join(f.scripts.promote("d"));

        QueueSnapshot s = f.snap();
        assertThat(s.delayed()).isEmpty();
        assertThat(s.waiting()).containsExactly("d");
        assertThat(s.job("d")).containsEntry("delay", "0");
        assertThat(s.events().get(0)).contains(entry("event", "waiting"), entry("prev", "delayed"));
        assertThat(s.zset("marker")).containsOnly(entry("0", 0.0));
        f.assertInvariant();
    }

    @Test
    void promoteKeepsPriority() {
        f.job("d", "priority", "9").delayed("d", NOW + 60_000);

        join(f.scripts.promote("d"));

        assertThat(f.snap().prioritized()).containsOnlyKeys("d");
    }

    @Test
    void promoteRejectsUnknownAndNonDelayedJobs() {
        f.job("w").waiting("w");

        assertThatThrownBy(() -> join(f.scripts.promote("nope"))).isInstanceOf(JobNotFoundException.class)
                .hasMessageContaining("nope");
        assertThatThrownBy(() -> join(f.scripts.promote("w"))).isInstanceOf(JobStateException.class)
                .hasMessageContaining("w");
        assertThat(f.snap().waiting()).containsExactly("w");
    }

    @Test
    void retryMovesAFailedJobToWaitWithFreshAttempts() {
        f.job("x", "atm", "3", "stc", "1", "finishedOn", "5", "failedReason", "boom",
                "stacktrace", "[\"t\"]").zadd(f.k.failed(), "x", 5);

        join(f.scripts.retryJob("x", JobState.FAILED));

        QueueSnapshot s = f.snap();
        assertThat(s.failed()).isEmpty();
        assertThat(s.waiting()).containsExactly("x");
        assertThat(s.job("x")).contains(entry("atm", "0"), entry("stc", "0"), entry("stacktrace", "[\"t\"]"))
                .doesNotContainKeys("finishedOn", "failedReason");
        assertThat(s.events().get(0)).contains(entry("event", "waiting"), entry("prev", "failed"));
        f.assertInvariant();
    }

    @Test
    void retryRejectsAJobThatIsNotFailed() {
        f.job("w").waiting("w");

        assertThatThrownBy(() -> join(f.scripts.retryJob("w", JobState.FAILED))).isInstanceOf(JobStateException.class);
        assertThatThrownBy(() -> join(f.scripts.retryJob("nope", JobState.FAILED))).isInstanceOf(JobNotFoundException.class);
    }

    @ParameterizedTest
    @EnumSource(value = JobState.class, names = {"WAITING", "PRIORITIZED", "DELAYED", "COMPLETED", "FAILED"})
    void removeDeletesAJobInAnyUnlockedState(JobState state) {
        f.job("j");
        switch (state) {
            case WAITING -> f.waiting("j");
            case PRIORITIZED -> f.zadd(f.k.prioritized(), "j", 4294967296.0);
            case DELAYED -> f.delayed("j", NOW + 1000);
            case COMPLETED -> f.zadd(f.k.completed(), "j", NOW);
            case FAILED -> f.zadd(f.k.failed(), "j", NOW);
            default -> throw new AssertionError(state);
        }
        f.redisson.getList(f.k.logs("j"), org.redisson.client.codec.StringCodec.INSTANCE).add("line");

        assertThat(join(f.scripts.removeJob("j"))).isTrue();

        QueueSnapshot s = f.snap();
        assertThat(s.keys()).containsOnly("events");
        assertThat(s.events().get(0)).contains(entry("event", "removed"), entry("jobId", "j"), entry("prev", state.label()));
    }

    @Test
    void removeRefusesALockedActiveJobButTakesOneWhoseLockLapsed() {
        f.job("locked").active("locked", "w:1", LOCK_MS, NOW + LOCK_MS).job("lapsed").active("lapsed", "w:2", 0, NOW - 1);

        assertThatThrownBy(() -> join(f.scripts.removeJob("locked"))).isInstanceOf(JobLockedException.class)
                .hasMessageContaining("locked");
        assertThat(join(f.scripts.removeJob("lapsed"))).isTrue();

        QueueSnapshot s = f.snap();
        assertThat(s.active()).containsExactly("locked");
        assertThat(s.leases()).containsOnlyKeys("locked");
        assertThat(s.keys()).doesNotContain("job:lapsed");
        assertThat(s.events()).singleElement().satisfies(e -> assertThat(e).contains(entry("event", "removed"),
                entry("jobId", "lapsed"), entry("prev", "active")));
        f.assertInvariant();
    }

    @Test
    void removeOfAnUnknownJobReturnsFalse() {
        assertThat(join(f.scripts.removeJob("nope"))).isFalse();
    }

    @Test
    void pauseAndResumeAreIdempotentAndAnnounced() {
        f.zadd(f.k.marker(), "0", 0);

        assertThat(join(f.scripts.pause(true))).isTrue();
        assertThat(join(f.scripts.pause(true))).isFalse();
        QueueSnapshot paused = f.snap();
        assertThat(paused.meta()).containsEntry("paused", "1");
        assertThat(paused.exists("marker")).isFalse();

        assertThat(join(f.scripts.pause(false))).isTrue();
        assertThat(join(f.scripts.pause(false))).isFalse();
        QueueSnapshot resumed = f.snap();
        assertThat(resumed.meta()).doesNotContainKey("paused");
        assertThat(resumed.zset("marker")).containsOnly(entry("0", 0.0));
        assertThat(resumed.eventNames()).containsExactly("paused", "resumed");
    }

    @Test
    void getCountsReadsEveryStateAndThePausedFlag() {
        f.job("w1").job("w2").waiting("w2", "w1").job("p").zadd(f.k.prioritized(), "p", 1).job("d").delayed("d", NOW)
                .job("a").active("a", "w:1", LOCK_MS, NOW + LOCK_MS).job("c").zadd(f.k.completed(), "c", 1)
                .job("f1").zadd(f.k.failed(), "f1", 1).job("f2").zadd(f.k.failed(), "f2", 2).meta("paused", "1");

        assertThat(join(f.scripts.getCounts())).isEqualTo(new JobCounts(2, 1, 1, 1, 1, 2, true));
    }

    @Test
    void connectedReplicasCountsTheReplicasOfTheQueuesMasterAndWritesNothing(io.bullpen.testing.TestRedis redis) {
        org.junit.jupiter.api.Assumptions.assumeFalse(redis.isCluster(), "the cluster's masters have a replica each");

        assertThat(join(f.scripts.connectedReplicas())).isZero();
        assertThat(f.snap().keys()).isEmpty();
    }

    @Test
    void getJobsPagesEachStateInItsNaturalOrder() {
        for (int i = 1; i <= 4; i++) {
            f.job("c" + i).zadd(f.k.completed(), "c" + i, i);
            f.job("d" + i).delayed("d" + i, NOW + 10 - i);
        }
        f.job("w1").job("w2").waiting("w2", "w1");
        f.job("a1").active("a1", "w:1", LOCK_MS, NOW + LOCK_MS).job("a2").active("a2", "w:2", LOCK_MS, NOW + LOCK_MS + 5)
                .job("a0").active("a0", "w:3", LOCK_MS, NOW + LOCK_MS - 5);

        // Active comes from leases: the latest lock expiry (most recently taken or extended) first.
        assertThat(join(f.scripts.getJobs(JobState.ACTIVE, 0, -1))).extracting(RawJob::id).containsExactly("a2", "a1", "a0");
        assertThat(join(f.scripts.getJobs(JobState.ACTIVE, 1, 1))).extracting(RawJob::id).containsExactly("a1");
        assertThat(join(f.scripts.getJobs(JobState.COMPLETED, 0, 1))).extracting(RawJob::id).containsExactly("c4", "c3");
        assertThat(join(f.scripts.getJobs(JobState.COMPLETED, 2, -1))).extracting(RawJob::id).containsExactly("c2", "c1");
        assertThat(join(f.scripts.getJobs(JobState.DELAYED, 0, -1))).extracting(RawJob::id).containsExactly("d4", "d3", "d2", "d1");
        List<RawJob> waiting = join(f.scripts.getJobs(JobState.WAITING, 0, -1));
        assertThat(waiting).extracting(RawJob::id).containsExactly("w2", "w1");
        assertThat(waiting.get(0).hash()).containsEntry("name", "job-w2");
    }

    @Test
    void getStateFindsEveryState() {
        f.job("w").waiting("w").job("p").zadd(f.k.prioritized(), "p", 1).job("d").delayed("d", NOW)
                .job("a").active("a", "w:1", LOCK_MS, NOW + LOCK_MS).job("c").zadd(f.k.completed(), "c", 1)
                .job("f").zadd(f.k.failed(), "f", 1);

        assertThat(List.of("w", "p", "d", "a", "c", "f", "nope")).map(id -> join(f.scripts.getState(id)))
                .containsExactly(JobState.WAITING, JobState.PRIORITIZED, JobState.DELAYED, JobState.ACTIVE,
                        JobState.COMPLETED, JobState.FAILED, JobState.UNKNOWN);
    }

    @Test
    void updateProgressStoresAndAnnouncesIt() {
        f.job("a");

        join(f.scripts.updateProgress("a", "{\"pct\":50}"));

        QueueSnapshot s = f.snap();
        assertThat(s.job("a")).containsEntry("progress", "{\"pct\":50}");
        assertThat(s.events().get(0)).contains(entry("event", "progress"), entry("jobId", "a"), entry("data", "{\"pct\":50}"));
        assertThatThrownBy(() -> join(f.scripts.updateProgress("nope", "1"))).isInstanceOf(JobNotFoundException.class);
    }

    @Test
    void addLogKeepsTheNewestLines() {
        f.job("a");

        for (int i = 1; i <= 4; i++) {
            join(f.scripts.addLog("a", "line " + i, 3));
        }

        assertThat(f.snap().logs("a")).containsExactly("line 2", "line 3", "line 4");
        assertThat(join(f.scripts.addLog("a", "x", -1))).isEqualTo(4);
        assertThatThrownBy(() -> join(f.scripts.addLog("nope", "x", 3))).isInstanceOf(JobNotFoundException.class);
        assertThat(f.snap().exists("job:nope:logs")).isFalse();
    }
}
