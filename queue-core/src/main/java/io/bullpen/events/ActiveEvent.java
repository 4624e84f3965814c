package io.bullpen.events;

import java.time.Instant;

/**
 * A worker took a job and holds its lock (stream event {@code active}).
 *
 * @param eventId the stream entry id
 * @param time when Redis appended the event
 * @param jobId the job's id
 */
public record ActiveEvent(String eventId, Instant time, String jobId) implements QueueEvent {
    /** @return "active" */
    @Override
    public String eventName() {
        return "active";
    }
}
