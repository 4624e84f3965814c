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
import io.bullpen.internal.ScriptTypes.Finish;
import io.bullpen.internal.ScriptTypes.FinishResult;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@BullpenTest
class MoveToFinishedScriptTest {
    private ScriptFixture f;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
    }

    /** An active job "a" holding lock "w:1", with the given extra hash fields. */
    private void activeJob(String... fields) {
        f.job("a", fields).active("a", "w:1", LOCK_MS, NOW + LOCK_MS);
    }

    @Test
    void completedJobMovesToCompletedWithItsReturnValue() {
        activeJob("ats", "1");

        FinishResult r = join(f.scripts.moveToFinished(NOW, fetch(0), complete("a", "w:1", "\"done\"", Retention.keepAll())));

        assertThat(r.state()).isEqualTo(JobState.COMPLETED);
        assertThat(r.next().jobs()).isEmpty();
        QueueSnapshot s = f.snap();
        assertThat(s.completed()).containsOnly(entry("a", (double) NOW));
        assertThat(s.job("a")).contains(entry("finishedOn", Long.toString(NOW)), entry("returnValue", "\"done\""),
                entry("atm", "1"));
        assertThat(s.active()).isEmpty();
        assertThat(s.leases()).isEmpty();
        assertThat(s.lock("a")).isNull();
        assertThat(s.eventNames()).containsExactly("completed");
        assertThat(s.events().get(0)).containsEntry("returnValue", "\"done\"");
        f.assertInvariant();
    }

    static Stream<Arguments> lockErrors() {
        return Stream.of(
                Arguments.of("missing job", "zzz", "w:1", JobNotFoundException.class, null),
                Arguments.of("lock held by another token", "a", "w:2", LockLostException.class, LockLostException.Reason.HELD_BY_ANOTHER));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lockErrors")
    void tokenCheckRejectsAndChangesNothing(String label, String id, String token, Class<? extends Exception> error,
                                            LockLostException.Reason reason) {
        activeJob();
        QueueSnapshot before = f.snap();

        assertThatThrownBy(() -> join(f.scripts.moveToFinished(NOW, fetch(0), complete(id, token, "1", Retention.keepAll()))))
                .isInstanceOf(error)
                .satisfies(e -> {
                    if (reason != null) {
                        assertThat(((LockLostException) e).reason()).isEqualTo(reason);
                    }
                });
        QueueSnapshot after = f.snap();
        assertThat(after.active()).isEqualTo(before.active());
        assertThat(after.leases()).isEqualTo(before.leases());
        assertThat(after.lock("a")).isEqualTo(before.lock("a"));
        assertThat(after.job("a")).isEqualTo(before.job("a"));
        assertThat(after.events()).isEmpty();
    }

    @Test
    void lockMissingIsReportedDistinctly() {
        // The lock field gone without a finish of this token (recovered, or a renewal found the lease expired).
        activeJob();
        f.redisson.getMap(f.k.job("a"), org.redisson.client.codec.StringCodec.INSTANCE).fastRemove("lock");

        assertThatThrownBy(() -> join(f.scripts.moveToFinished(NOW, fetch(0), complete("a", "w:1", "1", Retention.keepAll()))))
                .isInstanceOfSatisfying(LockLostException.class,
                        e -> assertThat(e.reason()).isEqualTo(LockLostException.Reason.MISSING));
    }

    static Stream<Arguments> repeatedFinishes() {
        return Stream.of(
                Arguments.of("completed", complete("a", "w:1", "1", Retention.keepAll()), JobState.COMPLETED),
                Arguments.of("failed for good", fail("a", "w:1", "boom", 1, 0, false), JobState.FAILED),
                Arguments.of("retried after a backoff", fail("a", "w:1", "boom", 3, 200, false), JobState.DELAYED),
                Arguments.of("retried at once", fail("a", "w:1", "boom", 3, 0, false), JobState.WAITING));
    }

    /**
     * A worker sends a finish again when its connection dropped before the reply: the first call
     * may have landed. The repeat changes nothing and answers where the job is, not a lost lock.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("repeatedFinishes")
    void aFinishSentAgainWithTheSameTokenAnswersTheJobsStateAndChangesNothing(String label, Finish finish,
                                                                             JobState expected) {
        activeJob();
        FinishResult first = join(f.scripts.moveToFinished(NOW, fetch(0), finish));
        QueueSnapshot before = f.snap();

        FinishResult repeat = join(f.scripts.moveToFinished(NOW + 5, fetch(0), finish));

        assertThat(first.state()).isEqualTo(expected);
        assertThat(repeat.state()).isEqualTo(expected);
        QueueSnapshot after = f.snap();
        assertThat(after.job("a")).isEqualTo(before.job("a")).containsEntry("finishedLock", "w:1");
        assertThat(after.events()).isEqualTo(before.events());
        assertThat(after.completed()).isEqualTo(before.completed());
        assertThat(after.failed()).isEqualTo(before.failed());
        assertThat(after.delayed()).isEqualTo(before.delayed());
        assertThat(after.waiting()).isEqualTo(before.waiting());
        f.assertInvariant();
    }

    @Test
    void aRepeatedFinishOfAJobAnotherWorkerTookSinceAnswersWaitingAndLeavesItsLock() {
        activeJob();
        join(f.scripts.moveToFinished(NOW, fetch(0), fail("a", "w:1", "boom", 3, 0, false)));
        RawJob taken = join(f.scripts.moveToActive(NOW + 1, new ScriptTypes.FetchArgs(1, "w2", LOCK_MS, "", 10, 0, 1, 0)))
                .jobs().get(0);

        FinishResult repeat = join(f.scripts.moveToFinished(NOW + 2, fetch(0), fail("a", "w:1", "boom", 3, 0, false)));

        assertThat(repeat.state()).isEqualTo(JobState.WAITING);
        assertThat(f.snap().lock("a")).isEqualTo(taken.lockToken());
        assertThat(f.snap().job("a")).containsEntry("atm", "1");
    }

    @Test
    void keepNoneDeletesTheJobButStillAnnouncesCompletion() {
        activeJob();
        f.redisson.getList(f.k.logs("a"), org.redisson.client.codec.StringCodec.INSTANCE).add("line");

        join(f.scripts.moveToFinished(NOW, fetch(0), complete("a", "w:1", "1", Retention.keepNone())));

        QueueSnapshot s = f.snap();
        assertThat(s.jobIds()).isEmpty();
        assertThat(s.exists("job:a:logs")).isFalse();
        assertThat(s.completed()).isEmpty();
        assertThat(s.eventNames()).containsExactly("completed");
        f.assertInvariant();
    }

    @Test
    void keepLastRemovesTheOldestFinishedJobsWithTheirData() {
        for (int i = 1; i <= 3; i++) {
            f.job("c" + i, "finishedOn", Long.toString(NOW - 100 + i)).zadd(f.k.completed(), "c" + i, NOW - 100 + i);
        }
        activeJob();

        join(f.scripts.moveToFinished(NOW, fetch(0), complete("a", "w:1", "1", Retention.keepLast(2))));

        QueueSnapshot s = f.snap();
        assertThat(s.completed().keySet()).containsExactly("c3", "a");
        assertThat(s.jobIds()).containsExactlyInAnyOrder("c3", "a");
        f.assertInvariant();
    }

    @Test
    void keepForRemovesJobsFinishedLongerAgoThanTheAge() {
        f.job("old").zadd(f.k.completed(), "old", NOW - 10_000).job("edge").zadd(f.k.completed(), "edge", NOW - 5_000)
                .job("young").zadd(f.k.completed(), "young", NOW - 4_999);
        activeJob();

        join(f.scripts.moveToFinished(NOW, fetch(0), complete("a", "w:1", "1", Retention.keepFor(Duration.ofSeconds(5)))));

        assertThat(f.snap().completed().keySet()).containsExactly("young", "a");
        f.assertInvariant();
    }

    static Stream<Arguments> failures() {
        // label, attempts, attemptsMade before, backoffMs, unrecoverable, expected state
        return Stream.of(
                Arguments.of("attempts left, backoff -> delayed", 3, 0, 200L, false, JobState.DELAYED),
                Arguments.of("attempts left, no backoff -> waiting", 3, 0, 0L, false, JobState.WAITING),
                Arguments.of("last attempt -> failed", 3, 2, 200L, false, JobState.FAILED),
                Arguments.of("single attempt -> failed", 1, 0, 0L, false, JobState.FAILED),
                Arguments.of("unrecoverable -> failed at once", 5, 0, 200L, true, JobState.FAILED));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failures")
    void failureRetriesOrFails(String label, int attempts, int madeBefore, long backoffMs, boolean unrecoverable,
                               JobState expected) {
        activeJob("atm", Integer.toString(madeBefore));

        FinishResult r = join(f.scripts.moveToFinished(NOW, fetch(0), fail("a", "w:1", "boom", attempts, backoffMs, unrecoverable,
                madeBefore)));

        assertThat(r.state()).isEqualTo(expected);
        QueueSnapshot s = f.snap();
        assertThat(s.job("a")).contains(entry("failedReason", "boom"), entry("atm", Integer.toString(madeBefore + 1)),
                entry("stacktrace", "[\"trace of boom\"]"));
        assertThat(s.lock("a")).isNull();
        assertThat(s.leases()).isEmpty();
        switch (expected) {
            case DELAYED -> {
                assertThat(s.delayed()).containsOnlyKeys("a");
                assertThat(Math.floor(s.delayed().get("a") / 4096)).isEqualTo((double) (NOW + backoffMs));
                assertThat(s.zset("marker")).containsOnly(entry("0", (double) (NOW + backoffMs)));
                assertThat(s.eventNames()).containsExactly("retrying");
                assertThat(s.events().get(0)).contains(entry("delay", Long.toString(backoffMs)), entry("attemptsMade", "1"));
            }
            case WAITING -> {
                assertThat(s.waiting()).containsExactly("a");
                assertThat(s.eventNames()).containsExactly("retrying");
            }
            case FAILED -> {
                assertThat(s.failed()).containsOnly(entry("a", (double) NOW));
                assertThat(s.job("a")).containsEntry("finishedOn", Long.toString(NOW));
                assertThat(s.eventNames()).containsExactly("failed");
            }
            default -> throw new AssertionError(expected);
        }
        f.assertInvariant();
    }

    @Test
    void stacktracesAreCappedKeepingTheNewest() {
        activeJob("stacktrace", "[\"t1\",\"t2\",\"t3\"]");

        join(f.scripts.moveToFinished(NOW, fetch(0), fail("a", "w:1", "t4", 5, 0, false)));

        assertThat(f.snap().job("a")).containsEntry("stacktrace", "[\"t2\",\"t3\",\"trace of t4\"]");
    }

    @Test
    void lifoRetryRunsNext() {
        f.job("other").waiting("other");
        activeJob("atm", "0");
        Finish lifo = new Finish.Retry("a", "w:1", 1, "x", null, 0, 0, true, null, null, Retention.keepAll(), null, 0);

        join(f.scripts.moveToFinished(NOW, fetch(0), lifo));

        assertThat(f.snap().waiting()).containsExactly("other", "a");
    }

    @Test
    void finishingCanTakeTheNextJobInTheSameCall() {
        activeJob();
        f.job("n1").job("n2").waiting("n2", "n1");

        FinishResult r = join(f.scripts.moveToFinished(NOW, fetch(2), complete("a", "w:1", "1", Retention.keepAll())));

        assertThat(r.next().jobs()).extracting(RawJob::id).containsExactly("n1", "n2");
        assertThat(r.next().nextLeaseExpiry()).as("took all it asked for: no wake times").isEqualTo(-1);
        QueueSnapshot s = f.snap();
        assertThat(s.active()).containsExactlyInAnyOrder("n1", "n2");
        assertThat(s.eventNames()).containsExactly("completed", "active", "drained");
        assertThat(s.events().get(0)).containsEntry("jobId", "a").containsEntry("returnValue", "1");
        assertThat(s.events().get(1)).as("the jobs taken in one call share one active entry")
                .containsEntry("jobId", "n1 n2");
        f.assertInvariant();
    }
}
