package io.bullpen.spring.boot4.starter;

import io.bullpen.spring.boot.test.BullpenMetricsApplicationTests;
import io.bullpen.testing.BullpenTest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The shared metrics test ({@link BullpenMetricsApplicationTests}) on Boot 4.0, with a plain
 * {@link SimpleMeterRegistry} bean: Boot 4's registry auto-configuration is a module this starter
 * does not bring.
 */
@BullpenTest
class BullpenMetricsApplicationTest extends BullpenMetricsApplicationTests {
    @Override
    protected Class<?>[] moreSources() {
        return new Class<?>[] {Registry.class};
    }

    /** The application's registry. */
    @Configuration(proxyBeanMethods = false)
    static class Registry {
        @Bean
        SimpleMeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }
}
