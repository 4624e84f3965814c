package io.bullpen.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.InvalidDefinitionException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.bullpen.BullpenException;
import io.bullpen.JobOptions;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * JSON for job data, options, return values and progress. One shared {@link ObjectMapper}: Java
 * time types as ISO strings, unknown properties tolerated on read (producers and workers may run
 * different versions), and never default typing (a type id in the payload would let job data
 * choose which classes get instantiated). A class with no property Jackson can see (private
 * fields without getters) is refused rather than written as {@code {}}: its fields would be lost
 * and the reader would get default values. An empty record is fine: it has nothing to lose.
 * Reads go through one {@link ObjectReader} per type, made once: its root deserializer is
 * resolved when it is made, not looked up again for every job read. Not API.
 */
public final class JsonCodec {
    /** The default cap on a job's serialized data: 512 KiB. */
    public static final int DEFAULT_MAX_PAYLOAD_BYTES = 512 * 1024;

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .enable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();
    /** The readers by type: one per job data type, return type and the two below, so a handful. */
    private static final ConcurrentMap<JavaType, ObjectReader> READERS = new ConcurrentHashMap<>();
    private static final ObjectReader MAP = reader(MAPPER.constructType(new TypeReference<Map<String, Object>>() { }));
    private static final ObjectReader STRINGS = reader(MAPPER.constructType(new TypeReference<List<String>>() { }));
    /**
     * The options JSON read last and what it gave ({@code [json, options]}): the jobs a worker
     * takes are mostly added with the same options, and {@link JobOptions} is immutable.
     */
    private static volatile Object[] lastOptions = {"", JobOptions.defaults()};

    private JsonCodec() {
    }

    /** @return the shared mapper (do not reconfigure it) */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /**
     * Serializes job data and enforces the size cap.
     *
     * @throws IllegalArgumentException when the data cannot be serialized or is over the cap
     */
    public static String encodeData(Object data, int maxBytes) {
        return encodeData(null, data, maxBytes);
    }

    /**
     * Serializes the data of a named job and enforces the size cap.
     *
     * @param jobName the job's name, for the message (null: none)
     * @throws IllegalArgumentException naming the data's type and the job when the data cannot be
     *     serialized (a cycle, a class with no visible property) or is over the cap
     */
    public static String encodeData(String jobName, Object data, int maxBytes) {
        String json;
        try {
            json = MAPPER.writeValueAsString(data);
        } catch (JsonProcessingException | RuntimeException e) {
            throw new IllegalArgumentException("job data of type " + data.getClass().getName()
                    + (jobName == null ? "" : " for job " + Validation.quote(jobName))
                    + " cannot be serialized to JSON: " + reason(e), e);
        }
        int size = json.length() <= maxBytes / 3 ? json.length() : json.getBytes(StandardCharsets.UTF_8).length;
        if (size > maxBytes) {
            throw new IllegalArgumentException("job data is " + size + " bytes of JSON, over the limit of "
                    + maxBytes + " bytes");
        }
        return json;
    }

    /** Jackson's message, except for an empty bean, where its advice (disable the check) is ours to ignore. */
    private static String reason(Exception e) {
        if (e instanceof InvalidDefinitionException d && d.getType() != null
                && String.valueOf(d.getOriginalMessage()).contains("no properties discovered")) {
            String path = d.getPath().isEmpty() ? "" : " (at " + d.getPathReference() + ")";
            return d.getType().getRawClass().getName() + path + " has no property Jackson can see (a public getter, "
                    + "a public field or a record component): its fields would be lost";
        }
        return e.getMessage();
    }

    /** Serializes a return value or progress; failures name the value's type. */
    public static String encodeValue(Object value, String what) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException | RuntimeException e) {
            throw new IllegalArgumentException(what + " of type " + (value == null ? "null" : value.getClass().getName())
                    + " cannot be serialized to JSON: " + reason(e), e);
        }
    }

    /** Reads JSON as the given type; a mismatch becomes a {@link BullpenException} naming it. */
    public static <T> T decode(String json, JavaType type) {
        if (json == null) {
            return null;
        }
        try {
            return reader(type).readValue(json);
        } catch (JsonProcessingException e) {
            throw new BullpenException("cannot read JSON as " + type.toCanonical() + ": " + e.getOriginalMessage(), e);
        }
    }

    /** @return the reader of {@code type}, made on first use */
    private static ObjectReader reader(JavaType type) {
        ObjectReader reader = READERS.get(type);
        return reader != null ? reader : READERS.computeIfAbsent(type, MAPPER::readerFor);
    }

    /** @return the Jackson type of a class */
    public static JavaType type(Class<?> type) {
        return MAPPER.constructType(type);
    }

    /** @return the Jackson type of a generic type */
    public static JavaType type(TypeReference<?> type) {
        return MAPPER.constructType(type);
    }

    /** @return the options as stored in the job hash: only non-default fields, "" for defaults */
    public static String encodeOptions(JobOptions options) {
        if (options == JobOptions.defaults()) {
            return "";
        }
        Map<String, Object> described = WireFormat.describe(options);
        if (described.isEmpty()) {
            return "";
        }
        try {
            return MAPPER.writeValueAsString(described);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize job options " + options, e);
        }
    }

    /** @return the options stored in a job hash ({@link JobOptions#defaults()} when absent) */
    public static JobOptions decodeOptions(String json) {
        if (json == null || json.isEmpty()) {
            return JobOptions.defaults();
        }
        Object[] last = lastOptions;
        if (json.equals(last[0])) {
            return (JobOptions) last[1];
        }
        try {
            JobOptions options = WireFormat.jobOptions(MAP.readValue(json));
            lastOptions = new Object[] {json, options};
            return options;
        } catch (JsonProcessingException e) {
            throw new BullpenException("cannot read job options " + json + ": " + e.getOriginalMessage(), e);
        }
    }

    /** @return a JSON array of strings as a list (empty for null) */
    public static List<String> decodeStrings(String json) {
        if (json == null || json.isEmpty()) {
            return List.of();
        }
        try {
            return STRINGS.readValue(json);
        } catch (JsonProcessingException e) {
            throw new BullpenException("cannot read string list " + json + ": " + e.getOriginalMessage(), e);
        }
    }
}
