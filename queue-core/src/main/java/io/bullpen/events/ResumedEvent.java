package io.bullpen.events;

import java.time.Instant;

/**
 * A paused queue was resumed (stream event {@code resumed}). {@link #jobId()} is null.
 *
 * @param eventId the stream entry id
 * @param time when Redis appended the event
 * @param group the group that was resumed ({@code Queue.pauseGroup} / {@code resumeGroup}), or null
 *     when the whole queue was
 */
public record ResumedEvent(String eventId, Instant time, String group) implements QueueEvent {
    /**
     * The whole queue was resumed.
     *
     * @param eventId the stream entry id
     * @param time when Redis appended the event
     */
    public ResumedEvent(String eventId, Instant time) {
        this(eventId, time, null);
    }

    /** @return "resumed" */
    @Override
    public String eventName() {
        return "resumed";
    }
}
