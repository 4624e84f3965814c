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
 * type (a {@code List<T>} parameter: each job's data is a list). What it returns is the job's
 * result ({@code void}: none); what it throws fails the attempt.
 *
 * <p>A method taking an {@code io.bullpen.worker.JobBatch<T, R>} instead is a <em>batch worker</em>:
 * it gets up to {@link #batchSize()} jobs per call, reports a result per job through the batch,
 * and returns the result ({@code R}, or {@code void} for none) of the jobs it did not report; what
 * it throws fails the attempt of each job it did not report. The batch attributes apply to such
 * methods only.
 *
 * <pre>{@code
 * @Component
 * class Shipping {
 *     @BullpenWorker(queue = "orders", concurrency = "${orders.concurrency:4}")
 *     String ship(Order order) {
 *         return "shipped " + order.id();
 *     }
 * }
 *
 * @Component
 * class Rows {
 *     @BullpenWorker(queue = "rows", batchSize = "${rows.batch-size:500}", batchMinSize = "50", batchMaxWait = "2s")
 *     void insert(JobBatch<Row, Void> batch) {
 *         insertAll(batch.jobs());
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
     * @return how many jobs (for a batch worker: batches) run at once: a number or a placeholder such as
     *     {@code "${orders.concurrency:4}"}, resolved by the Environment; empty (the default):
     *     {@code bullpen.queues.<queue>.concurrency}, else 1
     */
    String concurrency() default "";

    /**
     * @return the most jobs per batch of a batch worker (a method taking a {@code JobBatch<T, R>}):
     *     a number {@code >= 1} or a placeholder; empty (the default):
     *     {@code bullpen.queues.<queue>.batch-size}, else 10
     */
    String batchSize() default "";

    /**
     * @return the fewest jobs a batch waits for, up to {@link #batchMaxWait()}, between 1 and the
     *     batch size: a number or a placeholder; empty (the default):
     *     {@code bullpen.queues.<queue>.batch-min-size}, else 1 (a batch runs with the jobs at hand)
     */
    String batchMinSize() default "";

    /**
     * @return how long a batch below {@link #batchMinSize()} waits for more jobs: a duration such
     *     as {@code "500ms"}, {@code "2s"} or {@code "PT0.5S"}, or a placeholder; empty (the default):
     *     {@code bullpen.queues.<queue>.batch-max-wait}, else 1s
     */
    String batchMaxWait() default "";
}
