/**
 * Bullpen's Spring annotations ({@link io.bullpen.spring.BullpenWorker},
 * {@link io.bullpen.spring.BullpenScheduler}) and the {@link io.bullpen.spring.QueueRegistry};
 * the beans behind them come from the Spring Boot starters' auto-configuration.
 */
package io.bullpen.spring;
