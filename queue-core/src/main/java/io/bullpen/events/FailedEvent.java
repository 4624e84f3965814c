package io.bullpen.events;

import java.time.Instant;

/**
 * A job failed for good: out of attempts, failed unrecoverably, stalled too often, cancelled, or expired (stream
 * event {@code failed}). An attempt that will be retried is a {@link RetryingEvent} instead.
 *
 * @param eventId the stream entry id
 * @param time when Redis appended the event
 * @param jobId the job's id
 * @param failedReason the last attempt's error message
 * @param attemptsMade the attempts made, this one included
 * @param cancelled whether the job was cancelled ({@code Queue.cancel}); its failedReason is then
 *     {@code "cancelled: <reason>"}
 * @param expired whether the job expired before its first attempt started
 *     ({@code JobOptions.Builder.expireAfter}/{@code expireAt}); its failedReason is then {@code "expired"}
 *     and attemptsMade 0
 */
public record FailedEvent(String eventId, Instant time, String jobId, String failedReason, int attemptsMade,
                          boolean cancelled, boolean expired)
        implements QueueEvent {
    /**
     * A failure that was not an expiry.
     *
     * @param eventId the stream entry id
     * @param time when Redis appended the event
     * @param jobId the job's id
     * @param failedReason the last attempt's error message
     * @param attemptsMade the attempts made, this one included
     * @param cancelled whether the job was cancelled
     */
    public FailedEvent(String eventId, Instant time, String jobId, String failedReason, int attemptsMade,
                       boolean cancelled) {
        this(eventId, time, jobId, failedReason, attemptsMade, cancelled, false);
    }

    /**
     * A failure that was not a cancel.
     *
     * @param eventId the stream entry id
     * @param time when Redis appended the event
     * @param jobId the job's id
     * @param failedReason the last attempt's error message
     * @param attemptsMade the attempts made, this one included
     */
    public FailedEvent(String eventId, Instant time, String jobId, String failedReason, int attemptsMade) {
        this(eventId, time, jobId, failedReason, attemptsMade, false, false);
    }

    /** @return "failed" */
    @Override
    public String eventName() {
        return "failed";
    }
}
