package io.bullpen.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The trace headers stored with a job ({@link JobFields#TRACE_CONTEXT}). Compact: a lone
 * {@code traceparent} (the usual case) is stored as its value (55 characters), which keeps a small
 * job hash in Redis's compact encoding (values up to 64 bytes; a JSON object would not fit and
 * doubles the hash's memory); anything else as a JSON object of strings. Not API.
 */
public final class TraceHeaders {
    private static final Logger log = LoggerFactory.getLogger(TraceHeaders.class);
    private static final String TRACEPARENT = "traceparent";
    private static final TypeReference<Map<String, String>> MAP = new TypeReference<>() {
    };

    private TraceHeaders() {
    }

    /** The headers as stored; null for none (nothing is stored). */
    public static String encode(Map<String, String> headers) {
        if (headers.isEmpty()) {
            return null;
        }
        String traceparent = headers.get(TRACEPARENT);
        if (headers.size() == 1 && traceparent != null && !traceparent.isEmpty() && traceparent.charAt(0) != '{') {
            return traceparent;
        }
        try {
            return JsonCodec.mapper().writeValueAsString(headers);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("trace headers cannot be encoded: " + headers, e);
        }
    }

    /**
     * The headers of a job's stored field; empty when absent or unreadable (a bad field loses the
     * trace link, never the job).
     */
    public static Map<String, String> decode(String stored) {
        if (stored == null || stored.isEmpty()) {
            return Map.of();
        }
        if (stored.charAt(0) != '{') {
            return Map.of(TRACEPARENT, stored);
        }
        try {
            return Map.copyOf(JsonCodec.mapper().readValue(stored, MAP));
        } catch (JsonProcessingException | RuntimeException e) {
            log.debug("unreadable trace headers {}; ignored", stored, e);
            return Map.of();
        }
    }
}
