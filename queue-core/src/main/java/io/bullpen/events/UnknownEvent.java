package io.bullpen.events;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A stream entry this version cannot read as one of the typed events: an event name from a
 * newer Bullpen, or an entry with a field missing or malformed. Delivered only to
 * {@code onEvent} listeners, so that nothing in the stream is silently skipped.
 *
 * @param eventId the stream entry id
 * @param time when Redis appended the entry
 * @param jobId the entry's {@code jobId} field, or null
 * @param eventName the entry's {@code event} field, or null when it has none
 * @param fields every field of the entry, in stored order
 */
public record UnknownEvent(String eventId, Instant time, String jobId, String eventName, Map<String, String> fields)
        implements QueueEvent {
    /** Copies {@code fields} (keeping their order), so the event stays immutable. */
    public UnknownEvent {
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }
}
