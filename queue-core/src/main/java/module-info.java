/**
 * Bullpen's producer and admin API: {@link io.bullpen.Queue}, jobs and their options, job
 * schedulers, {@link io.bullpen.QueueEvents} and the event types, and the
 * {@link io.bullpen.instrument.Instrumentation} seam for metrics and tracing.
 *
 * <p>{@code io.bullpen.internal} holds the Redis plumbing shared with the worker and the
 * dashboard. It is not API: it is exported to those modules only, and may change in any release.
 * Job data is (de)serialized by Jackson: on the module path, open your data classes' packages to
 * {@code com.fasterxml.jackson.databind}.
 */
module io.bullpen {
    // In the API: Queue.builder takes a RedissonClient, and generic data types a Jackson TypeReference.
    requires transitive redisson;
    requires transitive com.fasterxml.jackson.databind;
    requires com.fasterxml.jackson.datatype.jsr310;
    requires com.cronutils;
    requires org.slf4j;
    requires io.bullpen.lua;

    exports io.bullpen;
    exports io.bullpen.events;
    exports io.bullpen.flow;
    exports io.bullpen.instrument;
    exports io.bullpen.internal to io.bullpen.worker, io.bullpen.dashboard, io.bullpen.client;
}
