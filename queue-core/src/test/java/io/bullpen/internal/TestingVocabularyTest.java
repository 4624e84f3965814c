package io.bullpen.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.JobState;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueInvariant;
import io.bullpen.testing.QueueSnapshot;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * queue-testing reads queues without depending on queue-core, so {@link QueueSnapshot} and
 * {@link QueueInvariant} spell the state keys themselves. This pins them to {@link JobState}: a
 * state added or renamed in queue-core fails here until the testing helpers follow.
 */
@BullpenTest
class TestingVocabularyTest {
    private static final List<JobState> STORED = Arrays.stream(JobState.values())
            .filter(s -> s != JobState.UNKNOWN).toList();

    private ScriptFixture f;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
    }

    @Test
    void theInvariantChecksExactlyTheStateKeysOfJobState() {
        f.job("orphan");
        // The orphan violation lists the structures the invariant reads.
        String orphan = QueueInvariant.violations(f.snap()).stream()
                .filter(v -> v.contains("orphan")).findFirst().orElseThrow();
        assertThat(orphan).contains("in none of " + String.join(", ", STORED.stream().map(JobState::key).toList()));
    }

    @Test
    void theSnapshotReadsEachStateFromItsJobStateKey() {
        Map<JobState, Function<QueueSnapshot, Collection<String>>> readers = Map.of(
                JobState.WAITING, QueueSnapshot::waiting,
                JobState.PRIORITIZED, s -> s.prioritized().keySet(),
                JobState.DELAYED, s -> s.delayed().keySet(),
                JobState.ACTIVE, QueueSnapshot::active,
                JobState.COMPLETED, s -> s.completed().keySet(),
                JobState.FAILED, s -> s.failed().keySet(),
                JobState.WAITING_CHILDREN, s -> s.waitingChildren().keySet());
        assertThat(readers.keySet()).containsExactlyInAnyOrderElementsOf(STORED);
        for (JobState state : STORED) {
            String id = "in-" + state.key();
            f.job(id);
            if (state == JobState.WAITING) {
                f.waiting(id);
            } else {
                f.zadd(f.k.stateKey(state), id, 1);
            }
        }
        QueueSnapshot snap = f.snap();
        for (JobState state : STORED) {
            assertThat(readers.get(state).apply(snap)).as(state.toString()).containsExactly("in-" + state.key());
        }
        assertThat(QueueInvariant.violations(snap)).isEmpty();
    }
}
