package io.bullpen.spring.boot.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.Job;
import io.bullpen.client.Bullpen;
import io.bullpen.flow.FlowJob;
import io.bullpen.flow.FlowProducer;
import io.bullpen.flow.JobNode;
import io.bullpen.instrument.Instrumentation;
import io.bullpen.internal.WireFormat;
import io.bullpen.spring.boot.autoconfigure.BullpenAutoConfiguration;
import io.bullpen.spring.boot.autoconfigure.BullpenTracingAutoConfiguration;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.tracing.BullpenTracing;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.transport.SenderContext;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The BullpenTracing bean and its conditions (registry, property, class path), shared by both
 * starters (each runs it under its Boot line with {@code @BullpenTest}).
 */
public abstract class BullpenTracingAutoConfigurationTests {
    private ApplicationContextRunner runner;
    /** The harness's client, for the subclass's own contexts. */
    protected RedissonClient redisson;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        redisson = ctx.redisson();
        runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(BullpenAutoConfiguration.class, BullpenTracingAutoConfiguration.class))
                .withPropertyValues("bullpen.prefix=trace", "bullpen.worker.enabled=false")
                .withBean("redisson", RedissonClient.class, ctx::redisson);
    }

    private static ObservationRegistry injecting() {
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new ObservationHandler<SenderContext<Map<String, String>>>() {
            @Override
            public void onStart(SenderContext<Map<String, String>> context) {
                context.getCarrier().put("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return context instanceof SenderContext<?>;
            }
        });
        return registry;
    }

    @Test
    void anObservationRegistryBeanGivesTheClientTracingThatStoresTheContextWithEveryJob() {
        runner.withBean(ObservationRegistry.class, BullpenTracingAutoConfigurationTests::injecting).run(app -> {
            assertThat(app).hasSingleBean(BullpenTracing.class);
            assertThat(app.getBean(BullpenTracing.class).processParent()).isEqualTo(BullpenTracing.ProcessParent.PRODUCER);
            assertThat(app.getBeanProvider(Instrumentation.class).stream()).hasAtLeastOneElementOfType(BullpenTracing.class);
            Job<String> job = app.getBean(Bullpen.class).queue("traced", String.class).add("a", "x");
            assertThat(WireFormat.fields(job)).containsKey("tc");
        });
    }

    @Test
    void theFlowProducerBeanStoresTheContextWithEveryJobOfAFlow() {
        runner.withBean(ObservationRegistry.class, BullpenTracingAutoConfigurationTests::injecting).run(app -> {
            JobNode root = app.getBean(FlowProducer.class).add(FlowJob.builder("traced-reports", "assemble", "r")
                    .child(FlowJob.builder("traced-pages", "render", "p").build()).build());
            Bullpen bullpen = app.getBean(Bullpen.class);
            Job<String> parent = bullpen.queue("traced-reports", String.class).getJob(root.id()).orElseThrow();
            Job<String> child = bullpen.queue("traced-pages", String.class).getJob(root.children().get(0).id()).orElseThrow();
            assertThat(WireFormat.fields(parent)).containsEntry("tc", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
            assertThat(WireFormat.fields(child)).containsEntry("tc", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        });
    }

    @Test
    void processParentLinkIsAProperty() {
        runner.withBean(ObservationRegistry.class, ObservationRegistry::create)
                .withPropertyValues("bullpen.tracing.process-parent=link")
                .run(app -> assertThat(app.getBean(BullpenTracing.class).processParent())
                        .isEqualTo(BullpenTracing.ProcessParent.LINK));
    }

    @Test
    void noTracingWhenDisabledWithoutARegistryOrWithoutBullpenTracing() {
        runner.withBean(ObservationRegistry.class, ObservationRegistry::create)
                .withPropertyValues("bullpen.tracing.enabled=false")
                .run(app -> assertThat(app).hasSingleBean(Bullpen.class).doesNotHaveBean(BullpenTracing.class));
        runner.run(app -> assertThat(app).hasSingleBean(Bullpen.class).doesNotHaveBean(BullpenTracing.class));
        runner.withBean(ObservationRegistry.class, ObservationRegistry::create)
                .withClassLoader(new FilteredClassLoader(BullpenTracing.class))
                .run(app -> assertThat(app).hasSingleBean(Bullpen.class).doesNotHaveBean(BullpenTracing.class));
    }
}
