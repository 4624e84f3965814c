package io.bullpen.internal;

import io.bullpen.internal.ScriptTypes.FetchArgs;
import io.bullpen.internal.ScriptTypes.FetchResult;
import io.bullpen.internal.ScriptTypes.RawJob;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The scripts' shared ARGV pieces and reply decoding: fetch arguments, fetch replies, and raw Redis values. */
final class ScriptReplies {
    private ScriptReplies() {
    }

    /** Sets the fetch arguments moveToActive and moveToFinished share, by their header names. */
    static ScriptArgs.Named fetchArgs(ScriptArgs.Named args, FetchArgs f) {
        return args.set("count", Integer.toString(f.count()))
                .set("token", f.token())
                .set("lockMs", Long.toString(f.lockMs()))
                .set("workerName", f.workerName())
                .set("promoteLimit", Integer.toString(f.promoteLimit()))
                .set("stalledLimit", Integer.toString(f.stalledLimit()))
                .set("maxStalled", Integer.toString(f.maxStalled()))
                .set("cleanLimit", Integer.toString(f.cleanLimit()))
                .set("ahead", Integer.toString(f.ahead()));
    }

    /**
     * Reads a fetch from the scripts' flat reply (see moveToActive's header), starting at
     * {@code at[0]}, which it advances past what it read.
     */
    static FetchResult fetchResult(List<?> reply, int[] at) {
        List<String> recovered = counted(reply, at);
        List<String> failed = counted(reply, at);
        int jobCount = (int) num(reply.get(at[0]++));
        List<RawJob> jobs = new ArrayList<>(jobCount);
        for (int j = 0; j < jobCount; j++) {
            List<?> entry = (List<?>) reply.get(at[0]++);
            int fields = entry.size() - 2;
            jobs.add(new RawJob(str(entry.get(fields)), takenHash(entry, fields), str(entry.get(fields + 1))));
        }
        long nextDue = num(reply.get(at[0]++));
        long nextLease = num(reply.get(at[0]++));
        int updateCount = (int) num(reply.get(at[0]++));
        List<ScriptTypes.SchedulerUpdate> updates = new ArrayList<>(updateCount);
        for (int u = 0; u < updateCount; u++) {
            int i = at[0];
            updates.add(new ScriptTypes.SchedulerUpdate(str(reply.get(i)), str(reply.get(i + 1)), num(reply.get(i + 2)),
                    str(reply.get(i + 3)), num(reply.get(i + 4))));
            at[0] += 5;
        }
        return new FetchResult(jobs, nextDue, nextLease, recovered, failed, updates);
    }

    /**
     * A taken job's hash, built once as the immutable map {@code Job} keeps (its copy is then a
     * no-op) rather than a LinkedHashMap that {@code Job} copies again. A reply that named a
     * field twice (no script does) falls back to the last value winning, as a map put would.
     */
    @SuppressWarnings("unchecked")
    private static Map<String, String> takenHash(List<?> entry, int fields) {
        Map.Entry<String, String>[] pairs = new Map.Entry[fields / 2];
        for (int i = 0; i + 1 < fields; i += 2) {
            pairs[i / 2] = Map.entry(str(entry.get(i)), str(entry.get(i + 1)));
        }
        try {
            return Map.ofEntries(pairs);
        } catch (IllegalArgumentException duplicate) {
            Map<String, String> hash = new LinkedHashMap<>(fields);
            for (Map.Entry<String, String> pair : pairs) {
                hash.put(pair.getKey(), pair.getValue());
            }
            return hash;
        }
    }

    static List<String> counted(List<?> reply, int[] at) {
        int count = (int) num(reply.get(at[0]++));
        List<String> values = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            values.add(str(reply.get(at[0]++)));
        }
        return values;
    }

    static Map<String, String> hash(Object flat) {
        List<?> list = (List<?>) flat;
        Map<String, String> map = new LinkedHashMap<>(list.size());
        for (int i = 0; i + 1 < list.size(); i += 2) {
            map.put(str(list.get(i)), str(list.get(i + 1)));
        }
        return map;
    }

    static List<String> strings(Object reply) {
        List<?> list = (List<?>) reply;
        List<String> out = new ArrayList<>(list.size());
        for (Object o : list) {
            out.add(str(o));
        }
        return out;
    }

    static String str(Object o) {
        return o == null ? null : o.toString();
    }

    static long num(Object o) {
        if (o instanceof Number n) {
            return n.longValue();
        }
        return Long.parseLong(o.toString());
    }
}
