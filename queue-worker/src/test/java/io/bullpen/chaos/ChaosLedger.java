package io.bullpen.chaos;

import io.bullpen.QueueEvents;
import io.bullpen.testing.QueueSnapshot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;
import org.redisson.api.RedissonClient;

/**
 * What the producer, the processors, the workers' callbacks and a {@link QueueEvents} listener saw
 * during one chaos run, and the accounting made from it at the end:
 *
 * <ul>
 *   <li><b>lost</b>: a job whose add Redis acknowledged (the add returned normally) that is in
 *       neither completed nor failed once the run has drained;</li>
 *   <li><b>duplicated</b>: every processor start of a job beyond its first (a start is recorded
 *       before the processor does anything, in this JVM or in a child JVM's log).</li>
 * </ul>
 */
final class ChaosLedger {
    /** Acknowledged adds: job id -> producer sequence number. */
    final Map<String, Long> acked = new ConcurrentHashMap<>();
    /** Adds that threw: Redis may or may not have kept them (not counted as lost either way). */
    final LongAdder addFailures = new LongAdder();
    /** Processor starts per job id (this JVM's processors and the parsed logs of child JVMs). */
    final Map<String, AtomicInteger> starts = new ConcurrentHashMap<>();
    /** When this JVM's processors started each job (epoch ms, in order): what the trickle's lateness is measured on. */
    final Map<String, List<Long>> startTimes = new ConcurrentHashMap<>();
    /** onCompleted / onFailed(final) callbacks per job id, from in-process workers. */
    final Map<String, AtomicInteger> completedCallbacks = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> finalFailedCallbacks = new ConcurrentHashMap<>();
    final LongAdder lockLost = new LongAdder();
    final LongAdder stalled = new LongAdder();
    final LongAdder workerErrors = new LongAdder();
    /** completed / failed events per job id, from the QueueEvents listener. */
    final Map<String, AtomicInteger> completedEvents = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> failedEvents = new ConcurrentHashMap<>();
    /** Wall-clock times (ms) of completions seen by this JVM's callbacks and by the event listener. */
    private final ConcurrentLinkedQueue<Long> completionTimes = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Long> eventTimes = new ConcurrentLinkedQueue<>();

    void added(String id, long seq) {
        acked.put(id, seq);
    }

    /** @return how many times the job has started, this start included */
    int started(String id) {
        startTimes.computeIfAbsent(id, k -> new java.util.concurrent.CopyOnWriteArrayList<>()).add(System.currentTimeMillis());
        return starts.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
    }

    /** @return when this JVM's processors started the job, in order (empty when never) */
    List<Long> startTimes(String id) {
        return startTimes.getOrDefault(id, List.of());
    }

    void completed(String id) {
        completedCallbacks.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
        completionTimes.add(System.currentTimeMillis());
    }

    void failedFinally(String id) {
        finalFailedCallbacks.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
        completionTimes.add(System.currentTimeMillis());
    }

    /** Starts a listener recording completed and failed events (and the time of every event). */
    QueueEvents listen(QueueEvents events) {
        events.onEvent(e -> eventTimes.add(System.currentTimeMillis()));
        events.onCompleted(e -> completedEvents.computeIfAbsent(e.jobId(), k -> new AtomicInteger()).incrementAndGet());
        events.onFailed(e -> failedEvents.computeIfAbsent(e.jobId(), k -> new AtomicInteger()).incrementAndGet());
        return events.start();
    }

