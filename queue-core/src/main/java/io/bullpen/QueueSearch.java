package io.bullpen;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import io.bullpen.internal.JobFields;
import io.bullpen.internal.JsonCodec;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.RedisCalls;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.redisson.api.BatchOptions;
import org.redisson.api.BatchResult;
import org.redisson.api.RBatch;
import org.redisson.api.RFuture;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.client.protocol.ScoredEntry;

/**
 * Runs {@link Queue#search(JobSearch)}: a bounded scan of one state, without Lua.
 *
 * <ol>
 *   <li>Read the next chunk of job ids from the state's key by index (LRANGE or ZRANGE WITHSCORES,
 *       O(log n + chunk)); past the wait list, the groups' ready sets one group at a time.</li>
 *   <li>Read {@code name} and {@code data} of those jobs (plus the failed reason or timestamp when
 *       filtered on them) with one HMGET each, pipelined in one round trip.</li>
 *   <li>Match in this process; stop at the page's limit of matches or of jobs read, remembering
 *       the index of the next job as the cursor.</li>
 *   <li>Read the matching jobs in full (HGETALL, pipelined).</li>
 * </ol>
 * Every command is small, so none holds Redis for long however big the state is; the scan as a
 * whole is not atomic (see {@link JobSearch}).
 */
final class QueueSearch<T> {
    /** Job ids per range read, and HMGETs per round trip. */
    static final int CHUNK = 500;
    /** The delayed set's score is the due time in ms times this (plus a sequence below it). */
    private static final long DELAYED_SCALE = 4096;
    /** JSON numbers are equal when their values are: 17 matches 17.0; other nodes by equals. */
    private static final Comparator<JsonNode> JSON_EQUALITY = (a, b) -> {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue());
        }
        return a.equals(b) ? 0 : 1;
    };

    private final RedissonClient redisson;
    private final KeyScheme keys;
    private final JavaType dataType;

    QueueSearch(RedissonClient redisson, KeyScheme keys, JavaType dataType) {
        this.redisson = redisson;
        this.keys = keys;
        this.dataType = dataType;
    }

    /** A job id read from the state, with its score where the state is a sorted set. */
    private record Entry(String id, Double score) {
    }

    /** A chunk of ids and the position after each of them. */
    private record Chunk(List<Entry> entries, SearchCursor start, boolean endOfKey) {
    }

    SearchPage<T> search(JobSearch search) {
        return RedisCalls.call(keys.queue(), "search", () -> run(search));
    }

    private SearchPage<T> run(JobSearch s) {
        JobState state = s.state();
        SearchCursor position = s.cursor().isPresent()
                ? SearchCursor.decode(state, s.cursor().get())
                : new SearchCursor(state, null, firstIndex(s));
        List<String> fields = fields(s);
        List<String> matches = new ArrayList<>();
        long scanned = 0;
        boolean finished = false;
        scan:
        while (matches.size() < s.limit() && scanned < s.scanLimit()) {
            int want = (int) Math.min(CHUNK, s.scanLimit() - scanned);
            // Scores only for a time range: formatting them costs Redis more than the ids themselves.
            List<Entry> entries = readIds(position, want, s.from().isPresent());
            if (entries.isEmpty()) {
                SearchCursor next = nextKey(position);
                if (next == null) {
                    finished = true;
                    break;
                }
                position = next;
                continue;
            }
            List<Map<String, String>> hashes = readFields(entries, fields);
            for (int i = 0; i < entries.size(); i++) {
                Entry e = entries.get(i);
                if (pastRange(s, e)) {
                    finished = true;
                    break scan;
                }
                scanned++;
                position = new SearchCursor(state, position.group(), position.index() + 1);
                if (matches(s, e, hashes.get(i))) {
                    matches.add(e.id());
                    if (matches.size() >= s.limit()) {
                        break scan;
                    }
                }
                if (scanned >= s.scanLimit()) {
                    break scan;
                }
            }
        }
        return new SearchPage<>(readJobs(matches), finished ? null : position.encode(), scanned);
    }

    /** The index a search without a cursor starts at: past the jobs after the time range, where the state is ordered by time. */
    private long firstIndex(JobSearch s) {
        if (s.from().isEmpty()) {
            return 0;
        }
        long from = s.from().get().toEpochMilli();
        long to = s.to().orElseThrow().toEpochMilli();
        var set = redisson.getScoredSortedSet(keys.stateKey(s.state()), StringCodec.INSTANCE);
        return switch (s.state()) {
            // Newest first: skip the jobs at or after `to`.
            case COMPLETED, FAILED -> set.count(to, true, Double.POSITIVE_INFINITY, true);
            case DELAYED -> set.count(Double.NEGATIVE_INFINITY, true, from * (double) DELAYED_SCALE, false);
            case WAITING_CHILDREN -> set.count(Double.NEGATIVE_INFINITY, true, from, false);
            default -> 0;
        };
    }

    /** @return the ids from {@code position} on, at most {@code want}; empty at the end of its key */
    private List<Entry> readIds(SearchCursor position, int want, boolean withScores) {
        if (position.index() + want > Integer.MAX_VALUE) {
            return List.of();
        }
        int from = (int) position.index();
        int to = from + want - 1;
        List<Entry> entries = new ArrayList<>(want);
        switch (position.state()) {
            case WAITING -> {
                String key = position.group() == null ? keys.waitList() : keys.group(position.group());
                if (position.group() == null) {
                    for (String id : redisson.<String>getList(key, StringCodec.INSTANCE).range(from, to)) {
                        entries.add(new Entry(id, null));
                    }
                } else {
                    for (String id : redisson.<String>getScoredSortedSet(key, StringCodec.INSTANCE).valueRange(from, to)) {
                        entries.add(new Entry(id, null));
                    }
                }
            }
            default -> {
                var set = redisson.<String>getScoredSortedSet(keys.stateKey(position.state()), StringCodec.INSTANCE);
                boolean newestFirst = position.state() == JobState.COMPLETED || position.state() == JobState.FAILED
                        || position.state() == JobState.ACTIVE;
                if (withScores) {
                    for (ScoredEntry<String> e : newestFirst ? set.entryRangeReversed(from, to) : set.entryRange(from, to)) {
                        entries.add(new Entry(e.getValue(), e.getScore()));
                    }
                } else {
                    for (String id : newestFirst ? set.valueRangeReversed(from, to) : set.valueRange(from, to)) {
                        entries.add(new Entry(id, null));
                    }
                }
            }
        }
        return entries;
    }

    /** @return the start of the key after {@code position}'s (the next group past the wait list), or null at the state's end */
    private SearchCursor nextKey(SearchCursor position) {
        if (position.state() != JobState.WAITING) {
            return null;
        }
        Collection<String> next = position.group() == null
                ? redisson.<String>getScoredSortedSet(keys.groups(), StringCodec.INSTANCE).valueRange(0, 0)
                : redisson.getLexSortedSet(keys.groups()).rangeTail(position.group(), false, 0, 1);
        return next.isEmpty() ? null : new SearchCursor(JobState.WAITING, next.iterator().next(), 0);
    }

    private static List<String> fields(JobSearch s) {
        List<String> fields = new ArrayList<>(List.of(JobFields.NAME, JobFields.DATA));
        if (s.failedReason().isPresent()) {
            fields.add(JobFields.FAILED_REASON);
        }
        if (s.from().isPresent() && !scoredByTime(s.state())) {
            fields.add(JobFields.TIMESTAMP);
        }
        return fields;
    }

    private static boolean scoredByTime(JobState state) {
        return state == JobState.COMPLETED || state == JobState.FAILED || state == JobState.DELAYED
                || state == JobState.WAITING_CHILDREN;
    }

    /** One HMGET per job, all in one round trip. */
    private List<Map<String, String>> readFields(List<Entry> entries, List<String> fields) {
        RBatch batch = redisson.createBatch(BatchOptions.defaults());
        List<RFuture<Map<String, String>>> replies = new ArrayList<>(entries.size());
        Set<String> names = new LinkedHashSet<>(fields);
        for (Entry e : entries) {
            replies.add(batch.<String, String>getMap(keys.job(e.id()), StringCodec.INSTANCE).getAllAsync(names));
        }
        batch.execute();
        List<Map<String, String>> hashes = new ArrayList<>(entries.size());
        for (RFuture<Map<String, String>> r : replies) {
            hashes.add(r.toCompletableFuture().join());
        }
        return hashes;
    }

    /** @return the time of {@code e} in its state, for the states ordered by it */
    private static long scoreTime(JobState state, double score) {
        return state == JobState.DELAYED ? (long) Math.floor(score / DELAYED_SCALE) : (long) score;
    }

    /** @return whether {@code e} lies past the end of the time range, in the state's order: the scan is over */
    private static boolean pastRange(JobSearch s, Entry e) {
        if (s.from().isEmpty() || !scoredByTime(s.state()) || e.score() == null) {
            return false;
        }
        long time = scoreTime(s.state(), e.score());
        return s.state() == JobState.COMPLETED || s.state() == JobState.FAILED
                ? time < s.from().get().toEpochMilli()
                : time >= s.to().orElseThrow().toEpochMilli();
    }

    private boolean matches(JobSearch s, Entry e, Map<String, String> hash) {
        if (hash.isEmpty() || !hash.containsKey(JobFields.DATA)) {
            return false; // removed since its id was read
        }
        if (s.name().isPresent() && !s.name().get().equals(hash.get(JobFields.NAME))) {
            return false;
        }
        if (s.failedReason().isPresent()) {
            String reason = hash.get(JobFields.FAILED_REASON);
            if (reason == null || !reason.contains(s.failedReason().get())) {
                return false;
            }
        }
        if (s.from().isPresent() && !inRange(s, e, hash)) {
            return false;
        }
        if (!s.dataFilters().isEmpty()) {
            JsonNode data;
            try {
                data = JsonCodec.mapper().readTree(hash.get(JobFields.DATA));
            } catch (Exception notJson) {
                return false;
            }
            for (JobSearch.DataFilter f : s.dataFilters()) {
                JsonNode node = data == null ? null : data.at(f.pointer());
                if (node == null || node.isMissingNode() || !node.equals(JSON_EQUALITY, f.value())) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean inRange(JobSearch s, Entry e, Map<String, String> hash) {
        long time;
        if (scoredByTime(s.state()) && e.score() != null) {
            time = scoreTime(s.state(), e.score());
        } else {
            String stamp = hash.get(JobFields.TIMESTAMP);
            if (stamp == null) {
                return false;
            }
            try {
                time = Long.parseLong(stamp);
            } catch (NumberFormatException notANumber) {
                return false;
            }
        }
        Instant at = Instant.ofEpochMilli(time);
        return !at.isBefore(s.from().get()) && at.isBefore(s.to().orElseThrow());
    }

    /** The matches in full, in order; a job removed meanwhile is left out. */
    private List<Job<T>> readJobs(List<String> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        RBatch batch = redisson.createBatch(BatchOptions.defaults());
        List<RFuture<Map<String, String>>> replies = new ArrayList<>(ids.size());
        for (String id : ids) {
            replies.add(batch.<String, String>getMap(keys.job(id), StringCodec.INSTANCE).readAllMapAsync());
        }
        batch.execute();
        List<Job<T>> jobs = new ArrayList<>(ids.size());
        for (int i = 0; i < ids.size(); i++) {
            Map<String, String> hash = replies.get(i).toCompletableFuture().join();
            if (!hash.isEmpty()) {
                jobs.add(Job.fromHash(ids.get(i), hash, dataType));
            }
        }
        return jobs;
    }
}
