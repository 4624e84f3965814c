package io.bullpen.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.JobCounts;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A scrape reads six gauges per queue but costs one counts call. */
class CachedCountsTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final AtomicInteger calls = new AtomicInteger();

    private void scrape() {
        registry.find(BullpenMetrics.QUEUE_JOBS).gauges().forEach(Gauge::value);
    }

    @Test
    void oneCountsCallServesEveryGaugeOfAScrape() {
        BullpenMetrics metrics = BullpenMetrics.builder(registry).build();
        metrics.monitor("orders", () -> {
            calls.incrementAndGet();
            return new JobCounts(4, 1, 2, 0, 9, 3, false);
        });

        scrape();
        scrape();

        assertThat(calls).hasValue(1);
        assertThat(registry.get(BullpenMetrics.QUEUE_JOBS).tag("state", "completed").gauge().value()).isEqualTo(9);
        assertThat(registry.get(BullpenMetrics.QUEUE_JOBS).tag("state", "waiting").gauge().value()).isEqualTo(4);
        assertThat(calls).hasValue(1);
    }

    @Test
    void withoutTheCacheEachGaugeWouldCostACall() {
        BullpenMetrics metrics = BullpenMetrics.builder(registry).countsTtl(Duration.ZERO).build();
        metrics.monitor("orders", () -> {
            calls.incrementAndGet();
            return new JobCounts(0, 0, 0, 0, 0, 0, false);
        });

        scrape();

        assertThat(calls).hasValue(7);
    }

    @Test
    void aFailedReadIsNaNAndIsNotRetriedByTheSameScrape() {
        BullpenMetrics metrics = BullpenMetrics.builder(registry).build();
        metrics.monitor("orders", () -> {
            calls.incrementAndGet();
            throw new IllegalStateException("redis is down");
        });

        scrape();

        assertThat(calls).hasValue(1);
        assertThat(registry.get(BullpenMetrics.QUEUE_JOBS).tag("state", "active").gauge().value()).isNaN();
    }

    @Test
    void monitoringAQueueTwiceRegistersItsGaugesOnceAndBindToAddsThemToAnotherRegistry() {
        BullpenMetrics metrics = BullpenMetrics.builder(registry).build();
        metrics.monitor("orders", () -> new JobCounts(1, 0, 0, 0, 0, 0, false));
        metrics.monitor("orders", () -> new JobCounts(2, 0, 0, 0, 0, 0, false));
        SimpleMeterRegistry other = new SimpleMeterRegistry();
        metrics.bindTo(other);

        assertThat(registry.find(BullpenMetrics.QUEUE_JOBS).gauges()).hasSize(7);
        assertThat(other.get(BullpenMetrics.QUEUE_JOBS).tag("state", "waiting").gauge().value()).isEqualTo(1);
    }

    @Test
    void aNegativeTtlIsRefusedWithItsValue() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> BullpenMetrics.builder(registry).countsTtl(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PT-1S");
    }
}
