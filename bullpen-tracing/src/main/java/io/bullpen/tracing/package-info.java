/**
 * Tracing for Bullpen through Micrometer's Observation API: {@link io.bullpen.tracing.BullpenTracing}
 * is an {@link io.bullpen.instrument.Instrumentation} that observes every add ({@code send <queue>},
 * producer) and every attempt ({@code process <queue>}, consumer), following OpenTelemetry's
 * messaging conventions, and stores the W3C trace context with each job. A tracing bridge
 * (Micrometer Tracing over OpenTelemetry or Brave, which Spring Boot configures) turns the
 * observations into spans. Usable without Spring.
 */
package io.bullpen.tracing;
