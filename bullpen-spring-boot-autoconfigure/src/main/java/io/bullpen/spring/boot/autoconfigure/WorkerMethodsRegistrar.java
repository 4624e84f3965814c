package io.bullpen.spring.boot.autoconfigure;

import io.bullpen.Queue;
import io.bullpen.spring.BullpenWorker;
import io.bullpen.spring.QueueRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.AutowireCandidateQualifier;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.Ordered;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;

/**
 * Before any bean is created: finds every {@link BullpenWorker} method of the application's beans
 * (checking each, so a method that cannot work fails the context naming bean and method), and
 * defines a {@code Queue<T>} bean per queue whose data type is known (from a worker method's
 * parameter or {@code bullpen.queues.<name>.data-type}): bean name {@code <queue>Queue},
 * qualifier {@code <queue>}, generic type {@code Queue<T>}.
 */
final class WorkerMethodsRegistrar implements BeanDefinitionRegistryPostProcessor, EnvironmentAware, Ordered {
    private static final Logger log = LoggerFactory.getLogger(WorkerMethodsRegistrar.class);
    static final String WORKER_METHODS_BEAN = "bullpenWorkerMethods";

    private Environment environment;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
        if (!(registry instanceof ConfigurableListableBeanFactory beanFactory)) {
            return;
        }
        List<WorkerMethod> methods = new ArrayList<>();
        for (String name : registry.getBeanDefinitionNames()) {
            BeanDefinition definition = registry.getBeanDefinition(name);
            if (definition.getRole() != BeanDefinition.ROLE_APPLICATION || definition.isAbstract()) {
                continue;
            }
            Class<?> type;
            try {
                type = beanFactory.getType(name, false);
            } catch (RuntimeException e) {
                continue;
            }
            if (type != null) {
                methods.addAll(WorkerMethod.find(name, type, environment));
            }
        }
        Map<String, ResolvableType> types = queueTypes(methods);
        types.forEach((queue, type) -> defineQueue(registry, beanFactory, queue, type));
        RootBeanDefinition holder = new RootBeanDefinition(WorkerMethods.class);
        holder.setInstanceSupplier(() -> new WorkerMethods(List.copyOf(methods)));
        holder.setRole(BeanDefinition.ROLE_INFRASTRUCTURE);
        registry.registerBeanDefinition(WORKER_METHODS_BEAN, holder);
    }

    private Map<String, ResolvableType> queueTypes(List<WorkerMethod> methods) {
        Map<String, ResolvableType> types = new LinkedHashMap<>();
        Map<String, String> from = new LinkedHashMap<>();
        BullpenProperties props = Binder.get(environment).bind("bullpen", BullpenProperties.class)
                .orElseGet(BullpenProperties::new);
        props.getQueues().forEach((queue, settings) -> {
            if (settings.getDataType() != null) {
                types.put(queue, ResolvableType.forClass(settings.getDataType()));
                from.put(queue, "bullpen.queues." + queue + ".data-type");
            }
        });
        for (WorkerMethod m : methods) {
            ResolvableType known = types.putIfAbsent(m.queue(), m.dataType());
            if (known == null) {
                from.put(m.queue(), m.describe());
            } else if (!known.getType().equals(m.dataType().getType())) {
                throw new IllegalStateException("@BullpenWorker " + m.describe() + ": queue \"" + m.queue()
                        + "\" takes data of type " + m.dataType() + ", but " + from.get(m.queue()) + " says " + known);
            }
        }
        return types;
    }

    private static void defineQueue(BeanDefinitionRegistry registry, BeanFactory beanFactory, String queue,
                                    ResolvableType type) {
        String beanName = queue + "Queue";
        if (registry.containsBeanDefinition(beanName)) {
            log.info("a bean named {} exists: no Queue bean defined for queue {}", beanName, queue);
            return;
        }
        RootBeanDefinition definition = new RootBeanDefinition(Queue.class);
        definition.setTargetType(ResolvableType.forClassWithGenerics(Queue.class, type));
        definition.addQualifier(new AutowireCandidateQualifier(Qualifier.class, queue));
        WorkerMethod.TypeRef ref = new WorkerMethod.TypeRef(type.getType());
        definition.setInstanceSupplier(() -> beanFactory.getBean(QueueRegistry.class).queue(queue, ref));
        // Queues are closed by the Bullpen client that hands them out, not one by one.
        definition.setDestroyMethodName("");
        registry.registerBeanDefinition(beanName, definition);
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
    }

    /**
     * The worker methods found, for the lifecycle that starts them.
     *
     * @param methods the methods
     */
    record WorkerMethods(List<WorkerMethod> methods) {
    }
}
