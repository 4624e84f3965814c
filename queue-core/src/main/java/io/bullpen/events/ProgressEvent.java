package io.bullpen.events;

import io.bullpen.internal.JsonCodec;
import java.time.Instant;

/**
 * A processor reported progress (stream event {@code progress}).
 *
 * @param eventId the stream entry id
 * @param time when Redis appended the event
 * @param jobId the job's id
 * @param data the progress as JSON, e.g. {@code 50} or {@code {"page":3}}
 */
public record ProgressEvent(String eventId, Instant time, String jobId, String data) implements QueueEvent {
    /** @return "progress" */
    @Override
    public String eventName() {
        return "progress";
    }

    /**
     * The progress read as a type.
     *
     * @param type the type to read the JSON as, e.g. {@code Integer.class}
     * @param <P> that type
     * @return the progress
     * @throws io.bullpen.BullpenException when the JSON does not fit the type
     */
    public <P> P data(Class<P> type) {
        return JsonCodec.decode(data, JsonCodec.type(type));
    }
}
