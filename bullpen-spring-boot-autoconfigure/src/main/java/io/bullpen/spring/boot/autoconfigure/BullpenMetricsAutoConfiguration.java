package io.bullpen.spring.boot.autoconfigure;

import io.bullpen.Queue;
import io.bullpen.client.Bullpen;
import io.bullpen.micrometer.BullpenMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.LinkedHashSet;
import java.util.Set;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * Bullpen's Micrometer meters when {@code bullpen-micrometer} and {@code micrometer-core} are on the
 * class path, the application has a {@link MeterRegistry} and {@code bullpen.metrics.enabled} is
 * not false: a {@link BullpenMetrics} bean (an {@code Instrumentation}, so the {@link Bullpen}
 * client gives it every queue and worker, so the workers' own pools are measured too) and the
 * job-count gauges of every configured ({@code bullpen.queues.*}) and {@code @BullpenWorker} queue. Runs after Boot's meter registry
 * auto-configuration of either line (3.5 and 4.0 keep it in different packages).
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration"})
@ConditionalOnClass(name = {"io.micrometer.core.instrument.MeterRegistry", "io.bullpen.micrometer.BullpenMetrics"})
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnProperty(prefix = "bullpen.metrics", name = "enabled", matchIfMissing = true)
public class BullpenMetricsAutoConfiguration {

    /**
     * @param registry the application's meter registry
     * @param properties {@code bullpen.metrics.job-name-tag}
     * @return the meters, given to the client as an instrumentation
     */
    @Bean
    @ConditionalOnMissingBean
    BullpenMetrics bullpenMetrics(MeterRegistry registry, BullpenProperties properties) {
        return BullpenMetrics.builder(registry).jobNameTag(properties.getMetrics().isJobNameTag()).build();
    }

    /**
     * @return registers the gauges once every singleton exists (a separate bean: the client needs
     *     the metrics bean first, so the metrics bean cannot need the client)
     */
    @Bean
    SmartInitializingSingleton bullpenQueueGauges(BullpenMetrics metrics, Bullpen bullpen, BullpenProperties properties,
                                                  @Qualifier(WorkerMethodsRegistrar.WORKER_METHODS_BEAN)
                                                  WorkerMethodsRegistrar.WorkerMethods methods) {
        return () -> {
            Set<String> queues = new LinkedHashSet<>(properties.getQueues().keySet());
            methods.methods().forEach(m -> queues.add(m.queue()));
            // Counts do not read job data: a queue of Object serves any data type.
            queues.forEach(name -> metrics.monitor(
                    Queue.builder(bullpen.redisson(), name, Object.class).prefix(bullpen.prefix()).build()));
        };
    }
}
