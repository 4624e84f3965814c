package io.bullpen.events;

import io.bullpen.internal.JsonCodec;
import java.time.Instant;

/**
 * A job finished successfully (stream event {@code completed}).
 *
 * @param eventId the stream entry id
 * @param time when Redis appended the event
 * @param jobId the job's id
 * @param returnValue the processor's result as JSON ({@code null} as the JSON text when it returned null)
 */
public record CompletedEvent(String eventId, Instant time, String jobId, String returnValue) implements QueueEvent {
    /** @return "completed" */
    @Override
    public String eventName() {
        return "completed";
    }

    /**
     * The result read as a type.
     *
     * @param type the type to read the JSON as
     * @param <R> that type
     * @return the result, null when the processor returned null
     * @throws io.bullpen.BullpenException when the JSON does not fit the type
     */
    public <R> R returnValue(Class<R> type) {
        return JsonCodec.decode(returnValue, JsonCodec.type(type));
    }
}
