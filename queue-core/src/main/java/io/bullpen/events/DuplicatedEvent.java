package io.bullpen.events;

import java.time.Instant;

/**
 * An add with a custom job id that already exists added nothing (stream event {@code duplicated}).
 *
 * @param eventId the stream entry id
 * @param time when Redis appended the event
 * @param jobId the existing job's id
 * @param name the name the rejected add gave
 */
public record DuplicatedEvent(String eventId, Instant time, String jobId, String name) implements QueueEvent {
    /** @return "duplicated" */
    @Override
    public String eventName() {
        return "duplicated";
    }
}
