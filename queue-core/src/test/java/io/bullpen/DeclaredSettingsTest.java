package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Settings and job schedulers declared by a configuration's owner, and what the API does to its mark. */
@BullpenTest
class DeclaredSettingsTest {
    private static final RateLimit TWO_PER_SECOND = RateLimit.of(2, Duration.ofSeconds(1));
    private Queue<String> queue;
    private DeclaredSettings<String> app;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).clock(ctx.clock()).build();
        app = queue.declaredBy("app");
    }

    @Test
    void anOwnerRemovesWhatItDeclaredAndNothingElse() {
        app.setRateLimit(TWO_PER_SECOND);
        app.setGlobalConcurrency(2);
        app.upsertJobScheduler("t", Repeat.every(Duration.ofSeconds(2)), JobTemplate.of("t", "x"));
        assertThat(queue.getRateLimit()).contains(TWO_PER_SECOND);
        assertThat(app.ownsRateLimit()).isTrue();
        assertThat(app.ownsGlobalConcurrency()).isTrue();
        assertThat(app.getJobSchedulerIds()).containsExactly("t");

        DeclaredSettings<String> other = queue.declaredBy("other");
        assertThat(other.removeRateLimit()).isFalse();
        assertThat(other.removeGlobalConcurrency()).isFalse();
        assertThat(other.removeJobScheduler("t")).isFalse();
        assertThat(other.getJobSchedulerIds()).isEmpty();

        assertThat(app.removeRateLimit()).isTrue();
        assertThat(app.removeGlobalConcurrency()).isTrue();
        assertThat(app.removeJobScheduler("t")).isTrue();
        assertThat(queue.getRateLimit()).isEmpty();
        assertThat(queue.getGlobalConcurrency()).isEmpty();
        assertThat(queue.getJobSchedulers()).isEmpty();
    }

    @Test
    void aWriteThroughTheQueueClearsTheMarkSoTheOwnerNoLongerRemovesIt() {
        app.setRateLimit(TWO_PER_SECOND);
        app.setGlobalConcurrency(2);
        app.upsertJobScheduler("t", Repeat.every(Duration.ofSeconds(2)), JobTemplate.of("t", "x"));

        queue.setRateLimit(TWO_PER_SECOND);
        queue.setGlobalConcurrency(3);
        queue.upsertJobScheduler("t", Repeat.every(Duration.ofSeconds(2)), JobTemplate.of("t", "x"));

        assertThat(app.ownsRateLimit()).isFalse();
        assertThat(app.ownsGlobalConcurrency()).isFalse();
        assertThat(app.getJobSchedulerIds()).isEmpty();
        assertThat(app.removeRateLimit()).isFalse();
        assertThat(app.removeGlobalConcurrency()).isFalse();
        assertThat(app.removeJobScheduler("t")).isFalse();
        assertThat(queue.getRateLimit()).contains(TWO_PER_SECOND);
        assertThat(queue.getGlobalConcurrency()).hasValue(3);
        assertThat(queue.getJobSchedulers()).extracting(JobScheduler::id).containsExactly("t");
    }

    @Test
    void aBadOwnerIsRefusedNamingIt() {
        assertThatThrownBy(() -> queue.declaredBy(" ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("owner").hasMessageContaining("\" \"");
        assertThatThrownBy(() -> queue.declaredBy("a\nb")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> queue.declaredBy(null)).isInstanceOf(NullPointerException.class);
    }
}
