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

import io.bullpen.MetricsType;
import io.bullpen.QueueMetrics;
import io.bullpen.Retention;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.redisson.client.codec.StringCodec;

/**
 * Per-minute metrics: recordMetric as moveToFinished and the stalled-failure path run it, and the
 * getMetrics read placed on the reader's minutes.
 */
@BullpenTest
class MetricsScriptTest {
    /** The minute of {@link ScriptFixture#NOW} (20 s into it). */
    private static final long M0 = Math.floorDiv(NOW, 60_000);

    private ScriptFixture f;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
    }

    private void completeAt(long now, String id) {
        f.job(id).active(id, "w:" + id, LOCK_MS, now + LOCK_MS);
        join(f.scripts.moveToFinished(now, fetch(0), complete(id, "w:" + id, "1", Retention.keepAll())));
    }

    private void seedStored(String kind, Long minute, long count, List<String> list) {
        if (minute != null) {
            f.meta("mm:" + kind, Long.toString(minute)).meta("mc:" + kind, Long.toString(count));
        }
        if (!list.isEmpty()) {
            f.redisson.<String>getList(f.k.metrics(kind), StringCodec.INSTANCE).addAll(list);
        }
    }

    private static List<String> zeros(int n) {
        return new ArrayList<>(Collections.nCopies(n, "0"));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    private static List<String> numbers(int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            out.add(Integer.toString(i));
        }
        return out;
    }

    static Stream<Arguments> rollovers() {
        // label, stored minute (null = none), stored count, stored list, finish at,
        // expected minute, expected count, expected list (newest first)
        return Stream.of(
                Arguments.of("first finish ever", null, 0, List.of(), NOW, M0, 1, List.of()),
                Arguments.of("same minute", M0, 4, List.of("7"), NOW + 39_999, M0, 5, List.of("7")),
                Arguments.of("next minute", M0 - 1, 4, List.of("7"), NOW, M0, 1, List.of("4", "7")),
                Arguments.of("gap of 3 minutes: zeros for the 2 skipped", M0 - 3, 4, List.of("7"), NOW, M0, 1,
                        List.of("0", "0", "4", "7")),
                Arguments.of("gap of exactly a day", M0 - 1440, 4, List.of("7", "8"), NOW, M0, 1,
                        concat(zeros(1439), List.of("4"))),
                Arguments.of("gap of more than a day: reset", M0 - 1441, 4, List.of("7"), NOW, M0, 1, List.of()),
                Arguments.of("a lagging clock counts in the current minute", M0 + 2, 4, List.of("7"), NOW, M0 + 2, 5,
                        List.of("7")),
                Arguments.of("the list is trimmed to 1440 minutes", M0 - 1, 9, numbers(1, 1440), NOW, M0, 1,
                        concat(List.of("9"), numbers(1, 1439))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rollovers")
    void completionsRollOverMinutes(String label, Long storedMinute, long storedCount, List<String> storedList, long at,
                                    long minute, long count, List<String> list) {
        seedStored("completed", storedMinute, storedCount, storedList);

        completeAt(at, "a");

        QueueSnapshot s = f.snap();
        assertThat(s.meta()).contains(entry("mm:completed", Long.toString(minute)), entry("mc:completed", Long.toString(count)))
                .doesNotContainKeys("mm:failed", "mc:failed");
        assertThat(s.list("metrics:completed")).isEqualTo(list);
        assertThat(s.exists("metrics:failed")).isFalse();
        assertThat(s.completed()).containsOnlyKeys("a");
        f.assertInvariant();
    }

    @Test
    void aCompletionDeletedByRetentionIsStillCounted() {
        f.job("a").active("a", "w:1", LOCK_MS, NOW + LOCK_MS);

        join(f.scripts.moveToFinished(NOW, fetch(0), complete("a", "w:1", "1", Retention.keepNone())));

        assertThat(f.snap().meta()).containsEntry("mc:completed", "1");
    }

    @Test
    void onlyFinalFailuresCountAsFailedNotRetries() {
        f.job("retry").active("retry", "w:1", LOCK_MS, NOW + LOCK_MS).job("last").active("last", "w:2", LOCK_MS, NOW + LOCK_MS);

        join(f.scripts.moveToFinished(NOW, fetch(0), fail("retry", "w:1", "boom", 3, 1000, false)));
        QueueSnapshot afterRetry = f.snap();
        assertThat(afterRetry.meta()).doesNotContainKeys("mc:failed", "mc:completed");

        join(f.scripts.moveToFinished(NOW + 60_000, fetch(0), fail("last", "w:2", "boom", 1, 0, false)));

        QueueSnapshot s = f.snap();
        assertThat(s.meta()).contains(entry("mm:failed", Long.toString(M0 + 1)), entry("mc:failed", "1"))
                .doesNotContainKey("mc:completed");
        f.assertInvariant();
    }

    @Test
    void aJobThatStallsTooOftenCountsAsFailedInMoveStalledJobsToWait() {
        f.job("s", "stc", "1").active("s", "w:1", 0, NOW - 1).job("r").active("r", "w:2", 0, NOW - 1);

        join(f.scripts.moveStalledJobsToWait(NOW, 1, 100));

        QueueSnapshot s = f.snap();
        assertThat(s.failed()).containsOnlyKeys("s");
        assertThat(s.waiting()).containsExactly("r");
        assertThat(s.meta()).contains(entry("mm:failed", Long.toString(M0)), entry("mc:failed", "1"));
        f.assertInvariant();
    }

    @Test
    void aJobThatStallsTooOftenCountsAsFailedInMoveToActive() {
        f.job("s", "stc", "1").active("s", "w:1", 0, NOW - 1).meta("mm:failed", Long.toString(M0)).meta("mc:failed", "2");

        join(f.scripts.moveToActive(NOW, fetch(1)));

        assertThat(f.snap().meta()).containsEntry("mc:failed", "3");
        f.assertInvariant();
    }

    @Test
    void getMetricsPlacesTheStoredCountsOnTheReadersMinutes() {
        seedStored("completed", M0 - 2, 5, List.of("3", "0", "8", "1"));
        QueueAdmin admin = new QueueAdmin(f.redisson, f.k, f.scripts);

        QueueMetrics m = admin.metrics(NOW, MetricsType.COMPLETED, 6);

        assertThat(m.type()).isEqualTo(MetricsType.COMPLETED);
        assertThat(m.counts()).containsExactly(0L, 0L, 5L, 3L, 0L, 8L);
        assertThat(m.total()).isEqualTo(16);
        assertThat(m.since()).isEqualTo(Instant.ofEpochMilli((M0 - 5) * 60_000));
        assertThat(admin.metrics(NOW, MetricsType.FAILED, 3).counts()).containsExactly(0L, 0L, 0L);
    }

    @Test
    void aReaderBehindTheLastCountedMinuteStartsFromThatMinute() {
        seedStored("failed", M0 + 1, 2, List.of("4"));
        QueueAdmin admin = new QueueAdmin(f.redisson, f.k, f.scripts);

        QueueMetrics m = admin.metrics(NOW, MetricsType.FAILED, 3);

        assertThat(m.counts()).containsExactly(2L, 4L, 0L);
        assertThat(m.since()).isEqualTo(Instant.ofEpochMilli((M0 - 1) * 60_000));
    }

    @Test
    void aFullDayIsReadAndTheMinutesAreBounded() {
        seedStored("completed", M0, 1, numbers(1, 1440));
        QueueAdmin admin = new QueueAdmin(f.redisson, f.k, f.scripts);

        QueueMetrics day = admin.metrics(NOW, MetricsType.COMPLETED, QueueMetrics.MAX_MINUTES);

        assertThat(day.counts()).hasSize(1441).startsWith(1L, 1L, 2L).endsWith(1440L);
        assertThat(day.total()).isEqualTo(1 + 1440L * 1441 / 2);
        assertThatThrownBy(() -> admin.metrics(NOW, MetricsType.COMPLETED, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("was 0");
        assertThatThrownBy(() -> admin.metrics(NOW, MetricsType.COMPLETED, 1442)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1442");
    }
}
