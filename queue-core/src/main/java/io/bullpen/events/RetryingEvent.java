package io.bullpen.events;

import java.time.Duration;
import java.time.Instant;

/**
 * An attempt failed and the job will run again (stream event {@code retrying}): after its
 * backoff ({@code QueueEvents} also hands it to {@code onDelayed} listeners), or at once when
 * the delay is zero (to {@code onWaiting} listeners).
 *
 * @param eventId the stream entry id
 * @param time when Redis appended the event
 * @param jobId the job's id
 * @param attemptsMade the attempts made, the failed one included
 * @param delay the backoff before the next attempt, {@link Duration#ZERO} for none
 * @param failedReason the failed attempt's error message
 */
public record RetryingEvent(String eventId, Instant time, String jobId, int attemptsMade, Duration delay,
                            String failedReason) implements QueueEvent {
    /** @return "retrying" */
    @Override
    public String eventName() {
        return "retrying";
    }
}
