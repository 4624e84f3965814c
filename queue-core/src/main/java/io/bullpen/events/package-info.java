/**
 * The typed lifecycle events of a queue, as {@link io.bullpen.QueueEvents} delivers them from the
 * queue's Redis stream: one record per event name, all implementing the sealed
 * {@link io.bullpen.events.QueueEvent}.
 *
 * <p>Every event carries its stream entry id ({@code eventId()}, usable to resume), the job id
 * ({@code null} for queue-level events: drained, paused, resumed) and the time Redis appended it.
 * An entry this version does not understand arrives as {@link io.bullpen.events.UnknownEvent}.
 * All records are immutable.
 */
package io.bullpen.events;
