package io.bullpen.testing;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.redisson.api.RBatch;
import org.redisson.api.RFuture;
import org.redisson.api.RType;
import org.redisson.api.RedissonClient;
import org.redisson.api.options.KeysScanOptions;
import org.redisson.api.stream.StreamMessageId;
import org.redisson.api.stream.StreamRangeArgs;
import org.redisson.client.codec.StringCodec;
import org.redisson.client.protocol.ScoredEntry;

/**
 * Reads every key of one queue: SCAN for the keys, then one pipelined batch for TYPE and PTTL and
 * one for the values, always with {@link StringCodec} (the client's default codec may be Kryo).
 */
final class QueueSnapshotReader {

    private static final int CHUNK = 500;

    private QueueSnapshotReader() {
    }

    static QueueSnapshot read(RedissonClient redisson, String prefix, String queue) {
        String base = prefix + ":{" + queue + "}:";
        String pattern = globEscape(prefix) + ":{" + globEscape(queue) + "}:*";
        // SCAN may return a key twice; a sorted set also gives a stable order.
        TreeSet<String> keys = new TreeSet<>();
        redisson.getKeys().getKeys(KeysScanOptions.defaults().pattern(pattern).chunkSize(1000)).forEach(keys::add);
        Map<String, KeyValue> values = new TreeMap<>();
        List<String> all = new ArrayList<>(keys);
        for (int from = 0; from < all.size(); from += CHUNK) {
            readChunk(redisson, all.subList(from, Math.min(all.size(), from + CHUNK)), base, values);
        }
        return new QueueSnapshot(prefix, queue, values);
    }

    /** Escapes the glob-special characters of a SCAN MATCH pattern (braces are not special). */
    static String globEscape(String text) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (char c : text.toCharArray()) {
            if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
                out.append('\\');
            }
            out.append(c);
        }
        return out.toString();
    }

    private static void readChunk(RedissonClient redisson, List<String> keys, String base,
            Map<String, KeyValue> into) {
        RBatch meta = redisson.createBatch();
        List<RFuture<RType>> types = new ArrayList<>(keys.size());
        List<RFuture<Long>> ttls = new ArrayList<>(keys.size());
        for (String key : keys) {
            types.add(meta.getKeys().getTypeAsync(key));
            ttls.add(meta.getKeys().remainTimeToLiveAsync(key));
        }
        meta.execute();

        RBatch read = redisson.createBatch();
        List<RFuture<?>> reads = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            RType type = join(types.get(i));
            reads.add(type == null ? null : readAsync(read, keys.get(i), type));
        }
        read.execute();

        for (int i = 0; i < keys.size(); i++) {
            RType type = join(types.get(i));
            long pttl = join(ttls.get(i));
            if (type == null || pttl == -2) {
                continue; // deleted between SCAN and read
            }
            into.put(keys.get(i).substring(base.length()), toValue(type, join(reads.get(i)), pttl));
        }
    }

    private static RFuture<?> readAsync(RBatch batch, String key, RType type) {
        return switch (type) {
            case OBJECT -> batch.<String>getBucket(key, StringCodec.INSTANCE).getAsync();
            case LIST -> batch.<String>getList(key, StringCodec.INSTANCE).readAllAsync();
            case MAP -> batch.<String, String>getMap(key, StringCodec.INSTANCE).readAllMapAsync();
            case ZSET -> batch.<String>getScoredSortedSet(key, StringCodec.INSTANCE).entryRangeAsync(0, -1);
            case SET -> batch.<String>getSet(key, StringCodec.INSTANCE).readAllAsync();
            case STREAM -> batch.<String, String>getStream(key, StringCodec.INSTANCE)
                    .rangeAsync(StreamRangeArgs.startId(StreamMessageId.MIN).endId(StreamMessageId.MAX));
            default -> throw new IllegalStateException("key " + key + " has type " + type
                    + ", which no queue key should have");
        };
    }

    @SuppressWarnings("unchecked")
    private static KeyValue toValue(RType type, Object raw, long pttl) {
        return switch (type) {
            case OBJECT -> new KeyValue("string", raw, pttl);
            case LIST -> new KeyValue("list", List.copyOf((List<String>) raw), pttl);
            case MAP -> new KeyValue("hash", Collections.unmodifiableMap(new TreeMap<>((Map<String, String>) raw)),
                    pttl);
            case ZSET -> new KeyValue("zset", scores((Collection<ScoredEntry<String>>) raw), pttl);
            case SET -> new KeyValue("set", Collections.unmodifiableSet(new TreeSet<>((Collection<String>) raw)),
                    pttl);
            case STREAM -> new KeyValue("stream", entries((Map<StreamMessageId, Map<String, String>>) raw), pttl);
            default -> throw new IllegalStateException("unexpected type " + type);
        };
    }

    private static Map<String, Double> scores(Collection<ScoredEntry<String>> entries) {
        // ZRANGE order is ascending score, ties by member: keep it.
        Map<String, Double> scores = new LinkedHashMap<>();
        for (ScoredEntry<String> entry : entries) {
            scores.put(entry.getValue(), entry.getScore());
        }
        return Collections.unmodifiableMap(scores);
    }

    private static List<StreamEntry> entries(Map<StreamMessageId, Map<String, String>> raw) {
        List<StreamEntry> entries = new ArrayList<>(raw.size());
        raw.entrySet().stream()
                .sorted(Map.Entry.comparingByKey(Comparator.comparingLong(StreamMessageId::getId0)
                        .thenComparingLong(StreamMessageId::getId1)))
                .forEach(e -> entries.add(new StreamEntry(e.getKey().toString(), e.getValue())));
        return List.copyOf(entries);
    }

    private static <T> T join(RFuture<T> future) {
        return future == null ? null : future.toCompletableFuture().join();
    }
}
