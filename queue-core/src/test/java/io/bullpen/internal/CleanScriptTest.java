package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.NOW;
import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.bullpen.JobState;
import io.bullpen.internal.AdminScripts.CleanChunk;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.redisson.client.codec.StringCodec;

/** clean: by state and grace, the limit, chunks with a cursor, one event at the end. */
@BullpenTest
class CleanScriptTest {
    private static final long GRACE = 10_000;

    private ScriptFixture f;
    private AdminScripts admin;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
        admin = new AdminScripts(ctx.redisson(), f.k);
    }

    /** A job of {@code state} whose age (finishedOn, or timestamp when not finished) is {@code ageMs}, with a log line. */
    private void seed(JobState state, String id, long ageMs) {
        long at = NOW - ageMs;
        switch (state) {
            case COMPLETED, FAILED -> f.job(id, "timestamp", "1", "finishedOn", Long.toString(at)).zadd(f.k.stateKey(state), id, at);
            case DELAYED -> f.job(id, "timestamp", Long.toString(at), "delay", "999999999").delayed(id, NOW + 60_000);
            case PRIORITIZED -> f.job(id, "timestamp", Long.toString(at), "priority", "3").zadd(f.k.prioritized(), id, 3 * 4294967296.0);
            case WAITING -> f.job(id, "timestamp", Long.toString(at)).waiting(id);
            default -> throw new AssertionError(state);
        }
        f.redisson.getList(f.k.logs(id), StringCodec.INSTANCE).add("log of " + id);
    }

    private static List<String> ids(QueueSnapshot s, JobState state) {
        return state == JobState.WAITING ? s.waiting() : new ArrayList<>(s.zset(state.key()).keySet());
    }

    private CleanChunk clean(JobState state, long cursor, int batch, long remaining, long total) {
        return join(admin.clean(state, NOW, GRACE, cursor, batch, remaining, total));
    }

    @ParameterizedTest
    @EnumSource(value = JobState.class, names = {"COMPLETED", "FAILED", "DELAYED", "PRIORITIZED", "WAITING"})
    void removesJobsAtOrPastTheGraceWithTheirDataAndKeepsYoungerOnes(JobState state) {
        seed(state, "old", GRACE + 5_000);
        seed(state, "edge", GRACE);
        seed(state, "young", GRACE - 1);
        f.job("other").zadd(f.k.stateKey(state == JobState.FAILED ? JobState.COMPLETED : JobState.FAILED), "other", NOW - 99_999);

        CleanChunk c = clean(state, 0, 100, -1, 0);

        assertThat(c).isEqualTo(new CleanChunk(2, -1));
        QueueSnapshot s = f.snap();
        assertThat(ids(s, state)).containsExactly("young");
        assertThat(s.jobIds()).containsExactlyInAnyOrder("young", "other");
        assertThat(s.keys()).doesNotContain("job:old:logs", "job:edge:logs").contains("job:young:logs");
        assertThat(s.events()).hasSize(1);
        assertThat(s.events().get(0)).contains(entry("event", "cleaned"), entry("count", "2"), entry("state", state.label()))
                .doesNotContainKey("jobId");
        f.assertInvariant();
    }

    @ParameterizedTest
    @EnumSource(value = JobState.class, names = {"COMPLETED", "FAILED", "DELAYED", "PRIORITIZED", "WAITING"})
    void theLimitStopsTheCleanAndTheEventCarriesTheTotalOfAllChunks(JobState state) {
        for (int i = 1; i <= 5; i++) {
            seed(state, "j" + i, GRACE + i);
        }

        CleanChunk c = clean(state, 0, 100, 2, 3);

        assertThat(c).isEqualTo(new CleanChunk(2, -1));
        QueueSnapshot s = f.snap();
        assertThat(ids(s, state)).hasSize(3);
        assertThat(s.events()).singleElement().satisfies(e -> assertThat(e).contains(entry("count", "5")));
        f.assertInvariant();
    }

    @ParameterizedTest
    @EnumSource(value = JobState.class, names = {"DELAYED", "PRIORITIZED", "WAITING"})
    void scannedStatesCarryACursorOverChunksAndEmitOnlyAtTheEnd(JobState state) {
        // Old and young alternate so that every chunk keeps some ids.
        for (int i = 1; i <= 7; i++) {
            seed(state, "j" + i, i % 2 == 1 ? GRACE + i : 0);
        }
        List<CleanChunk> chunks = new ArrayList<>();
        long cursor = 0;
        long total = 0;
        do {
            CleanChunk c = clean(state, cursor, 3, -1, total);
            chunks.add(c);
            total += c.removed();
            cursor = c.nextCursor();
            if (!c.done()) {
                assertThat(f.snap().events()).as("no event before the last chunk").isEmpty();
            }
        } while (cursor >= 0);

        assertThat(total).isEqualTo(4);
        assertThat(chunks).hasSize(3);
        assertThat(chunks.get(0).nextCursor()).isEqualTo(1); // 3 examined, 2 removed: 1 kept id to skip
        QueueSnapshot s = f.snap();
        assertThat(ids(s, state)).containsExactlyInAnyOrder("j2", "j4", "j6");
        assertThat(s.events()).singleElement().satisfies(e -> assertThat(e).contains(entry("count", "4")));
        f.assertInvariant();
    }

    @Test
    void waitingIsScannedFromTheOldestEndAndKeepsTheOrderOfWhatStays() {
        f.job("new1", "timestamp", Long.toString(NOW)).job("old1", "timestamp", "1").job("new2", "timestamp", Long.toString(NOW))
                .job("old2", "timestamp", "1");
        f.waiting("new2", "old2", "new1", "old1"); // old1 is taken first

        CleanChunk first = clean(JobState.WAITING, 0, 2, -1, 0);

        assertThat(first).isEqualTo(new CleanChunk(1, 1));
        assertThat(f.snap().waiting()).containsExactly("new2", "old2", "new1");
        assertThat(clean(JobState.WAITING, 1, 2, -1, 1)).isEqualTo(new CleanChunk(1, 2));
        assertThat(clean(JobState.WAITING, 2, 2, -1, 2)).isEqualTo(new CleanChunk(0, -1));
        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).containsExactly("new2", "new1");
        assertThat(s.eventNames()).containsExactly("cleaned");
        f.assertInvariant();
    }

    @Test
    void finishedStatesAreReadOldestFirstInChunksWithoutACursor() {
        for (int i = 1; i <= 5; i++) {
            seed(JobState.COMPLETED, "c" + i, GRACE + 100 - i);
        }

        assertThat(clean(JobState.COMPLETED, 0, 2, -1, 0)).isEqualTo(new CleanChunk(2, 0));
        assertThat(f.snap().completed()).containsOnlyKeys("c3", "c4", "c5");
        assertThat(clean(JobState.COMPLETED, 0, 2, -1, 2)).isEqualTo(new CleanChunk(2, 0));
        assertThat(clean(JobState.COMPLETED, 0, 2, -1, 4)).isEqualTo(new CleanChunk(1, -1));
        QueueSnapshot s = f.snap();
        assertThat(s.keys()).containsOnly("events");
        assertThat(s.events()).singleElement().satisfies(e -> assertThat(e).contains(entry("count", "5")));
    }

    @Test
    void nothingToCleanChangesNothingAndEmitsNothing() {
        seed(JobState.FAILED, "young", 0);
        QueueSnapshot before = f.snap();

        assertThat(clean(JobState.FAILED, 0, 100, -1, 0)).isEqualTo(new CleanChunk(0, -1));

        assertThat(f.snap().keys()).isEqualTo(before.keys());
        assertThat(f.snap().events()).isEmpty();
    }

    @Test
    void aDanglingIdWithoutAHashCountsAsOld() {
        f.zadd(f.k.delayed(), "ghost", NOW * 4096.0);

        assertThat(clean(JobState.DELAYED, 0, 100, -1, 0)).isEqualTo(new CleanChunk(1, -1));

        assertThat(f.snap().delayed()).isEmpty();
    }

    @Test
    void graceIsMeasuredFromTheCallersNow() {
        seed(JobState.COMPLETED, "c", 0);

        assertThat(join(admin.clean(JobState.COMPLETED, NOW + GRACE - 1, GRACE, 0, 100, -1, 0)).removed()).isZero();
        assertThat(join(admin.clean(JobState.COMPLETED, NOW + GRACE, GRACE, 0, 100, -1, 0)).removed()).isEqualTo(1);
        assertThat(f.snap().job("c")).isEqualTo(Map.of());
    }
}
