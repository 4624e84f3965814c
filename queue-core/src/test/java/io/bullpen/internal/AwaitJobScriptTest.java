package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.LOCK_MS;
import static io.bullpen.internal.ScriptFixture.NOW;
import static io.bullpen.internal.ScriptFixture.complete;
import static io.bullpen.internal.ScriptFixture.fail;
import static io.bullpen.internal.ScriptFixture.fetch;
import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.Retention;
import io.bullpen.internal.AwaitScripts.Answer;
import io.bullpen.internal.AwaitScripts.Reply;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.client.codec.StringCodec;

/** The awaitJob script's contract, and what moveToFinished keeps for awaited jobs (result:<id>). */
@BullpenTest
class AwaitJobScriptTest {
    private static final long KEEP = 3_600_000;
    private ScriptFixture f;
    private AwaitScripts await;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
        await = new AwaitScripts(f.redisson, f.k);
    }

    private Map<String, String> job(String id) {
        return f.redisson.<String, String>getMap(f.k.job(id), StringCodec.INSTANCE).readAllMap();
    }

    private String meta(String field) {
        return f.redisson.<String, String>getMap(f.k.meta(), StringCodec.INSTANCE).get(field);
    }

    private String kept(String id) {
        return f.redisson.<String>getBucket(f.k.result(id), StringCodec.INSTANCE).get();
    }

    private long keptTtl(String id) {
        return f.redisson.getBucket(f.k.result(id), StringCodec.INSTANCE).remainTimeToLive();
    }

    @Test
    void aWaitingJobIsMarkedAwaitedAndAnsweredPendingWithTheStreamsNewestId() {
        f.job("a").waiting("a");
        String newest = f.redisson.getStream(f.k.events(), StringCodec.INSTANCE).add(
                org.redisson.api.stream.StreamAddArgs.entry("event", "x")).toString();

        Reply r = join(await.awaitJob(KEEP, List.of("a")));

        assertThat(r.newestEventId()).isEqualTo(newest);
        assertThat(r.answers()).containsExactly(new Answer("a", "pending", ""));
        assertThat(job("a")).containsEntry("awaited", Long.toString(KEEP)).doesNotContainKey("awaitLate");
        assertThat(meta("awaits")).isNull();
    }

    @Test
    void anEmptyStreamAnswersZeroAndUnknownJobsAreMissing() {
        Reply r = join(await.awaitJob(KEEP, List.of("nope")));

        assertThat(r.newestEventId()).isEqualTo("0-0");
        assertThat(r.answers()).containsExactly(new Answer("nope", "missing", ""));
        assertThat(job("nope")).isEmpty();
    }

    @Test
    void anActiveJobIsMarkedLateAndCountedOnceHowOftenItIsAwaited() {
        f.job("a").active("a", "w:1", LOCK_MS, NOW + LOCK_MS);

        join(await.awaitJob(KEEP, List.of("a")));
        join(await.awaitJob(KEEP * 2, List.of("a")));

        assertThat(job("a")).containsEntry("awaited", Long.toString(KEEP * 2)).containsEntry("awaitLate", "1");
        assertThat(meta("awaits")).isEqualTo("1");
    }

    @Test
    void finishedJobsAnswerAtOnceFromTheirHash() {
        f.job("c", "returnValue", "{\"n\":1}", "finishedOn", "1", "failedReason", "an earlier attempt")
                .zadd(f.k.completed(), "c", NOW);
        f.job("n", "finishedOn", "1").zadd(f.k.completed(), "n", NOW);
        f.job("x", "failedReason", "boom", "finishedOn", "1").zadd(f.k.failed(), "x", NOW);

        Reply r = join(await.awaitJob(KEEP, List.of("c", "n", "x")));

        assertThat(r.answers()).containsExactly(new Answer("c", "completed", "{\"n\":1}"),
                new Answer("n", "completed", "null"), new Answer("x", "failed", "boom"));
        assertThat(job("c")).doesNotContainKey("awaited");
    }

    @Test
    void aRemovedJobAnswersFromItsKeptResult() {
        f.job("a", "awaited", Long.toString(KEEP)).active("a", "w:1", LOCK_MS, NOW + LOCK_MS);
        join(f.scripts.moveToFinished(NOW, fetch(0), complete("a", "w:1", "7", Retention.keepNone()).awaited(Long.toString(KEEP))));
        assertThat(job("a")).isEmpty();

        Reply r = join(await.awaitJob(KEEP, List.of("a")));

        assertThat(r.answers()).containsExactly(new Answer("a", "completed", "7"));
    }

    @Test
    void theFinishKeepsTheResultOfAFlaggedJobWithItsTtlAndOfNoOtherJob() {
        f.job("a").active("a", "w:1", LOCK_MS, NOW + LOCK_MS);
        f.job("b").active("b", "w:1", LOCK_MS, NOW + LOCK_MS);
        f.job("c").active("c", "w:1", LOCK_MS, NOW + LOCK_MS);

        join(f.scripts.moveToFinished(NOW, fetch(0), List.of(
                complete("a", "w:1", "\"done\"", Retention.keepAll()).awaited("60000"),
                complete("b", "w:1", "\"plain\"", Retention.keepAll()),
                fail("c", "w:1", "cancelled: by hand", 1, 0, true).awaited("60000"))));

        assertThat(kept("a")).contains("\"state\":\"completed\"").contains("\"returnValue\":\"\\\"done\\\"\"");
        assertThat(keptTtl("a")).isBetween(1L, 60_000L);
        assertThat(kept("b")).isNull();
        assertThat(kept("c")).contains("\"state\":\"failed\"").contains("cancelled: by hand");
    }

    @Test
    void aRetriedAttemptKeepsNothingAndTheFinalFailureKeepsItsReason() {
        f.job("a").active("a", "w:1", LOCK_MS, NOW + LOCK_MS);

        join(f.scripts.moveToFinished(NOW, fetch(0), fail("a", "w:1", "first", 3, 1000, false).awaited("60000")));

        assertThat(kept("a")).isNull();
    }

    @Test
    void aLateAwaitIsSeenByTheFinishWithoutTheFlagAndTheCounterReturnsToZero() {
        f.job("a").active("a", "w:1", LOCK_MS, NOW + LOCK_MS);
        f.job("b").active("b", "w:1", LOCK_MS, NOW + LOCK_MS);
        join(await.awaitJob(KEEP, List.of("a")));
        assertThat(meta("awaits")).isEqualTo("1");

        // The worker read the hashes before the await: it passes no flag.
        join(f.scripts.moveToFinished(NOW, fetch(0), List.of(
                complete("b", "w:1", "1", Retention.keepNone()),
                complete("a", "w:1", "2", Retention.keepNone()))));

        assertThat(kept("a")).contains("\"returnValue\":\"2\"");
        assertThat(kept("b")).isNull();
        assertThat(meta("awaits")).isEqualTo("0");
    }

    @Test
    void anAwaitedAddStoresTheFlagAndKeepsLifo() {
        List<ScriptTypes.AddResult> added = join(f.scripts.addJob(NOW, List.of(
                new ScriptTypes.NewJob(null, "n", "{}", "", 0, 0, true, null, null, 0, "", 5000),
                new ScriptTypes.NewJob(null, "n", "{}", "", 0, 0, false, null, null, 0, "", 0))));

        assertThat(job(added.get(0).id())).containsEntry("awaited", "5000");
        assertThat(job(added.get(1).id())).doesNotContainKey("awaited");
        // lifo: the first job went to the front (RPUSH), the second to the back.
        assertThat(f.redisson.<String>getList(f.k.waitList(), StringCodec.INSTANCE).readAll())
                .containsExactly(added.get(1).id(), added.get(0).id());
    }
}
