/**
 * Runnable examples of Bullpen, one {@code main} per feature over a small shared base
 * ({@link io.bullpen.examples.Example}), and the demo that runs them all
 * ({@link io.bullpen.examples.DemoMain}, packaged as {@code examples/target/bullpen-demo.jar}).
 *
 * <ul>
 *   <li>{@link io.bullpen.examples.CancelUnpaidOrderExample}: a delayed job per order, removed
 *       when the order is paid;</li>
 *   <li>{@link io.bullpen.examples.NotificationRetryExample}: retries on a staged schedule
 *       (15 s, 3 min, 10 min ... 15 h);</li>
 *   <li>{@link io.bullpen.examples.PriorityExample}: priorities and the order jobs run in;</li>
 *   <li>{@link io.bullpen.examples.RateLimitedApiExample}: a queue rate limit shared by its
 *       workers, and {@code RateLimitedException} on a 429;</li>
 *   <li>{@link io.bullpen.examples.MultiTenantExportExample}: a group per tenant, per-tenant
 *       concurrency 1, fair round robin over the tenants.</li>
 * </ul>
 *
 * <p>Each takes {@code --redis URL} and {@code --duration SECONDS}; without {@code --redis} it
 * uses the local Redis on 6379 when one answers, else an embedded one
 * ({@link io.bullpen.examples.RedisLauncher}).
 */
package io.bullpen.examples;
