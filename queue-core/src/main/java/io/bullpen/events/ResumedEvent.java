package io.bullpen.events;

import java.time.Instant;

/**
 * A paused queue was resumed (stream event {@code resumed}). {@link #jobId()} is null.
 *
 * @param eventId the stream entry id
 * @param time when Redis appended the event
 */
public record ResumedEvent(String eventId, Instant time) implements QueueEvent {
    /** @return "resumed" */
    @Override
    public String eventName() {
        return "resumed";
    }
}
