package io.bullpen.testing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.redisson.api.RedissonClient;

/**
 * Every key of one queue ({@code <prefix>:{<queue>}:*}) read into one immutable object, addressed
 * by key suffix: {@code wait}, {@code leases}, {@code job:7}, {@code job:7:logs} and so on.
 *
 * <p>The keys are read one after another (SCAN, then pipelined reads), not atomically: take
 * snapshots of quiescent queues (no worker running), as tests that assert raw state do anyway.
 * Accessors never throw for an absent key: they return an empty collection or null. They throw
 * {@link IllegalStateException} when the key exists with another type, which is itself a bug.
 */
public final class QueueSnapshot {

    /** The key prefix Bullpen uses unless configured otherwise. */
    public static final String DEFAULT_PREFIX = "bp";

    private static final String JOB = "job:";

    /** Numeric ids by value (so 9 comes before 10), then other ids alphabetically. */
    static final Comparator<String> ID_ORDER = Comparator
            .comparing((String id) -> !isNumber(id))
            .thenComparing((String id) -> isNumber(id) ? id.length() : 0)
            .thenComparing(Comparator.naturalOrder());

    private final String prefix;
    private final String queue;
    private final Map<String, KeyValue> keys;

    QueueSnapshot(String prefix, String queue, Map<String, KeyValue> keys) {
        this.prefix = prefix;
        this.queue = queue;
        this.keys = Collections.unmodifiableMap(new TreeMap<>(keys));
    }

    /**
     * Reads every key of a queue under the default prefix {@value #DEFAULT_PREFIX}.
     *
     * @param redisson any client of the server (its codec does not matter: keys are read as strings)
     * @param queue the queue name
     * @return the snapshot
     */
    public static QueueSnapshot read(RedissonClient redisson, String queue) {
        return read(redisson, DEFAULT_PREFIX, queue);
    }

    /**
     * Reads every key of a queue.
     *
     * @param redisson any client of the server (its codec does not matter: keys are read as strings)
     * @param prefix the key prefix, such as {@code bp}
     * @param queue the queue name
     * @return the snapshot
     */
    public static QueueSnapshot read(RedissonClient redisson, String prefix, String queue) {
        Objects.requireNonNull(redisson, "redisson");
        requireNonEmpty(prefix, "prefix");
        requireNonEmpty(queue, "queue");
        return QueueSnapshotReader.read(redisson, prefix, queue);
    }

