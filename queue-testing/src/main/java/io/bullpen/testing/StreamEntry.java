package io.bullpen.testing;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One entry of a Redis stream as read into a {@link QueueSnapshot}.
 *
 * @param id the entry id, such as {@code 1700000000000-0}
 * @param fields the entry's fields sorted by name (unmodifiable); Redisson does not keep stream field order
 */
public record StreamEntry(String id, Map<String, String> fields) {

    /**
     * Copies the fields, sorted by name so snapshots compare and print the same every time.
     *
     * @param id the entry id
     * @param fields the entry's fields
     */
    public StreamEntry {
        Objects.requireNonNull(id, "id");
        fields = Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(fields, "fields")));
    }
}
