package io.bullpen.spring.boot.autoconfigure;

import com.fasterxml.jackson.core.type.TypeReference;
import io.bullpen.JobOptions;
import io.bullpen.Queue;
import io.bullpen.client.Bullpen;
import io.bullpen.dashboard.Dashboard;
import io.bullpen.flow.FlowProducer;
import io.bullpen.instrument.Instrumentation;
import io.bullpen.spring.QueueRegistry;
import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.Set;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Bullpen for a Spring Boot application (both Boot lines): a {@link Bullpen} client over the
 * application's {@link RedissonClient} (or one built from {@code spring.data.redis.*}), a
 * {@link QueueRegistry}, {@code Queue<T>} beans, the {@code @BullpenWorker} methods' workers with
 * graceful shutdown, the health check behind the starters' indicators, and the dashboard when
 * {@code bullpen.dashboard.enabled}. Every {@link Instrumentation} bean (metrics, tracing) is given
 * to the client, so it observes every queue and worker.
 */
@AutoConfiguration
@EnableConfigurationProperties(BullpenProperties.class)
public class BullpenAutoConfiguration {
    private static final Logger log = LoggerFactory.getLogger(BullpenAutoConfiguration.class);

    /**
     * @return finds the {@code @BullpenWorker} methods and defines the {@code Queue<T>} beans
     */
    @Bean
    static WorkerMethodsRegistrar bullpenWorkerMethodsRegistrar() {
        return new WorkerMethodsRegistrar();
    }

    /**
     * @param environment holds {@code spring.data.redis.*}
     * @return a Redis client from {@code spring.data.redis.*}, when the application has none
     */
    @Bean(destroyMethod = "shutdown")
    @ConditionalOnMissingBean(RedissonClient.class)
    RedissonClient bullpenRedissonClient(Environment environment) {
        return Redisson.create(SpringDataRedisConfig.from(Binder.get(environment)));
    }

    /**
     * @param redisson the Redis client
     * @param properties the settings
     * @param instrumentations observers of every queue and worker (metrics, tracing), if any
     * @return the client; closes its workers, listeners and dashboard with the context
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    Bullpen bullpen(RedissonClient redisson, BullpenProperties properties,
                    ObjectProvider<Instrumentation> instrumentations) {
        Bullpen.Builder builder = Bullpen.builder(redisson).prefix(properties.getPrefix());
        instrumentations.orderedStream().forEach(builder::instrumentation);
        properties.getQueues().forEach((name, settings) -> {
            JobOptions defaults = settings.getDefaultJobOptions()
                    .toJobOptions("bullpen.queues." + name + ".default-job-options");
            if (defaults != null) {
                builder.defaultJobOptions(name, defaults);
            }
        });
        return builder.build();
    }

    /**
     * @param bullpen the client
     * @return queues by name, for names known only at runtime
     */
    @Bean
    @ConditionalOnMissingBean
    QueueRegistry bullpenQueueRegistry(Bullpen bullpen) {
        return new QueueRegistry() {
            @Override
            public <T> Queue<T> queue(String name, Class<T> dataType) {
                return bullpen.queue(name, dataType);
            }

            @Override
            public <T> Queue<T> queue(String name, TypeReference<T> dataType) {
                return bullpen.queue(name, dataType);
            }
        };
    }

    /**
     * @param bullpen the client
     * @return the flow producer: the client's prefix, each queue's default job options and the
     *     client's instrumentations (metrics, tracing), as the queues have them
     */
    @Bean
    @ConditionalOnMissingBean
    FlowProducer bullpenFlowProducer(Bullpen bullpen) {
        return bullpen.flows();
    }

    /**
     * @return the workers of the {@code @BullpenWorker} methods, started and stopped with the
     *     context; they write the declared settings marked with the owner
     *     ({@code bullpen.config-owner}, else {@code spring.application.name})
     */
    @Bean
    BullpenWorkers bullpenWorkers(Bullpen bullpen, QueueRegistry queues, BullpenProperties properties,
                                  @Qualifier(WorkerMethodsRegistrar.WORKER_METHODS_BEAN)
                                  WorkerMethodsRegistrar.WorkerMethods methods, BeanFactory beanFactory,
                                  Environment environment) {
        String owner = DeclaredConfiguration.owner(properties.getConfigOwner(),
                environment.getProperty("spring.application.name"));
        return new BullpenWorkers(bullpen, queues, properties, methods.methods(), beanFactory, owner);
    }

    /**
     * @return what the starters' {@code bullpen} health indicators report
     */
    @Bean
    BullpenHealth bullpenHealth(Bullpen bullpen, BullpenWorkers workers, BullpenProperties properties,
                                @Qualifier(WorkerMethodsRegistrar.WORKER_METHODS_BEAN)
                                WorkerMethodsRegistrar.WorkerMethods methods) {
        Set<String> queues = new LinkedHashSet<>(properties.getQueues().keySet());
        methods.methods().forEach(m -> queues.add(m.queue()));
        return new BullpenHealth(bullpen, workers, queues, Clock.systemUTC());
    }

    /**
     * @return the dashboard, listening on {@code bullpen.dashboard.port} (127.0.0.1 by default),
     *     unless {@code bullpen.dashboard.path} puts it under the servlet web server
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnProperty(prefix = "bullpen.dashboard", name = "enabled", havingValue = "true")
    @Conditional(OwnDashboardPort.class)
    Dashboard bullpenDashboard(Bullpen bullpen, BullpenProperties properties) {
        BullpenProperties.Dashboard p = properties.getDashboard();
        Dashboard dashboard = bullpen.dashboard(d -> d.port(p.getPort()).host(p.getBindAddress()).token(p.getToken())
                .readOnly(p.isReadOnly()));
        dashboard.start();
        log.info("Bullpen dashboard at {}{}", dashboard.url(),
                p.getToken() == null || p.getToken().isBlank() ? " (no bullpen.dashboard.token: actions are off)" : "");
        return dashboard;
    }

    /** No {@code bullpen.dashboard.path}: the dashboard runs its own server. */
    static final class OwnDashboardPort implements Condition {
        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return context.getEnvironment().getProperty("bullpen.dashboard.path") == null;
        }
    }
}
