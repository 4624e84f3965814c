package io.bullpen.spring.boot.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.instrument.Instrumentation;
import io.bullpen.micrometer.BullpenMetrics;
import io.bullpen.spring.boot.test.app.DemoApplication;
import io.bullpen.spring.boot.test.app.DemoApplication.Report;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.ResolvableType;

/**
 * The starter and Actuator in a whole application: Bullpen's meters land in Actuator's own
 * registry on both Boot lines; {@link #moreSources()} lets a subclass add configuration.
 */
@BullpenTest
public abstract class BullpenMetricsApplicationTests {
    /** @return configuration classes started next to the demo application; none by default */
    protected Class<?>[] moreSources() {
        return new Class<?>[0];
    }

    @Test
    void aJobsMetersAppearInTheApplicationsMeterRegistry(BullpenTestContext ctx) {
        ctx.redis().assumeNotCluster("spring.data.redis.host/port name one server");
        try (ConfigurableApplicationContext app = start(ctx)) {
            @SuppressWarnings("unchecked")
            Queue<Report> reports = (Queue<Report>) app.getBeanProvider(
                    ResolvableType.forClassWithGenerics(Queue.class, Report.class)).getObject();
            Job<Report> job = reports.add("adhoc", new Report("monday"));
            await().atMost(Duration.ofSeconds(10)).until(() -> reports.getState(job.id()) == JobState.COMPLETED);

            MeterRegistry registry = app.getBean(MeterRegistry.class);
            assertThat(app.getBeanProvider(Instrumentation.class).stream()).hasAtLeastOneElementOfType(BullpenMetrics.class);
            await().atMost(Duration.ofSeconds(10)).until(() ->
                    registry.find(BullpenMetrics.JOBS_COMPLETED).tag("queue", "reports").counter() != null);
            assertThat(registry.get(BullpenMetrics.JOB_DURATION).tags("queue", "reports", "outcome", "completed")
                    .timer().count()).isEqualTo(1);
            assertThat(registry.get(BullpenMetrics.QUEUE_JOBS).tags("queue", "reports", "state", "completed")
                    .gauge().value()).isEqualTo(1);
            // The @BullpenWorker worker's own pool, through Micrometer's executor binder.
            await().atMost(Duration.ofSeconds(10)).until(() ->
                    registry.find("executor.completed").tag("queue", "reports").functionCounter() != null);
            assertThat(registry.get("executor.completed").tag("queue", "reports").functionCounter().count())
                    .isGreaterThanOrEqualTo(1);
            assertThat(registry.get("executor.pool.max").tags("name", "bullpen-reports", "queue", "reports").gauge())
                    .isNotNull();
        }
    }

    @Test
    void bullpenMetricsEnabledFalseRegistersNothing(BullpenTestContext ctx) {
        ctx.redis().assumeNotCluster("spring.data.redis.host/port name one server");
        try (ConfigurableApplicationContext app = start(ctx, "bullpen.metrics.enabled=false")) {
            assertThat(app.getBeanProvider(BullpenMetrics.class).getIfAvailable()).isNull();
            assertThat(app.getBean(MeterRegistry.class).find(BullpenMetrics.QUEUE_JOBS).gauges()).isEmpty();
        }
    }

    private ConfigurableApplicationContext start(BullpenTestContext ctx, String... more) {
        return new SpringApplicationBuilder(DemoApplication.class).sources(moreSources())
                .web(WebApplicationType.NONE)
                .properties("spring.data.redis.host=" + ctx.redis().host(), "spring.data.redis.port=" + ctx.redis().port())
                .properties(more)
                .run();
    }
}
