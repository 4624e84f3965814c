package io.bullpen.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a bean method the processor of a queue: one {@code Worker} per annotated method, started
 * with the application context and closed gracefully with it.
 *
 * <p>The method takes one parameter, the job's data ({@code T}) or its
 * {@code io.bullpen.worker.JobContext<T>}; the data type comes from that parameter's (generic)
 * type. What it returns is the job's result ({@code void}: none); what it throws fails the attempt.
 *
 * <pre>{@code
 * @Component
 * class Shipping {
 *     @BullpenWorker(queue = "orders", concurrency = "${orders.concurrency:4}")
 *     String ship(Order order) {
 *         return "shipped " + order.id();
 *     }
 * }
 * }</pre>
 */
@Documented
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface BullpenWorker {
    /** @return the queue name */
    String queue();

    /**
     * @return how many jobs run at once: a number or a placeholder such as
     *     {@code "${orders.concurrency:4}"}, resolved by the Environment; empty (the default):
     *     {@code bullpen.queues.<queue>.concurrency}, else 1
     */
    String concurrency() default "";
}
