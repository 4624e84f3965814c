package io.bullpen.events;

import java.time.Instant;

/**
 * A job failed for good: out of attempts, failed unrecoverably, or stalled too often (stream
 * event {@code failed}). An attempt that will be retried is a {@link RetryingEvent} instead.
 *
 * @param eventId the stream entry id
 * @param time when Redis appended the event
 * @param jobId the job's id
 * @param failedReason the last attempt's error message
 * @param attemptsMade the attempts made, this one included
 */
public record FailedEvent(String eventId, Instant time, String jobId, String failedReason, int attemptsMade)
        implements QueueEvent {
    /** @return "failed" */
    @Override
    public String eventName() {
        return "failed";
    }
}
