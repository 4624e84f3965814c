package io.bullpen.events;

import java.time.Duration;
import java.time.Instant;

/**
 * A job was put in delayed: added with a delay, or a failed attempt backing off before its
 * retry: then {@code QueueEvents} builds it from the {@link AddedEvent} or {@link RetryingEvent}
 * for {@code onDelayed} listeners. A step job's attempt that asked for a delay
 * ({@code JobContext.delay}) writes it as a stream event of its own ({@code delayed}).
 *
 * @param eventId the id of the stream entry this view comes from
 * @param time when Redis appended that entry
 * @param jobId the job's id
 * @param delay how long from then until the job is due
 */
public record DelayedEvent(String eventId, Instant time, String jobId, Duration delay) implements QueueEvent {
    /** @return "delayed" */
    @Override
    public String eventName() {
        return "delayed";
    }
}
