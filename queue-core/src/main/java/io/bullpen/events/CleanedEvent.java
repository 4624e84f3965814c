package io.bullpen.events;

import io.bullpen.JobState;
import java.time.Instant;

/**
 * An administrator removed jobs in bulk: {@code Queue.clean(..)} or {@code Queue.drain(..)}
 * (stream event {@code cleaned}). One event per operation, not one per job. {@link #jobId()}
 * is null.
 *
 * @param eventId the stream entry id
 * @param time when Redis appended the event
 * @param count how many jobs were removed
 * @param state the state they were removed from (WAITING for a drain)
 */
public record CleanedEvent(String eventId, Instant time, long count, JobState state) implements QueueEvent {
    /** @return "cleaned" */
    @Override
    public String eventName() {
        return "cleaned";
    }
}
