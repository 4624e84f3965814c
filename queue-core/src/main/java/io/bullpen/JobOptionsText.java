package io.bullpen;

import io.bullpen.internal.Validation;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;

/**
 * The text forms of {@link JobOptions}: the description map (read back by
 * {@link JobOptions#fromDescription}) and {@code toString}. Both list only the options that
 * differ from the defaults. Kept apart so JobOptions holds just the options and their builder.
 */
final class JobOptionsText {

    private JobOptionsText() {
    }

    /** @see JobOptions#fromDescription(Map) */
    static JobOptions read(Map<String, ?> description) {
        Objects.requireNonNull(description, "job options description must not be null");
        JobOptions.Builder b = JobOptions.builder();
        Object value;
        if ((value = description.get("delay")) != null) {
            b.delay(Duration.ofMillis(Validation.wholeNumber("delay", value)));
        }
        if ((value = description.get("priority")) != null) {
            b.priority(Validation.intNumber("priority", value));
        }
        if ((value = description.get("attempts")) != null) {
            b.attempts(Validation.intNumber("attempts", value));
        }
        if ((value = description.get("backoff")) != null) {
            b.backoff(BackoffText.fromDescription(map("backoff", value)));
        }
        if ((value = description.get("jobId")) != null) {
            if (!(value instanceof String id)) {
                throw new IllegalArgumentException("jobId must be a string but was " + value
                        + " (" + value.getClass().getSimpleName() + ")");
            }
            b.jobId(id);
        }
        if ((value = description.get("lifo")) != null) {
            if (!(value instanceof Boolean lifo)) {
                throw new IllegalArgumentException("lifo must be a boolean but was " + value
                        + " (" + value.getClass().getSimpleName() + ")");
            }
            b.lifo(lifo);
        }
        if ((value = description.get("removeOnComplete")) != null) {
            b.removeOnComplete(Retention.fromDescription(map("removeOnComplete", value)));
        }
        if ((value = description.get("removeOnFail")) != null) {
            b.removeOnFail(Retention.fromDescription(map("removeOnFail", value)));
        }
        if ((value = description.get("timeout")) != null) {
            b.timeout(Duration.ofMillis(Validation.wholeNumber("timeout", value)));
        }
        if ((value = description.get("expireAfter")) != null) {
            b.expireAfter(Duration.ofMillis(Validation.wholeNumber("expireAfter", value)));
        }
        if ((value = description.get("expireAt")) != null) {
            b.expireAt(java.time.Instant.ofEpochMilli(Validation.wholeNumber("expireAt", value)));
        }
        if ((value = description.get("group")) != null) {
            if (!(value instanceof String group)) {
                throw new IllegalArgumentException("group must be a string but was " + value
                        + " (" + value.getClass().getSimpleName() + ")");
            }
            b.group(group);
        }
        if ((value = description.get("deduplication")) != null) {
            b.deduplication(Deduplication.fromDescription(map("deduplication", value)));
        }
        return b.build();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, ?> map(String what, Object value) {
        if (!(value instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException(what + " must be an object but was " + value
                    + " (" + value.getClass().getSimpleName() + ")");
        }
        // Keys decoded from JSON are always strings.
        return (Map<String, ?>) map;
    }

    /** @see JobOptions#describe() */
    static Map<String, Object> describe(JobOptions o) {
        Map<String, Object> d = new LinkedHashMap<>();
        if (!o.delay().isZero()) {
            d.put("delay", o.delay().toMillis());
        }
        if (o.priority() != 0) {
            d.put("priority", o.priority());
        }
        if (o.attempts() != 1) {
            d.put("attempts", o.attempts());
        }
        if (o.backoff().isPresent()) {
            d.put("backoff", BackoffText.describe(o.backoff().get()));
        }
        if (o.jobId().isPresent()) {
            d.put("jobId", o.jobId().get());
        }
        if (o.lifo()) {
            d.put("lifo", true);
        }
        if (!o.removeOnComplete().keepsAll()) {
            d.put("removeOnComplete", o.removeOnComplete().describe());
        }
        if (!o.removeOnFail().keepsAll()) {
            d.put("removeOnFail", o.removeOnFail().describe());
        }
        if (o.timeout().isPresent()) {
            d.put("timeout", o.timeout().get().toMillis());
        }
        if (o.expireAfter().isPresent()) {
            d.put("expireAfter", o.expireAfter().get().toMillis());
        }
        if (o.expireAt().isPresent()) {
            d.put("expireAt", o.expireAt().get().toEpochMilli());
        }
        if (o.group().isPresent()) {
            d.put("group", o.group().get());
        }
        if (o.deduplication().isPresent()) {
            d.put("deduplication", o.deduplication().get().describe());
        }
        return Collections.unmodifiableMap(d);
    }

    /** @see JobOptions#toString() */
    static String toString(JobOptions o) {
        StringJoiner out = new StringJoiner(", ", "JobOptions{", "}");
        if (!o.delay().isZero()) {
            out.add("delay=" + o.delay().toMillis() + "ms");
        }
        if (o.priority() != 0) {
            out.add("priority=" + o.priority());
        }
        if (o.attempts() != 1) {
            out.add("attempts=" + o.attempts());
        }
        if (o.backoff().isPresent()) {
            out.add("backoff=" + o.backoff().get());
        }
        if (o.jobId().isPresent()) {
            out.add("jobId=" + Validation.quote(o.jobId().get()));
        }
        if (o.lifo()) {
            out.add("lifo=true");
        }
        if (!o.removeOnComplete().keepsAll()) {
            out.add("removeOnComplete=" + o.removeOnComplete());
        }
        if (!o.removeOnFail().keepsAll()) {
            out.add("removeOnFail=" + o.removeOnFail());
        }
        if (o.timeout().isPresent()) {
            out.add("timeout=" + o.timeout().get().toMillis() + "ms");
        }
        if (o.expireAfter().isPresent()) {
            out.add("expireAfter=" + o.expireAfter().get().toMillis() + "ms");
        }
        if (o.expireAt().isPresent()) {
            out.add("expireAt=" + o.expireAt().get());
        }
        if (o.group().isPresent()) {
            out.add("group=" + Validation.quote(o.group().get()));
        }
        if (o.deduplication().isPresent()) {
            out.add("deduplication=" + o.deduplication().get());
        }
        return out.toString();
    }
}
