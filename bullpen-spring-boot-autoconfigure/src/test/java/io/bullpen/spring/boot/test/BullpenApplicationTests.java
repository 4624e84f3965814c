package io.bullpen.spring.boot.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobScheduler;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.spring.boot.test.app.DemoApplication;
import io.bullpen.spring.boot.test.app.DemoApplication.Report;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.ResolvableType;

/**
 * A whole {@code @SpringBootApplication}: nothing but the starter and properties. Each starter's
 * subclass reads the {@code bullpen} health through its line's {@code HealthEndpoint}.
 */
@BullpenTest
public abstract class BullpenApplicationTests {
    /**
     * @param app the running application
     * @return the status code of {@code HealthEndpoint.healthForPath("bullpen")}, or null without one
     */
    protected abstract String bullpenHealthStatus(ConfigurableApplicationContext app);

    @Test
    void aSpringBootApplicationRunsItsWorkerMethodAndReportsHealth(BullpenTestContext ctx) {
        ctx.redis().assumeNotCluster("spring.data.redis.host/port name one server");
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(DemoApplication.class)
                .web(WebApplicationType.NONE)
                .properties("spring.data.redis.host=" + ctx.redis().host(), "spring.data.redis.port=" + ctx.redis().port(),
                        "reports.concurrency=2", "management.endpoint.health.show-details=always")
                .run()) {
            @SuppressWarnings("unchecked")
            Queue<Report> reports = (Queue<Report>) app.getBeanProvider(
                    ResolvableType.forClassWithGenerics(Queue.class, Report.class)).getObject();
            Job<Report> job = reports.add("adhoc", new Report("monday"));
            await().atMost(Duration.ofSeconds(10)).until(() -> reports.getState(job.id()) == JobState.COMPLETED);
            assertThat(reports.getJob(job.id()).orElseThrow().returnValue(String.class)).contains("report for monday");
            assertThat(reports.getJobSchedulers()).extracting(JobScheduler::id).containsExactly("nightly");

            assertThat(bullpenHealthStatus(app)).isEqualTo("UP");
        }
    }
}
