package io.bullpen.events;

import java.time.Instant;

/**
 * A worker took the last ready job: nothing is waiting or prioritized now (stream event
 * {@code drained}). Delayed jobs may still be pending. {@link #jobId()} is null.
 *
 * @param eventId the stream entry id
 * @param time when Redis appended the event
 */
public record DrainedEvent(String eventId, Instant time) implements QueueEvent {
    /** @return "drained" */
    @Override
    public String eventName() {
        return "drained";
    }
}