    /** Adds the "start &lt;id&gt; &lt;fence&gt;" lines of a child worker's log; returns how many. */
    int readChildLog(Path log) throws IOException {
        int n = 0;
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            if (line.startsWith("start ")) {
                String[] parts = line.split(" ");
                if (parts.length >= 2) {
                    started(parts[1]);
                    n++;
                }
            } else if (line.startsWith("done ")) {
                completionTimes.add(Long.parseLong(line.split(" ")[3]));
            }
        }
        return n;
    }

    long completionCount() {
        return completionTimes.size();
    }

    /** The first completion seen at or after {@code sinceMillis}, or -1. */
    long firstCompletionAtOrAfter(long sinceMillis) {
        return completionTimes.stream().filter(t -> t >= sinceMillis).mapToLong(Long::longValue).min().orElse(-1);
    }

    /** The first event received at or after {@code sinceMillis}, or -1. */
    long firstEventAtOrAfter(long sinceMillis) {
        return eventTimes.stream().filter(t -> t >= sinceMillis).mapToLong(Long::longValue).min().orElse(-1);
    }

    /** The accounting of a drained queue. */
    Tally tally(RedissonClient redisson, String queue) {
        QueueSnapshot end = QueueSnapshot.read(redisson, queue);
        Set<String> completed = new HashSet<>(end.completed().keySet());
        Set<String> failed = new HashSet<>(end.failed().keySet());
        Tally t = new Tally();
        t.snapshot = end;
        t.jobIds = end.jobIds();
        t.completedIds = completed;
        t.failedIds = failed;
        t.acked = acked.size();
        t.inRedis = t.jobIds.size();
        t.completed = completed.size();
        t.failed = failed.size();
        t.addFailures = addFailures.sum();
        for (String id : new TreeSet<>(acked.keySet())) {
            if (!completed.contains(id) && !failed.contains(id)) {
                t.lostIds.add(id);
            }
        }
        for (Map.Entry<String, AtomicInteger> e : starts.entrySet()) {
            int n = e.getValue().get();
            t.starts += n;
            if (n > 1) {
                t.duplicated += n - 1;
                t.jobsRunTwiceOrMore++;
            }
        }
        for (String id : t.jobIds) {
            Map<String, String> hash = end.job(id);
            int attemptsStarted = Integer.parseInt(hash.getOrDefault("ats", "0"));
            t.attemptsStartedInRedis += attemptsStarted;
            if (attemptsStarted > 1) {
                t.takenTwiceOrMore++;
            }
            t.stalledInRedis += Integer.parseInt(hash.getOrDefault("stc", "0"));
        }
        // A job must end in one state, and what was said about it must agree with that state.
        for (String id : t.jobIds) {
            boolean c = completed.contains(id);
            boolean f = failed.contains(id);
            if (c && f) {
                t.problems.add("job " + id + " is both completed and failed");
            }
            int cb = count(completedCallbacks, id);
            int fb = count(finalFailedCallbacks, id);
            if (cb > 1 || fb > 1 || (cb > 0 && fb > 0)) {
                t.problems.add("job " + id + ": " + cb + " onCompleted and " + fb + " final onFailed callbacks");
            }
            if (cb > 0 && !c) {
                t.problems.add("job " + id + " had an onCompleted callback but ends " + (f ? "failed" : "unfinished"));
            }
            if (fb > 0 && !f) {
                t.problems.add("job " + id + " had a final onFailed callback but ends " + (c ? "completed" : "unfinished"));
            }
        }
        for (String id : completed) {
            if (count(completedCallbacks, id) == 0) {
                t.completedWithoutCallback++;
            }
        }
        t.completedEvents = completedEvents.values().stream().mapToInt(AtomicInteger::get).sum();
        t.failedEvents = failedEvents.values().stream().mapToInt(AtomicInteger::get).sum();
        return t;
    }

    /**
     * Checks the events of a run whose listener saw the whole run: each completed job has one
     * completed event and no failed one, each failed job one failed event and no completed one.
     */
    void checkEvents(Tally t) {
        Set<String> completed = t.completedIds;
        Set<String> failed = t.failedIds;
        for (String id : t.jobIds) {
            int ce = count(completedEvents, id);
            int fe = count(failedEvents, id);
            if (completed.contains(id) && (ce != 1 || fe != 0)) {
                t.problems.add("completed job " + id + " has " + ce + " completed and " + fe + " failed events");
            }
            if (failed.contains(id) && (fe != 1 || ce != 0)) {
                t.problems.add("failed job " + id + " has " + ce + " completed and " + fe + " failed events");
            }
        }
        for (String id : completedEvents.keySet()) {
            if (!t.jobIds.contains(id)) {
                t.problems.add("a completed event names job " + id + ", which Redis does not have");
            }
        }
    }

    private static int count(Map<String, AtomicInteger> map, String id) {
        AtomicInteger n = map.get(id);
        return n == null ? 0 : n.get();
    }

    static final class Tally {
        QueueSnapshot snapshot;
        Set<String> jobIds;
        Set<String> completedIds;
        Set<String> failedIds;
        long acked;
        long inRedis;
        long completed;
        long failed;
        long addFailures;
        final List<String> lostIds = new ArrayList<>();
        long starts;
        long duplicated;
        long jobsRunTwiceOrMore;
        long attemptsStartedInRedis;
        long takenTwiceOrMore;
        long stalledInRedis;
        long completedEvents;
        long failedEvents;
        /** Completed in Redis, but no in-process worker fired onCompleted (only meaningful without child JVMs). */
        long completedWithoutCallback;
        final List<String> problems = new ArrayList<>();

        long lost() {
            return lostIds.size();
        }

        String lostSample() {
            return lostIds.stream().limit(20).collect(Collectors.joining(", "));
        }

        /** Jobs by their number of processor starts, e.g. {1=9980, 2=20}. */
        static Map<Integer, Long> histogram(Map<String, AtomicInteger> starts) {
            return starts.values().stream().collect(Collectors.groupingBy(AtomicInteger::get, TreeMap::new,
                    Collectors.counting()));
        }
    }
}
