package io.bullpen.events;

import java.time.Instant;

/**
 * An add with a deduplication id that another job owns created no job (stream event
 * {@code deduplicated}); it may have replaced the owner's data (debounce) or been kept for after
 * it (keepLastIfActive).
 *
 * @param eventId the stream entry id
 * @param time when Redis appended the event
 * @param jobId the owner: the job that holds the deduplication id
 * @param deduplicationId the deduplication id
 * @param deduplicatedJobId the custom job id the add asked for, or null when it asked for none
 */
public record DeduplicatedEvent(String eventId, Instant time, String jobId, String deduplicationId,
        String deduplicatedJobId) implements QueueEvent {
    /** @return "deduplicated" */
    @Override
    public String eventName() {
        return "deduplicated";
    }
}
