package io.bullpen.events;

import java.time.Instant;

/**
 * A job's data was replaced: by {@code Queue.updateData}, or by a step job's staged data
 * ({@code JobContext.updateData}) landing with the end of its attempt (stream event
 * {@code dataUpdated}). Read the job for the data itself.
 *
 * @param eventId the stream entry id
 * @param time when Redis appended the event
 * @param jobId the job's id
 */
public record DataUpdatedEvent(String eventId, Instant time, String jobId) implements QueueEvent {
    /** @return "dataUpdated" */
    @Override
    public String eventName() {
        return "dataUpdated";
    }
}
