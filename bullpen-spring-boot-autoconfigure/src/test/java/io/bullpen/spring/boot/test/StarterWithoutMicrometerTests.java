package io.bullpen.spring.boot.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.instrument.Instrumentation;
import io.bullpen.spring.boot.test.app.DemoApplication;
import io.bullpen.spring.boot.test.app.DemoApplication.Report;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.ResolvableType;

/**
 * An application with the starter and without Actuator or Micrometer's core: the metrics and
 * tracing modules the starter brings stay off, and nothing fails for want of a class.
 * (micrometer-observation stays: Spring's spring-context depends on it; with no
 * {@code ObservationRegistry} bean tracing is off all the same.) Tagged
 * {@value #TAG}: each starter runs it in a surefire execution of its own whose class path leaves
 * out micrometer-core and Actuator (the default execution excludes the tag).
 */
@Tag(StarterWithoutMicrometerTests.TAG)
public abstract class StarterWithoutMicrometerTests {
    /** The tag of tests that need a class path without Micrometer's core and Actuator. */
    public static final String TAG = "without-micrometer";

    @Test
    void theStarterWithoutMicrometerStartsAndRunsJobs(BullpenTestContext ctx) {
        ClassLoader loader = getClass().getClassLoader();
        assertThatThrownBy(() -> Class.forName("io.micrometer.core.instrument.MeterRegistry", false, loader))
                .as("micrometer-core must be missing from this test's class path")
                .isInstanceOf(ClassNotFoundException.class);
        // What the starter brings, present although Micrometer's core is not (looked up as
        // files: loading BullpenMetrics itself needs Micrometer).
        assertThat(loader.getResource("io/bullpen/micrometer/BullpenMetrics.class")).isNotNull();
        assertThat(loader.getResource("io/bullpen/tracing/BullpenTracing.class")).isNotNull();

        ctx.redis().assumeNotCluster("spring.data.redis.host/port name one server");
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(DemoApplication.class)
                .web(WebApplicationType.NONE)
                .properties("spring.data.redis.host=" + ctx.redis().host(), "spring.data.redis.port=" + ctx.redis().port())
                .run()) {
            @SuppressWarnings("unchecked")
            Queue<Report> reports = (Queue<Report>) app.getBeanProvider(
                    ResolvableType.forClassWithGenerics(Queue.class, Report.class)).getObject();
            Job<Report> job = reports.add("adhoc", new Report("monday"));
            await().atMost(Duration.ofSeconds(10)).until(() -> reports.getState(job.id()) == JobState.COMPLETED);

            assertThat(app.getBeanProvider(Instrumentation.class).stream().map(i -> i.getClass().getName()))
                    .doesNotContain("io.bullpen.micrometer.BullpenMetrics", "io.bullpen.tracing.BullpenTracing");
        }
    }
}
