package io.bullpen.events;

import java.time.Instant;

/**
 * A job's lock expired while it was active (its worker died or hung) and the job went back to be
 * run again (stream event {@code stalled}). A job that stalls too often fails instead
 * ({@link FailedEvent}).
 *
 * @param eventId the stream entry id
 * @param time when Redis appended the event
 * @param jobId the job's id
 * @param stalledCount how many times the job has stalled so far
 */
public record StalledEvent(String eventId, Instant time, String jobId, int stalledCount) implements QueueEvent {
    /** @return "stalled" */
    @Override
    public String eventName() {
        return "stalled";
    }
}
