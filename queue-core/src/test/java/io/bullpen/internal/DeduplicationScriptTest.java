package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.LOCK_MS;
import static io.bullpen.internal.ScriptFixture.NOW;
import static io.bullpen.internal.ScriptFixture.fetch;
import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.bullpen.JobState;
import io.bullpen.Retention;
import io.bullpen.internal.ScriptTypes.AddResult;
import io.bullpen.internal.ScriptTypes.Finish;
import io.bullpen.internal.ScriptTypes.NewJob;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The deduplication contract of the scripts: addJob claims {@code dedup:<id>} (claimDeduplication),
 * each mode's answer to a second add, and the release on every way a job ends or is removed.
 */
@BullpenTest
class DeduplicationScriptTest {
    private ScriptFixture f;
    private AdminScripts admin;
    private DeduplicationScripts dedup;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
        admin = new AdminScripts(ctx.redisson(), f.k);
        dedup = new DeduplicationScripts(ctx.redisson(), f.k);
    }

    private static NewJob add(String customId, String data, String dedupId, long delayMs, long ttlMs, String flags) {
        return new NewJob(customId, "n", data, "", delayMs, 0, false, null, dedupId, ttlMs, flags);
    }

    private static NewJob plain(String data) {
        return add(null, data, "d1", 0, 0, "");
    }

    private static Finish complete(String id, String token, String dedupId) {
        return new Finish.Completed(id, token, 1, "null", Retention.keepAll(), null, dedupId, null, 0);
    }

    /** A failure as a worker decides it: failed for good once {@code attempts} are made, else a retry. */
    private static Finish failure(String id, String token, String dedupId, int attempts, int attemptsMadeBefore) {
        int attemptsMade = attemptsMadeBefore + 1;
        if (attemptsMade >= attempts) {
            return new Finish.Failed(id, token, attemptsMade, "boom", null, 10, Retention.keepAll(), null, dedupId, null, 0);
        }
        return new Finish.Retry(id, token, attemptsMade, "boom", null, 10, 0, false, null, null, Retention.keepAll(),
                dedupId, 0);
    }

    private String take() {
        var taken = join(f.scripts.moveToActive(NOW, fetch(1))).jobs();
        assertThat(taken).hasSize(1);
        return taken.get(0).lockToken();
    }

    private QueueSnapshot snap() {
        return f.snap();
    }

    @Test
    void theFirstAddClaimsTheIdAndLaterAddsReturnTheOwnerWithoutAddingAJob() {
        List<AddResult> first = join(f.scripts.addJob(NOW, List.of(plain("1"))));
        List<AddResult> second = join(f.scripts.addJob(NOW + 1, List.of(add("mine", "2", "d1", 0, 0, ""))));

        assertThat(first).containsExactly(new AddResult("1", true));
        assertThat(second).containsExactly(new AddResult("1", false, true));
        QueueSnapshot s = snap();
        assertThat(s.string("dedup:d1")).isEqualTo("1");
        assertThat(s.pttl("dedup:d1")).isEqualTo(-1);
        assertThat(s.jobIds()).containsExactly("1");
        assertThat(s.job("1")).contains(entry("dedupId", "d1"), entry("data", "1"));
        Map<String, String> event = s.events().get(s.events().size() - 1);
        assertThat(event).contains(entry("event", "deduplicated"), entry("jobId", "1"), entry("deduplicationId", "d1"),
                entry("deduplicatedJobId", "mine"));
        f.assertInvariant();
    }

    @Test
    void duplicatesInsideOneBatchMakeOneJob() {
        List<AddResult> results = join(f.scripts.addJob(NOW, List.of(plain("1"), plain("2"), add(null, "3", "d2", 0, 0, ""),
                plain("4"))));

        assertThat(results).containsExactly(new AddResult("1", true), new AddResult("1", false, true),
                new AddResult("3", true), new AddResult("1", false, true));
        assertThat(snap().waiting()).containsExactly("3", "1");
        f.assertInvariant();
    }

    @Test
    void aCompletedOwnerReleasesTheIdWithTheIdFromItsFinishRecord() {
        join(f.scripts.addJob(NOW, List.of(plain("1"))));
        String token = take();

        join(f.scripts.moveToFinished(NOW + 10, fetch(0), complete("1", token, "d1")));

        assertThat(snap().exists("dedup:d1")).isFalse();
        assertThat(join(f.scripts.addJob(NOW + 20, List.of(plain("2"))))).containsExactly(new AddResult("2", true));
        f.assertInvariant();
    }

    @Test
    void aFinishWithoutTheIdReadsNothingAndLeavesTheKey() {
        // The finish trusts its record: the worker passes the id it read at take.
        join(f.scripts.addJob(NOW, List.of(plain("1"))));
        String token = take();

        join(f.scripts.moveToFinished(NOW + 10, fetch(0), complete("1", token, null)));

        assertThat(snap().string("dedup:d1")).isEqualTo("1");
    }

    @Test
    void aRetryKeepsTheIdAndTheFailureForGoodReleasesIt() {
        join(f.scripts.addJob(NOW, List.of(plain("1"))));
        join(f.scripts.moveToFinished(NOW + 10, fetch(0), failure("1", take(), "d1", 2, 0)));
        assertThat(snap().string("dedup:d1")).isEqualTo("1");
        assertThat(join(f.scripts.getState("1"))).isEqualTo(JobState.WAITING);

        join(f.scripts.moveToFinished(NOW + 20, fetch(0), failure("1", take(), "d1", 2, 1)));

        assertThat(join(f.scripts.getState("1"))).isEqualTo(JobState.FAILED);
        assertThat(snap().exists("dedup:d1")).isFalse();
        f.assertInvariant();
    }

    @Test
    void aReleaseLeavesAKeyThatNamesAnotherJob() {
        join(f.scripts.addJob(NOW, List.of(plain("1"))));
        String token = take();
        assertThat(join(dedup.removeDeduplicationKey("d1"))).isTrue();
        join(f.scripts.addJob(NOW + 1, List.of(plain("2"))));

        join(f.scripts.moveToFinished(NOW + 10, fetch(0), complete("1", token, "d1")));

        assertThat(snap().string("dedup:d1")).isEqualTo("2");
        assertThat(join(dedup.removeDeduplicationKey("nobody"))).isFalse();
    }

    @Test
    void ttlModeKeepsTheIdForTheTtlAfterTheOwnerCompletesButARemovalFreesIt() {
        join(f.scripts.addJob(NOW, List.of(add(null, "1", "t", 0, 60_000, ""))));
        assertThat(snap().pttl("dedup:t")).isBetween(1L, 60_000L);

        join(f.scripts.moveToFinished(NOW + 10, fetch(0), complete("1", take(), "t")));

        assertThat(snap().string("dedup:t")).isEqualTo("1");
        assertThat(join(f.scripts.addJob(NOW + 20, List.of(add(null, "2", "t", 0, 60_000, "")))))
                .containsExactly(new AddResult("1", false, true));
        assertThat(join(f.scripts.removeJob("1"))).isTrue();
        assertThat(snap().exists("dedup:t")).isFalse();
    }

    @Test
    void debounceReplacesTheDelayedOwnersDataAndRestartsItsDelay() {
        join(f.scripts.addJob(NOW, List.of(add(null, "1", "b", 500, 0, "d"))));
        double firstScore = snap().delayed().get("1");

        List<AddResult> again = join(f.scripts.addJob(NOW + 300, List.of(new NewJob(null, "renamed", "2", "", 500, 0, false,
                null, "b", 0, "d"))));

        assertThat(again).containsExactly(new AddResult("1", false, true));
        QueueSnapshot s = snap();
        assertThat(s.jobIds()).containsExactly("1");
        assertThat(s.job("1")).contains(entry("data", "2"), entry("name", "renamed"));
        assertThat(Math.floor(s.delayed().get("1") / 4096)).isEqualTo(NOW + 800.0);
        assertThat(s.delayed().get("1")).isGreaterThan(firstScore);
        assertThat(s.pttl("dedup:b")).isEqualTo(-1);
        f.assertInvariant();
    }

    @Test
    void debounceWithATtlResetsTheKeysExpiry() {
        join(f.scripts.addJob(NOW, List.of(add(null, "1", "b", 500, 2_000, "d"))));
        f.redisson.getBucket(f.k.dedup("b")).expire(java.time.Duration.ofMillis(100));

        join(f.scripts.addJob(NOW + 1, List.of(add(null, "2", "b", 500, 2_000, "d"))));

        assertThat(snap().pttl("dedup:b")).isGreaterThan(1_000);
    }

    @Test
    void debounceOfAnOwnerNoLongerDelayedIsDeduplicatedLikePlain() {
        join(f.scripts.addJob(NOW, List.of(add(null, "1", "b", 500, 0, "d"))));
        join(f.scripts.promote("1"));

        join(f.scripts.addJob(NOW + 1, List.of(add(null, "2", "b", 500, 0, "d"))));

        assertThat(snap().job("1")).contains(entry("data", "1"));
        assertThat(snap().delayed()).isEmpty();
    }

    @Test
    void keepLastIfActiveStoresTheLatestAddAndTheOwnersEndAddsItAsANewJobOwningTheId() {
        join(f.scripts.addJob(NOW, List.of(add(null, "1", "k", 0, 0, "k"))));
        String token = take();
        join(f.scripts.addJob(NOW + 1, List.of(add(null, "2", "k", 0, 0, "k"))));
        join(f.scripts.addJob(NOW + 2, List.of(add(null, "3", "k", 0, 0, "k"))));
        assertThat(snap().jobIds()).containsExactly("1");
        assertThat(snap().exists("dedup:k:next")).isTrue();

        join(f.scripts.moveToFinished(NOW + 10, fetch(0), complete("1", token, "k")));

        QueueSnapshot s = snap();
        assertThat(s.exists("dedup:k:next")).isFalse();
        String next = s.string("dedup:k");
        assertThat(next).isNotEqualTo("1");
        assertThat(s.waiting()).containsExactly(next);
        assertThat(s.job(next)).contains(entry("data", "3"), entry("dedupId", "k"), entry("timestamp", Long.toString(NOW + 10)))
                .doesNotContainKey(JobFields.TRACE_CONTEXT);
        assertThat(s.eventNames()).endsWith("completed", "added");
        f.assertInvariant();
    }

    @Test
    void aKeptAddCarriesItsOwnTraceHeadersToTheJobItBecomes() {
        String tc = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        join(f.scripts.addJob(NOW, List.of(add(null, "1", "k", 0, 0, "k"))));
        String token = take();
        join(f.scripts.addJob(NOW + 1, List.of(add(null, "2", "k", 0, 0, "k")), tc));

        join(f.scripts.moveToFinished(NOW + 10, fetch(0), complete("1", token, "k")));

        QueueSnapshot s = snap();
        assertThat(s.job("1")).doesNotContainKey(JobFields.TRACE_CONTEXT);
        assertThat(s.job(s.string("dedup:k"))).contains(entry("data", "2"), entry(JobFields.TRACE_CONTEXT, tc));
        f.assertInvariant();
    }

    @Test
    void keepLastIfActiveDropsAnAddWhileTheOwnerWaits() {
        join(f.scripts.addJob(NOW, List.of(add(null, "1", "k", 0, 0, "k"))));

        join(f.scripts.addJob(NOW + 1, List.of(add(null, "2", "k", 0, 0, "k"))));

        assertThat(snap().exists("dedup:k:next")).isFalse();
        assertThat(snap().jobIds()).containsExactly("1");
    }

    @Test
    void removingTheOwnerReleasesTheIdAndDropsAKeptAdd() {
        join(f.scripts.addJob(NOW, List.of(plain("1"))));
        f.redisson.getBucket(f.k.dedupNext("d1"), org.redisson.client.codec.StringCodec.INSTANCE).set("[]");

        assertThat(join(f.scripts.removeJob("1"))).isTrue();

        assertThat(snap().exists("dedup:d1")).isFalse();
        assertThat(snap().exists("dedup:d1:next")).isFalse();
    }

    @Test
    void cleanDrainAndObliterateReleaseTheIdsOfTheJobsTheyRemove() {
        join(f.scripts.addJob(NOW, List.of(add(null, "w", "a", 0, 0, ""), add(null, "d", "b", 500, 0, ""),
                add(null, "w2", "c", 0, 0, ""))));

        join(admin.clean(JobState.DELAYED, NOW + 1_000, 0, 0, 100, -1, 0));
        assertThat(snap().exists("dedup:b")).isFalse();
        assertThat(snap().exists("dedup:a")).isTrue();

        join(admin.drain(false, 1, 0));
        join(admin.drain(false, 100, 1));
        assertThat(snap().keys()).noneMatch(key -> key.startsWith("dedup:"));

        join(f.scripts.addJob(NOW, List.of(add(null, "x", "e", 0, 0, ""), add(null, "y", "f", 0, 60_000, ""))));
        join(admin.obliterate(true, 1000));
        assertThat(snap().keys()).isEmpty();
    }

    @Test
    void aJobFailedAsStalledEndsItsId() {
        join(f.scripts.addJob(NOW, List.of(plain("1"))));
        take();
        f.expire("1");
        f.redisson.getMap(f.k.job("1"), org.redisson.client.codec.StringCodec.INSTANCE).put("stc", "5");

        var stalled = join(f.scripts.moveStalledJobsToWait(NOW + LOCK_MS + 1, 1, 100));

        assertThat(stalled.failed()).containsExactly("1");
        assertThat(snap().exists("dedup:d1")).isFalse();
        f.assertInvariant();
    }
}
