package io.bullpen.spring.boot.autoconfigure;

import io.bullpen.tracing.BullpenTracing;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * Bullpen's tracing when {@code bullpen-tracing} and {@code micrometer-observation} are on the
 * class path, the application has an {@link ObservationRegistry} and {@code bullpen.tracing.enabled}
 * is not false: a {@link BullpenTracing} bean (an {@code Instrumentation}, so the {@code Bullpen}
 * client gives it every queue and worker). Boot's tracing auto-configuration (Micrometer Tracing
 * over OpenTelemetry or Brave) turns its observations into spans and propagates the W3C context.
 * Runs after Boot's observation auto-configuration of either line (3.5 and 4.0 keep it in
 * different packages).
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration",
        "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
        "org.springframework.boot.observation.autoconfigure.ObservationAutoConfiguration"})
@ConditionalOnClass(name = {"io.micrometer.observation.ObservationRegistry", "io.bullpen.tracing.BullpenTracing"})
@ConditionalOnBean(ObservationRegistry.class)
@ConditionalOnProperty(prefix = "bullpen.tracing", name = "enabled", matchIfMissing = true)
public class BullpenTracingAutoConfiguration {

    /**
     * @param registry the application's observation registry
     * @param properties {@code bullpen.tracing.process-parent}
     * @return the tracing, given to the client as an instrumentation
     */
    @Bean
    @ConditionalOnMissingBean
    BullpenTracing bullpenTracing(ObservationRegistry registry, BullpenProperties properties) {
        return BullpenTracing.builder(registry)
                .processParent(BullpenTracing.ProcessParent.valueOf(properties.getTracing().getProcessParent().name()))
                .build();
    }
}
