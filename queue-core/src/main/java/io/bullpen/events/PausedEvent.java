package io.bullpen.events;

import java.time.Instant;

/**
 * The queue was paused: workers take no jobs until it is resumed (stream event {@code paused}).
 * {@link #jobId()} is null.
 *
 * @param eventId the stream entry id
 * @param time when Redis appended the event
 */
public record PausedEvent(String eventId, Instant time) implements QueueEvent {
    /** @return "paused" */
    @Override
    public String eventName() {
        return "paused";
    }
}
