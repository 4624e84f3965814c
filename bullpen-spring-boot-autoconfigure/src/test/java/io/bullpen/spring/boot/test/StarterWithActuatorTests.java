package io.bullpen.spring.boot.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.instrument.Instrumentation;
import io.bullpen.spring.boot.test.app.DemoApplication;
import io.bullpen.spring.boot.test.app.DemoApplication.Report;
import io.bullpen.testing.BullpenTestContext;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.ResolvableType;

/**
 * An application whose only dependencies are the starter and Boot's Actuator starter: Bullpen's
 * meters appear in Actuator's own registry and tracing is on, with nothing else added. Meters and
 * instrumentations are looked up by name, so the test reads the same whatever the starter brings.
 * Each starter runs it (with {@code @BullpenTest}) on a test class path of the starter plus
 * {@code spring-boot-starter-actuator}.
 */
public abstract class StarterWithActuatorTests {

    @Test
    void theStarterAndActuatorAloneShowBullpensMeters(BullpenTestContext ctx) {
        ctx.redis().assumeNotCluster("spring.data.redis.host/port name one server");
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(DemoApplication.class)
                .web(WebApplicationType.NONE)
                .properties("spring.data.redis.host=" + ctx.redis().host(), "spring.data.redis.port=" + ctx.redis().port())
                .run()) {
            MeterRegistry registry = app.getBean(MeterRegistry.class);
            assertThat(registry.find("bullpen.queue.jobs").tag("queue", "reports").gauges())
                    .as("bullpen.queue.jobs gauges of the @BullpenWorker queue in Actuator's registry")
                    .isNotEmpty();

            @SuppressWarnings("unchecked")
            Queue<Report> reports = (Queue<Report>) app.getBeanProvider(
                    ResolvableType.forClassWithGenerics(Queue.class, Report.class)).getObject();
            Job<Report> job = reports.add("adhoc", new Report("monday"));
            await().atMost(Duration.ofSeconds(10)).until(() -> reports.getState(job.id()) == JobState.COMPLETED);
            await().atMost(Duration.ofSeconds(10)).until(() ->
                    registry.find("bullpen.jobs.completed").tag("queue", "reports").counter() != null);
            assertThat(registry.get("bullpen.queue.jobs").tags("queue", "reports", "state", "completed")
                    .gauge().value()).isEqualTo(1);

            assertThat(app.getBeanProvider(Instrumentation.class).stream().map(i -> i.getClass().getName()))
                    .as("the client's instrumentations: metrics and tracing, both switched on by Actuator's registries")
                    .contains("io.bullpen.micrometer.BullpenMetrics", "io.bullpen.tracing.BullpenTracing");
            // Without a tracer bridge, Actuator's observation registry times the observations.
            await().atMost(Duration.ofSeconds(10)).until(() -> registry.find("bullpen.process").timer() != null);
            assertThat(registry.get("bullpen.send").timer().count()).isGreaterThanOrEqualTo(1);
        }
    }
}
