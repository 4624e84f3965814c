package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Batch options and the builder's batch settings: bad values are refused naming them, before any worker exists. */
class JobBatchOptionsTest {
    private final FakeWorkerStore store = new FakeWorkerStore();

    @Test
    void optionsKeepWhatWasSetAndDefaultToRunAtOnce() {
        JobBatchOptions o = JobBatchOptions.of(100).minSize(10).maxWait(Duration.ofSeconds(2)).sameGroup(true);
        assertThat(o.size()).isEqualTo(100);
        assertThat(o.minSize()).isEqualTo(10);
        assertThat(o.maxWait()).isEqualTo(Duration.ofSeconds(2));
        assertThat(o.sameGroup()).isTrue();
        JobBatchOptions d = JobBatchOptions.of(5);
        assertThat(d.minSize()).isEqualTo(1);
        assertThat(d.maxWait()).isEqualTo(JobBatchOptions.DEFAULT_MAX_WAIT);
        assertThat(d.sameGroup()).isFalse();
        assertThat(JobBatchOptions.of(5)).isEqualTo(d).hasSameHashCodeAs(d);
    }

    @Test
    void badValuesAreRefusedNamingThem() {
        assertThatThrownBy(() -> JobBatchOptions.of(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("batch size must be >= 1 but was 0");
        assertThatThrownBy(() -> JobBatchOptions.of(10).minSize(11)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("batch minSize must be between 1 and the batch size 10 but was 11");
        assertThatThrownBy(() -> JobBatchOptions.of(10).minSize(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("but was 0");
        assertThatThrownBy(() -> JobBatchOptions.of(10).maxWait(Duration.ofMillis(-5)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("batch maxWait must be >= 0 but was -5ms");
        assertThatThrownBy(() -> JobBatchOptions.of(10).maxWait(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("maxWait");
    }

    @Test
    void settingBothProcessorAndBatchProcessorThrowsInEitherOrder() {
        assertThatThrownBy(() -> Worker.builder(store, "q", String.class).processor(c -> "x")
                .batchProcessor(b -> "y")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not both");
        assertThatThrownBy(() -> Worker.builder(store, "q", String.class).batchProcessor(b -> "y")
                .processor(c -> "x")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not both");
    }

    @Test
    void batchOptionsWithoutABatchProcessorAreRefusedAtBuild() {
        assertThatThrownBy(() -> Worker.builder(store, "q", String.class).processor(c -> "x")
                .batch(JobBatchOptions.of(10)).build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("batchProcessor");
    }

    @Test
    void aBatchProcessorWithoutOptionsGetsTheDefaultAndKeepsEverySetting() {
        Worker.Builder<String, String> b = Worker.builder(store, "q", String.class).concurrency(3)
                .batch(JobBatchOptions.of(7)).batchProcessor(batch -> "y");
        assertThat(b.batchOptions()).isEqualTo(JobBatchOptions.of(7));
        assertThat(b.concurrency).isEqualTo(3);
        assertThat(Worker.builder(store, "q", String.class).batchProcessor(batch -> "y").batchOptions().size())
                .isEqualTo(10);
    }
}
