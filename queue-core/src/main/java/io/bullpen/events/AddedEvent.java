package io.bullpen.events;

import io.bullpen.JobState;
import java.time.Duration;
import java.time.Instant;

/**
 * A job was added (stream event {@code added}). One event per job, whatever state it went to;
 * {@code QueueEvents} also hands it to {@code onWaiting} listeners when the job is ready to run
 * and to {@code onDelayed} listeners when it is delayed.
 *
 * @param eventId the stream entry id
 * @param time when Redis appended the event
 * @param jobId the new job's id
 * @param name the job's name
 * @param state where the job went: {@link JobState#WAITING}, {@link JobState#PRIORITIZED} or
 *     {@link JobState#DELAYED} ({@link JobState#UNKNOWN} for a label this version does not know)
 * @param delay the job's delay, {@link Duration#ZERO} unless delayed
 */
public record AddedEvent(String eventId, Instant time, String jobId, String name, JobState state, Duration delay)
        implements QueueEvent {
    /** @return "added" */
    @Override
    public String eventName() {
        return "added";
    }
}