    private static void requireNonEmpty(String value, String what) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException(what + " must be non-empty but was " + (value == null ? "null" : "''"));
        }
    }

    /** {@return the key prefix the snapshot was read with} */
    public String prefix() {
        return prefix;
    }

    /** {@return the queue name} */
    public String queue() {
        return queue;
    }

    /** {@return the common start of every key of the queue: {@code <prefix>:{<queue>}:}} */
    public String keyPrefix() {
        return prefix + ":{" + queue + "}:";
    }

    /** {@return the suffixes of all keys present, sorted} */
    public Set<String> keys() {
        return keys.keySet();
    }

    /**
     * {@return whether the key exists}
     *
     * @param suffix key suffix, such as {@code wait}
     */
    public boolean exists(String suffix) {
        return keys.containsKey(suffix);
    }

    /**
     * {@return the Redis TYPE name ({@code string}, {@code list}, {@code hash}, {@code zset},
     *     {@code set}, {@code stream}), or null when absent}
     *
     * @param suffix key suffix
     */
    public String type(String suffix) {
        KeyValue value = keys.get(suffix);
        return value == null ? null : value.type();
    }

    /**
     * {@return milliseconds to live, -1 for a key without expiry, -2 for an absent key (as PTTL)}
     *
     * @param suffix key suffix
     */
    public long pttl(String suffix) {
        KeyValue value = keys.get(suffix);
        return value == null ? -2 : value.pttl();
    }

    /**
     * {@return the string value, or null when absent}
     *
     * @param suffix key suffix, such as {@code id}
     */
    public String string(String suffix) {
        return typed(suffix, "string", null);
    }

    /**
     * {@return the list in LRANGE order (left first), empty when absent}
     *
     * @param suffix key suffix, such as {@code wait}
     */
    public List<String> list(String suffix) {
        return typed(suffix, "list", List.of());
    }

    /**
     * {@return the hash sorted by field, empty when absent}
     *
     * @param suffix key suffix, such as {@code meta}
     */
    public Map<String, String> hash(String suffix) {
        return typed(suffix, "hash", Map.of());
    }

    /**
     * {@return member to score in ascending score order, empty when absent}
     *
     * @param suffix key suffix, such as {@code delayed}
     */
    public Map<String, Double> zset(String suffix) {
        return typed(suffix, "zset", Map.of());
    }

    /**
     * {@return the members sorted, empty when absent}
     *
     * @param suffix key suffix
     */
    public Set<String> set(String suffix) {
        return typed(suffix, "set", Set.of());
    }

    /**
     * {@return the entries oldest first, empty when absent}
     *
     * @param suffix key suffix, such as {@code events}
     */
    public List<StreamEntry> stream(String suffix) {
        return typed(suffix, "stream", List.of());
    }

    @SuppressWarnings("unchecked")
    private <T> T typed(String suffix, String type, T absent) {
        KeyValue value = keys.get(suffix);
        if (value == null) {
            return absent;
        }
        if (!value.type().equals(type)) {
            throw new IllegalStateException(keyPrefix() + suffix + " is a " + value.type() + ", not a " + type);
        }
        return (T) value.value();
    }

    /**
     * {@return the groups that may run now (key {@code groups:ready}), group to fair-queueing tag,
     * lowest tag (served next) first; {@code ""} stands for the ungrouped jobs} The key's encoding
     * member (it keeps the set a skiplist, see docs/adr/0008-lua-cost-rules.md) is left out.
     */
    public Map<String, Double> readyGroups() {
        Map<String, Double> ready = new LinkedHashMap<>(zset("groups:ready"));
        ready.keySet().removeIf(member -> !member.isEmpty() && member.charAt(0) == '\u0001');
        return Collections.unmodifiableMap(ready);
    }

    /** {@return ids in the wait list, in list order (pushed on the left, taken from the right)} */
    public List<String> waiting() {
        return list("wait");
    }

    /** {@return the prioritized zset, lowest score (runs first) first} */
    public Map<String, Double> prioritized() {
        return zset("prioritized");
    }

    /** {@return the delayed zset, earliest due first} */
    public Map<String, Double> delayed() {
        return zset("delayed");
    }

    /**
     * {@return the active job ids: the members of {@code leases} (the set of active jobs), latest
     *     lock expiry (most recently taken or extended) first, as the queue lists active jobs}
     */
    public List<String> active() {
        List<String> ids = new ArrayList<>(leases().keySet());
        Collections.reverse(ids);
        return Collections.unmodifiableList(ids);
    }

    /** {@return the completed zset (score = finishedOn)} */
    public Map<String, Double> completed() {
        return zset("completed");
    }

    /** {@return the parents of flows waiting for their children (score = when they started waiting)} */
    public Map<String, Double> waitingChildren() {
        return zset("waiting-children");
    }

    /** {@return the failed zset (score = finishedOn)} */
    public Map<String, Double> failed() {
        return zset("failed");
    }

    /** {@return active id to lock expiry in epoch ms, earliest expiry first: the set of active jobs} */
    public Map<String, Double> leases() {
        return zset("leases");
    }

    /** {@return the queue's meta hash} */
    public Map<String, String> meta() {
        return hash("meta");
    }

    /**
     * The queue's count of grouped ready jobs as the scripts keep it: meta {@code gin} (grouped
     * jobs made ready) less {@code gout} (those that left their group), absent = 0.
     *
     * @return the count
     */
    public long groupedWaiting() {
        Map<String, String> meta = meta();
        return Long.parseLong(meta.getOrDefault("gin", "0")) - Long.parseLong(meta.getOrDefault("gout", "0"));
    }

    /**
     * {@return each stream entry's fields, oldest first; the entry id is under {@code _id}. An
     * entry for the same event of several jobs of one script call has their ids in {@code jobId},
     * separated by spaces, and per-job fields named {@code <field>:<jobId>}}
     */
    public List<Map<String, String>> events() {
        List<Map<String, String>> events = new ArrayList<>();
        for (StreamEntry entry : stream("events")) {
            Map<String, String> event = new LinkedHashMap<>();
            event.put("_id", entry.id());
            event.putAll(entry.fields());
            events.add(Collections.unmodifiableMap(event));
        }
        return Collections.unmodifiableList(events);
    }

    /** {@return the {@code event} field of each event, oldest first (null for an entry without one)} */
    public List<String> eventNames() {
        List<String> names = new ArrayList<>();
        stream("events").forEach(entry -> names.add(entry.fields().get("event")));
        return Collections.unmodifiableList(names);
    }

    /**
     * {@return the {@code job:<id>} hash, empty when there is none}
     *
     * @param id job id
     */
    public Map<String, String> job(String id) {
        return hash(JOB + id);
    }

    /** {@return ids that have a {@code job:<id>} hash, numeric ids first in numeric order} */
    public Set<String> jobIds() {
        List<String> ids = new ArrayList<>();
        for (Map.Entry<String, KeyValue> entry : keys.entrySet()) {
            String suffix = entry.getKey();
            // Ids never contain ':', so job:<id>:logs is skipped here.
            if (suffix.startsWith(JOB) && suffix.indexOf(':', JOB.length()) < 0
                    && "hash".equals(entry.getValue().type())) {
                ids.add(suffix.substring(JOB.length()));
            }
        }
        ids.sort(ID_ORDER);
        return Collections.unmodifiableSet(new LinkedHashSet<>(ids));
    }

    /**
     * {@return the lock token, field {@code lock} of the {@code job:<id>} hash, or null when unlocked}
     *
     * @param id job id
     */
    public String lock(String id) {
        return job(id).get("lock");
    }

    /**
     * {@return the job's log lines in list order, empty when none}
     *
     * @param id job id
     */
    public List<String> logs(String id) {
        return list(JOB + id + ":logs");
    }

    private static boolean isNumber(String id) {
        return !id.isEmpty() && id.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    /** {@return every key with type, TTL and value: readable in assertion messages} */
    @Override
    public String toString() {
        return SnapshotFormat.format(this, keys);
    }
}
