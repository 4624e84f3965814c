package io.bullpen.spring.boot.starter;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.spring.boot.autoconfigure.BullpenAutoConfiguration;
import io.bullpen.spring.boot.autoconfigure.BullpenTracingAutoConfiguration;
import io.bullpen.spring.boot.test.BullpenTracingAutoConfigurationTests;
import io.bullpen.testing.BullpenTest;
import io.bullpen.tracing.BullpenTracing;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The shared tracing tests ({@link BullpenTracingAutoConfigurationTests}) on Boot 3.5, plus Boot's own registry. */
@BullpenTest
class BullpenTracingAutoConfigurationTest extends BullpenTracingAutoConfigurationTests {
    @Test
    void bootsOwnObservationRegistryIsPickedUpWhicheverOrderTheAutoConfigurationsAreListedIn() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(BullpenTracingAutoConfiguration.class, BullpenAutoConfiguration.class,
                        org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration.class))
                .withPropertyValues("bullpen.prefix=trace", "bullpen.worker.enabled=false")
                .withBean("redisson", RedissonClient.class, () -> redisson)
                .run(app -> assertThat(app).hasSingleBean(ObservationRegistry.class).hasSingleBean(BullpenTracing.class));
    }
}
