package io.bullpen.events;

import java.time.Duration;
import java.time.Instant;

/**
 * A delayed job got a new delay ({@code Queue.changeDelay}; stream event {@code delayChanged}).
 * A zero delay ran it at once: a {@link WaitingEvent} (prev delayed) follows.
 *
 * @param eventId the stream entry id
 * @param time when Redis appended the event
 * @param jobId the job's id
 * @param delay the new delay, from the change
 * @param due when the job is due
 */
public record DelayChangedEvent(String eventId, Instant time, String jobId, Duration delay, Instant due)
        implements QueueEvent {
    /** @return "delayChanged" */
    @Override
    public String eventName() {
        return "delayChanged";
    }
}
