package io.bullpen.events;

import io.bullpen.JobState;
import java.time.Instant;

/**
 * A job was removed, with its data and logs (stream event {@code removed}).
 *
 * @param eventId the stream entry id
 * @param time when Redis appended the event
 * @param jobId the job's id
 * @param prev the state it was in ({@link JobState#UNKNOWN} when it was in none)
 */
public record RemovedEvent(String eventId, Instant time, String jobId, JobState prev) implements QueueEvent {
    /** @return "removed" */
    @Override
    public String eventName() {
        return "removed";
    }
}
