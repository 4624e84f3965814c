package io.bullpen.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a {@link BullpenWorker} method: upserts a job scheduler of that worker's queue when the
 * application starts (idempotent: every instance of the application may do it). Exactly one of
 * {@link #cron()} and {@link #every()} is set. A bad cron expression, zone or interval fails the
 * application context at startup with a message naming the bean and method, and so does a
 * scheduler without {@link #data()} on a worker whose data type is not {@code Void} or
 * {@code Object} (its processor would get null).
 *
 * <pre>{@code
 * @BullpenWorker(queue = "reports")
 * @BullpenScheduler(id = "nightly", cron = "0 2 * * *", zone = "Europe/Berlin", data = "\"all\"")
 * void report(String data) { ... }
 * }</pre>
 */
@Documented
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface BullpenScheduler {
    /** @return the scheduler's id, unique in its queue */
    String id();

    /** @return a 5-field Unix cron expression (or 6 with seconds first); placeholders resolved */
    String cron() default "";

    /** @return a fixed interval ("30s", "5m", "PT1H"); placeholders resolved */
    String every() default "";

    /** @return the zone the cron expression is read in (default UTC) */
    String zone() default "";

    /** @return the name of the jobs it adds (default: the scheduler's id) */
    String name() default "";

    /**
     * @return the jobs' data as JSON, read as the worker's data type; required unless that type is
     *     {@code Void} or {@code Object} (default: none, null data)
     */
    String data() default "";
}
