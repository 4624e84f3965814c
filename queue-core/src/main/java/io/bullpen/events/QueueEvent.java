package io.bullpen.events;

import java.time.Instant;

/**
 * One lifecycle event of a queue, read from its Redis stream. The records that implement it are
 * the whole vocabulary; match on them with {@code instanceof} (or a type pattern switch).
 *
 * <p>Two records never appear in the stream itself: {@link DelayedEvent} and, for a job just
 * added, {@link WaitingEvent}. They are views of an {@link AddedEvent} or {@link RetryingEvent}
 * that {@code QueueEvents} hands to {@code onDelayed} and {@code onWaiting} listeners.
 */
public sealed interface QueueEvent permits AddedEvent, DuplicatedEvent, WaitingEvent, DelayedEvent, ActiveEvent,
        ProgressEvent, CompletedEvent, FailedEvent, RetryingEvent, StalledEvent, RemovedEvent, DrainedEvent,
        PausedEvent, ResumedEvent, CleanedEvent, DeduplicatedEvent, UnknownEvent,
        DelayChangedEvent, PriorityChangedEvent, DataUpdatedEvent, WaitingChildrenEvent {

    /**
     * The id of the stream entry, such as {@code "1718000000000-0"}. Ids grow with every entry;
     * pass one to {@code QueueEvents.builder(..).lastEventId(id)} to receive what followed it.
     * The same event of several jobs in one script call (the jobs a worker took, finished or
     * promoted together) is one entry: those events share its id, in the entry's order.
     *
     * @return the stream entry id
     */
    String eventId();

    /**
     * When Redis appended the event: the millisecond part of {@link #eventId()}, in the Redis
     * server's clock.
     *
     * @return the event time
     */
    Instant time();

    /**
     * The job the event is about.
     *
     * @return the job id, or null for queue-level events (drained, paused, resumed)
     */
    default String jobId() {
        return null;
    }

    /**
     * The event's name as in the stream and the docs: "added", "waiting", "completed"...
     *
     * @return the name
     */
    String eventName();
}
