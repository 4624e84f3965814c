package io.bullpen.events;

import java.time.Instant;

/**
 * A flow parent started waiting for its children (see {@code io.bullpen.flow}): the stream's
 * {@code waitingChildren} event and, as a view built by {@code QueueEvents} for
 * {@code onWaitingChildren} listeners, a parent added waiting for its children (an
 * {@link AddedEvent} with state {@code WAITING_CHILDREN}).
 *
 * @param eventId the stream entry id (of the entry this view comes from, for views)
 * @param time when Redis appended the event
 * @param jobId the parent job's id
 */
public record WaitingChildrenEvent(String eventId, Instant time, String jobId) implements QueueEvent {
    /** @return "waitingChildren" */
    @Override
    public String eventName() {
        return "waitingChildren";
    }
}
