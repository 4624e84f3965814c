package io.bullpen.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.Backoff;
import io.bullpen.JobOptions;
import io.bullpen.internal.ScriptTypes.Finish;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The worker decides a failed attempt's outcome: failed for good, or a retry at its backoff. */
class FinishDecisionTest {

    private static final JobOptions THREE = JobOptions.builder().attempts(3)
            .backoff(Backoff.fixed(Duration.ofMillis(500))).lifo(true).build();

    @Test
    void attemptsLeftRetryAfterTheBackoff() {
        Finish f = Finish.failed("a", "t", 1, "boom", "trace", false, THREE, 5);

        assertThat(f).isInstanceOf(Finish.Retry.class);
        Finish.Retry retry = (Finish.Retry) f;
        assertThat(retry.attemptsMade()).isEqualTo(2);
        assertThat(retry.delayMs()).isEqualTo(500);
        assertThat(retry.lifo()).isTrue();
    }

    @Test
    void theLastAttemptOrAnUnrecoverableErrorFailsForGood() {
        assertThat(Finish.failed("a", "t", 2, "boom", null, false, THREE, 5)).isInstanceOf(Finish.Failed.class)
                .extracting(f -> ((Finish.Failed) f).attemptsMade()).isEqualTo(3);
        assertThat(Finish.failed("a", "t", 0, "boom", null, true, THREE, 5)).isInstanceOf(Finish.Failed.class);
    }

    @Test
    void aCompletionCountsItsAttempt() {
        Finish f = Finish.completed("a", "t", 4, "1", JobOptions.builder().build(), 5);

        assertThat(f).isInstanceOf(Finish.Completed.class);
        assertThat(((Finish.Completed) f).attemptsMade()).isEqualTo(5);
    }
}
