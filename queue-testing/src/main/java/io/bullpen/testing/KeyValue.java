package io.bullpen.testing;

/**
 * One key of a snapshot: its Redis TYPE name, its value (already unmodifiable) and its PTTL.
 *
 * @param type {@code string}, {@code list}, {@code hash}, {@code zset}, {@code set} or {@code stream}
 * @param value String, List, Map, LinkedHashMap of scores, Set or List of {@link StreamEntry}
 * @param pttl milliseconds to live, -1 without expiry
 */
record KeyValue(String type, Object value, long pttl) {
}
