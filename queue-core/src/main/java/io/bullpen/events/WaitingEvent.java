package io.bullpen.events;

import io.bullpen.JobState;
import java.time.Instant;

/**
 * A job became ready to run: it is now waiting or prioritized. The stream's {@code waiting}
 * event (a delayed job promoted or due, a failed job retried, a job given back by a worker); and,
 * as views built by {@code QueueEvents} for {@code onWaiting} listeners, a job added without
 * delay ({@code prev} null), a failed attempt retried without backoff and a stalled job
 * recovered ({@code prev} {@link JobState#ACTIVE}).
 *
 * @param eventId the stream entry id (of the entry this view comes from, for views)
 * @param time when Redis appended the event
 * @param jobId the job's id
 * @param prev the state the job left, or null for a job just added
 */
public record WaitingEvent(String eventId, Instant time, String jobId, JobState prev) implements QueueEvent {
    /** @return "waiting" */
    @Override
    public String eventName() {
        return "waiting";
    }
}
