/**
 * Micrometer meters for Bullpen: {@link io.bullpen.micrometer.BullpenMetrics} observes queues and
 * workers through the core's {@link io.bullpen.instrument.Instrumentation} seam and reads each
 * monitored queue's job counts for gauges. Needs {@code micrometer-core} (1.15 or newer) on the
 * class path; works with or without Spring.
 */
package io.bullpen.micrometer;
