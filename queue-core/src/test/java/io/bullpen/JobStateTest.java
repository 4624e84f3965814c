package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class JobStateTest {

    @Test
    void eachStoredStateNamesItsRedisKeySuffix() {
        assertThat(JobState.WAITING.key()).isEqualTo("wait");
        assertThat(JobState.PRIORITIZED.key()).isEqualTo("prioritized");
        assertThat(JobState.DELAYED.key()).isEqualTo("delayed");
        // Active jobs are the members of the leases sorted set (there is no active list).
        assertThat(JobState.ACTIVE.key()).isEqualTo("leases");
        assertThat(JobState.COMPLETED.key()).isEqualTo("completed");
        assertThat(JobState.FAILED.key()).isEqualTo("failed");
    }

    @Test
    void unknownHasNoKeyBecauseNoJobIsStoredInIt() {
        assertThatThrownBy(JobState.UNKNOWN::key)
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("unknown");
    }

    @Test
    void labelsAreTheLowerCaseWordsOfEventsAndTheDashboard() {
        assertThat(Arrays.stream(JobState.values()).map(JobState::label))
                .containsExactly("waiting", "prioritized", "delayed", "active", "waiting-children", "completed",
                        "failed", "unknown");
    }

    @Test
    void fromLabelFindsEveryState() {
        for (JobState state : JobState.values()) {
            assertThat(JobState.fromLabel(state.label())).isSameAs(state);
        }
    }

    @Test
    void fromLabelRejectsAnythingElseNamingIt() {
        assertThatThrownBy(() -> JobState.fromLabel("wait"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown job state \"wait\"; expected one of "
                        + "waiting, prioritized, delayed, active, waiting-children, completed, failed, unknown");
        assertThatThrownBy(() -> JobState.fromLabel("WAITING"))
                .hasMessageStartingWith("unknown job state \"WAITING\"");
        assertThatThrownBy(() -> JobState.fromLabel(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("unknown job state null");
    }

    @Test
    void onlyCompletedAndFailedAreFinished() {
        assertThat(Arrays.stream(JobState.values()).filter(JobState::isFinished))
                .containsExactly(JobState.COMPLETED, JobState.FAILED);
    }

    /** {@link JobCounts} holds one count per stored state. */
    @Nested
    class Counts {

        private final JobCounts counts = new JobCounts(1, 2, 3, 4, 5, 6, true);

        @Test
        void totalSumsTheSixCounts() {
            assertThat(counts.total()).isEqualTo(21);
            assertThat(new JobCounts(0, 0, 0, 0, 0, 0, false).total()).isZero();
        }

        @Test
        void countReturnsTheCountOfEachStoredState() {
            assertThat(counts.count(JobState.WAITING)).isEqualTo(1);
            assertThat(counts.count(JobState.ACTIVE)).isEqualTo(2);
            assertThat(counts.count(JobState.DELAYED)).isEqualTo(3);
            assertThat(counts.count(JobState.PRIORITIZED)).isEqualTo(4);
            assertThat(counts.count(JobState.COMPLETED)).isEqualTo(5);
            assertThat(counts.count(JobState.FAILED)).isEqualTo(6);
            assertThat(counts.paused()).isTrue();
        }

        @Test
        void countRejectsUnknownWhichIsNeverCounted() {
            assertThatThrownBy(() -> counts.count(JobState.UNKNOWN))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("unknown");
        }
    }
}
