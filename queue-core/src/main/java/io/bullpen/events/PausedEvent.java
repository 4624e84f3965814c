package io.bullpen.events;

import java.time.Instant;

/**
 * The queue was paused: workers take no jobs until it is resumed (stream event {@code paused}).
 * {@link #jobId()} is null.
 *
 * @param eventId the stream entry id
 * @param time when Redis appended the event
 * @param group the group that was paused ({@code Queue.pauseGroup} / {@code resumeGroup}), or null
 *     when the whole queue was
 */
public record PausedEvent(String eventId, Instant time, String group) implements QueueEvent {
    /**
     * The whole queue was paused.
     *
     * @param eventId the stream entry id
     * @param time when Redis appended the event
     */
    public PausedEvent(String eventId, Instant time) {
        this(eventId, time, null);
    }

    /** @return "paused" */
    @Override
    public String eventName() {
        return "paused";
    }
}
