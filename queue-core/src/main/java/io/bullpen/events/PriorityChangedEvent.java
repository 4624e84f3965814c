package io.bullpen.events;

import java.time.Instant;

/**
 * A waiting or prioritized job got a new priority ({@code Queue.changePriority}; stream event
 * {@code priorityChanged}).
 *
 * @param eventId the stream entry id
 * @param time when Redis appended the event
 * @param jobId the job's id
 * @param priority the new priority (0 = none)
 */
public record PriorityChangedEvent(String eventId, Instant time, String jobId, int priority) implements QueueEvent {
    /** @return "priorityChanged" */
    @Override
    public String eventName() {
        return "priorityChanged";
    }
}
