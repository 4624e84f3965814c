package io.bullpen.internal;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.deser.AbstractDeserializer;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBase;
import com.fasterxml.jackson.databind.deser.DefaultDeserializationContext;
import com.fasterxml.jackson.databind.deser.impl.UnsupportedTypeDeserializer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * What a queue checks about job data before it adds a job, so that a worker can read it back:
 * 1. once per data type (when the first queue of that type is built): Jackson can build a reader
 *    for it that can make an instance (not an abstract type without type information, not a
 *    type it does not support, not a class whose fields it may not touch);
 * 2. at each add: null data only where the type is {@code Void} or {@code Object};
 * 3. once per value class (the first value of each class decides): the value is an instance of
 *    the type's class (an unchecked call can pass anything, and Jackson, tolerating unknown
 *    properties, would read a {@code Thread}'s getters as an empty {@code Order}), and its JSON
 *    reads back as the type.
 * An add past the first of its class costs a null check, a class comparison (the last class
 * seen) or a map lookup: no decode. Not API.
 */
public final class DataCheck {
    /** By data type: the type check runs once per type, the class checks are shared by its queues. */
    private static final ConcurrentMap<JavaType, DataCheck> BY_TYPE = new ConcurrentHashMap<>();
    /** A bound on the classes remembered per type; past it, a new class is checked on each add. */
    private static final int MAX_CLASSES = 1_000;

    private final JavaType type;
    /** The class a value must be an instance of (boxed for a primitive), null for any. */
    private final Class<?> required;
    private final boolean nullable;
    /** Value class -> "" when its values can be read back, else why not. */
    private final ConcurrentMap<Class<?>, String> classes = new ConcurrentHashMap<>();
    private volatile Class<?> lastReadable;

    private DataCheck(JavaType type) {
        this.type = type;
        Class<?> raw = type.getRawClass();
        this.nullable = raw == Void.class || raw == void.class || raw == Object.class;
        this.required = raw == Object.class ? null : box(raw);
    }

    /**
     * The check for a queue's data type, made (and the type checked) on first use.
     *
     * @throws IllegalArgumentException naming the queue and the type when Jackson cannot read the type
     */
    public static DataCheck of(String queue, JavaType type) {
        DataCheck check = BY_TYPE.get(type);
        if (check != null) {
            return check;
        }
        String reason = unreadable(type);
        if (reason != null) {
            throw new IllegalArgumentException("queue " + queue + ": its data type " + type.toCanonical()
                    + " cannot be read back from JSON, so a worker could not read its jobs: " + reason);
        }
        return BY_TYPE.computeIfAbsent(type, DataCheck::new);
    }

    /** @return why Jackson cannot read {@code type}, or null when it can */
    private static String unreadable(JavaType type) {
        JsonDeserializer<?> deserializer;
        try {
            var mapper = JsonCodec.mapper();
            var context = ((DefaultDeserializationContext) mapper.getDeserializationContext())
                    .createInstance(mapper.getDeserializationConfig(), null, null);
            deserializer = context.findRootValueDeserializer(type);
            if (deserializer instanceof AbstractDeserializer
                    && mapper.getDeserializationConfig().findTypeDeserializer(type) == null) {
                return "it is abstract and carries no type information (@JsonTypeInfo); use a concrete class";
            }
        } catch (Exception | LinkageError e) {
            return e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
        }
        if (deserializer instanceof UnsupportedTypeDeserializer) {
            return "Jackson does not support it without a module the queue's mapper does not have";
        }
        if (deserializer instanceof BeanDeserializerBase bean && !bean.getValueInstantiator().canInstantiate()) {
            return "Jackson finds no way to create one (a no-argument constructor, a @JsonCreator or a record)";
        }
        return null;
    }

    /**
     * Checks one add's data.
     *
     * @param queue the queue, for the message
     * @param jobName the job's name, for the message (null: a data update)
     * @param scheduler the job scheduler whose template this is, or null for an add
     * @param data the data
     * @param json the data as JSON (what the add stores)
     * @throws IllegalArgumentException naming the queue and the job (and the scheduler) when a
     *     worker could not read the data back as the queue's type
     */
    public void check(String queue, String jobName, String scheduler, Object data, String json) {
        if (data == null) {
            if (!nullable) {
                throw new IllegalArgumentException(what(queue, jobName, scheduler) + " has no data (null), but the "
                        + "queue's data type is " + type.toCanonical() + ": a worker would get null. Pass the data, or "
                        + "use a queue of Void (or Object) for jobs without data");
            }
            return;
        }
        Class<?> c = data.getClass();
        if (c == lastReadable) {
            return;
        }
        String reason = classes.get(c);
        if (reason == null) {
            reason = examine(c, json);
            if (classes.size() < MAX_CLASSES) {
                classes.putIfAbsent(c, reason);
            }
        }
        if (!reason.isEmpty()) {
            throw new IllegalArgumentException(what(queue, jobName, scheduler) + ": its data, a " + c.getName()
                    + ", " + reason);
        }
        lastReadable = c;
    }

    /** @return "" when a value of class {@code c}, written as {@code json}, reads back as the type */
    private String examine(Class<?> c, String json) {
        if (required != null && !required.isAssignableFrom(c)) {
            return "is not a " + type.toCanonical() + " (the queue's data type)";
        }
        try {
            JsonCodec.decode(json, type);
            return "";
        } catch (RuntimeException e) {
            return "cannot be read back from its JSON as " + type.toCanonical() + ": " + e.getMessage();
        }
    }

    private static String what(String queue, String jobName, String scheduler) {
        if (jobName == null) {
            return "updateData on queue " + queue;
        }
        return (scheduler == null ? "" : "job scheduler " + Validation.quote(scheduler) + ": its template ")
                + "job " + Validation.quote(jobName) + " of queue " + queue;
    }

    private static Class<?> box(Class<?> c) {
        if (!c.isPrimitive()) {
            return c;
        }
        return java.lang.invoke.MethodType.methodType(c).wrap().returnType();
    }
}
