package io.bullpen.spring.boot.autoconfigure;

import com.fasterxml.jackson.core.type.TypeReference;
import io.bullpen.Repeat;
import io.bullpen.spring.BullpenScheduler;
import io.bullpen.spring.BullpenWorker;
import io.bullpen.worker.JobBatch;
import io.bullpen.worker.JobContext;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.PropertyResolver;
import org.springframework.util.ClassUtils;

/**
 * One {@link BullpenWorker} method, read and checked when the context starts: its queue, data
 * type, whether it takes the {@link JobContext} or a {@link JobBatch}, its concurrency, its batch
 * attributes and its scheduler. Every problem is reported naming the bean and the method.
 *
 * @param beanName the bean declaring the method
 * @param method the method
 * @param queue the queue name
 * @param dataType the jobs' data type ({@code T})
 * @param takesContext true: the parameter is a {@code JobContext<T>}; false: the data itself (or a batch)
 * @param concurrency the resolved annotation value, null when unset
 * @param batch the batch attributes of a method taking a {@code JobBatch<T, R>}; null: a per-job method
 * @param scheduler the scheduler to upsert, null for none
 */
record WorkerMethod(String beanName, Method method, String queue, ResolvableType dataType, boolean takesContext,
                    Integer concurrency, WorkerBatch batch, Schedule scheduler) {

    /**
     * A {@link BullpenScheduler}, checked.
     *
     * @param id the scheduler id
     * @param repeat the schedule
     * @param jobName the name of the jobs it adds
     * @param dataJson the jobs' data as JSON, null for none
     */
    record Schedule(String id, Repeat repeat, String jobName, String dataJson) {
    }

    /** @return "bean 'name' method Type.method(Param)" for messages */
    String describe() {
        return describe(beanName, method);
    }

    static String describe(String beanName, Method method) {
        StringBuilder params = new StringBuilder();
        for (Class<?> p : method.getParameterTypes()) {
            params.append(params.length() == 0 ? "" : ", ").append(p.getSimpleName());
        }
        return "bean '" + beanName + "' method " + method.getDeclaringClass().getSimpleName() + "." + method.getName()
                + "(" + params + ")";
    }

    /** @return the data type as a Jackson type reference (generic types included) */
    TypeRef dataTypeReference() {
        return new TypeRef(dataType.getType());
    }

    /** A Jackson type reference for a type known only at runtime. */
    static final class TypeRef extends TypeReference<Object> {
        private final Type type;

        TypeRef(Type type) {
            this.type = type;
        }

        @Override
        public Type getType() {
            return type;
        }
    }

    /**
     * @param beanName the bean's name
     * @param beanType the bean's class (a proxy's user class is looked through)
     * @param env resolves placeholders in the annotations
     * @return the bean's worker methods, checked
     * @throws IllegalStateException naming the bean and method, for a method that cannot work
     */
    static List<WorkerMethod> find(String beanName, Class<?> beanType, PropertyResolver env) {
        Class<?> userType = ClassUtils.getUserClass(beanType);
        var found = MethodIntrospector.selectMethods(userType, (MethodIntrospector.MetadataLookup<BullpenWorker>)
                m -> AnnotatedElementUtils.findMergedAnnotation(m, BullpenWorker.class));
        List<WorkerMethod> methods = new ArrayList<>();
        found.forEach((method, annotation) -> methods.add(read(beanName, userType, method, annotation, env)));
        return methods;
    }

    private static WorkerMethod read(String beanName, Class<?> userType, Method method, BullpenWorker a,
                                     PropertyResolver env) {
        String where = describe(beanName, method);
        try {
            if (Modifier.isStatic(method.getModifiers())) {
                throw new IllegalArgumentException("it must not be static");
            }
            boolean batch = Arrays.stream(method.getParameterTypes()).anyMatch(JobBatch.class::isAssignableFrom);
            if (method.getParameterCount() != 1) {
                throw new IllegalArgumentException(batch
                        ? "a batch worker must take exactly one parameter, the JobBatch<T, R> (each job's data is in "
                                + "its jobs()), but takes " + method.getParameterCount()
                        : "it must take exactly one parameter, the job's data or its JobContext<T>, but takes "
                                + method.getParameterCount());
            }
            ResolvableType param = ResolvableType.forMethodParameter(method, 0, userType);
            boolean context = JobContext.class.isAssignableFrom(param.toClass());
            ResolvableType data = context ? param.as(JobContext.class).getGeneric(0)
                    : batch ? param.as(JobBatch.class).getGeneric(0) : param;
            if (data.resolve() == null || data.hasUnresolvableGenerics()) {
                throw new IllegalArgumentException("the data type of its parameter " + param
                        + " cannot be resolved: declare a concrete type"
                        + (context ? " as JobContext<T>" : batch ? " as JobBatch<T, R>" : ""));
            }
            WorkerBatch batchAttributes = null;
            if (batch) {
                checkBatchResult(method, userType, param.as(JobBatch.class));
                batchAttributes = WorkerBatch.read(a, env);
            } else {
                List<String> set = WorkerBatch.attributesSet(a);
                if (!set.isEmpty()) {
                    throw new IllegalArgumentException(String.join(", ", set) + ": the batch attributes apply to a "
                            + "batch worker, a method taking a JobBatch<T, R>, but this method takes " + param);
                }
            }
            String queue = env.resolveRequiredPlaceholders(a.queue()).trim();
            if (queue.isEmpty()) {
                throw new IllegalArgumentException("queue must not be blank");
            }
            Integer concurrency = null;
            String c = env.resolveRequiredPlaceholders(a.concurrency()).trim();
            if (!c.isEmpty()) {
                try {
                    concurrency = Integer.valueOf(c);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("concurrency must be a number but was \"" + c + "\"");
                }
                if (concurrency < 1) {
                    throw new IllegalArgumentException("concurrency must be >= 1 but was " + concurrency);
                }
            }
            BullpenScheduler s = AnnotatedElementUtils.findMergedAnnotation(method, BullpenScheduler.class);
            return new WorkerMethod(beanName, method, queue, data, context, concurrency, batchAttributes,
                    s == null ? null : schedule(s, env));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("@BullpenWorker " + where + ": " + e.getMessage(), e);
        }
    }

    /** A batch worker returns the result of the jobs it did not report: an {@code R}, or nothing. */
    private static void checkBatchResult(Method method, Class<?> userType, ResolvableType batch) {
        Class<?> returned = ResolvableType.forMethodReturnType(method, userType).toClass();
        Class<?> result = batch.getGeneric(1).resolve(Object.class);
        if (returned != void.class && returned != Void.class && !ClassUtils.isAssignable(result, returned)) {
            throw new IllegalArgumentException("it returns " + returned.getSimpleName() + ", but its " + batch
                    + " takes results of type " + result.getSimpleName() + ": return " + result.getSimpleName()
                    + " (the result of the jobs it does not report) or void");
        }
    }

    private static Schedule schedule(BullpenScheduler s, PropertyResolver env) {
        String id = env.resolveRequiredPlaceholders(s.id()).trim();
        String cron = env.resolveRequiredPlaceholders(s.cron()).trim();
        String every = env.resolveRequiredPlaceholders(s.every()).trim();
        String zone = env.resolveRequiredPlaceholders(s.zone()).trim();
        if (id.isEmpty()) {
            throw new IllegalArgumentException("@BullpenScheduler id must not be blank");
        }
        if (cron.isEmpty() == every.isEmpty()) {
            throw new IllegalArgumentException("@BullpenScheduler \"" + id + "\" needs exactly one of cron and every, "
                    + "but has " + (cron.isEmpty() ? "neither" : "both"));
        }
        Repeat repeat;
        if (!cron.isEmpty()) {
            ZoneId zoneId;
            try {
                zoneId = zone.isEmpty() ? ZoneOffset.UTC : ZoneId.of(zone);
            } catch (DateTimeException e) {
                throw new IllegalArgumentException("@BullpenScheduler \"" + id + "\": unknown zone \"" + zone + "\"");
            }
            try {
                repeat = Repeat.cron(cron, zoneId);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("@BullpenScheduler \"" + id + "\": " + e.getMessage(), e);
            }
        } else {
            if (!zone.isEmpty()) {
                throw new IllegalArgumentException("@BullpenScheduler \"" + id + "\": zone applies to cron only");
            }
            Duration interval;
            try {
                interval = DurationStyle.detectAndParse(every);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("@BullpenScheduler \"" + id + "\": every must be a duration such as "
                        + "\"30s\" or \"PT5M\" but was \"" + every + "\"");
            }
            try {
                repeat = Repeat.every(interval);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("@BullpenScheduler \"" + id + "\": " + e.getMessage(), e);
            }
        }
        String name = env.resolveRequiredPlaceholders(s.name()).trim();
        String data = s.data().isBlank() ? null : s.data();
        return new Schedule(id, repeat, name.isEmpty() ? id : name, data);
    }
}
