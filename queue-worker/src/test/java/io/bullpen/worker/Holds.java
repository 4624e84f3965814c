package io.bullpen.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Intervals during which a scope (the queue, a group, every worker) held runnable jobs back: a
 * pause, a {@code RateLimitedException}'s delay. A job ready at {@code t} could run at the first
 * moment from {@code t} on outside every interval of its scope, with the liveness bound free
 * before the next one: a job made ready a moment before a pause may rightly wait it out.
 */
final class Holds {
    private record Hold(long from, long to) {
    }

    private final Map<String, List<Hold>> byScope = new ConcurrentHashMap<>();
    private final Map<String, Long> openSince = new ConcurrentHashMap<>();

    /** The scope holds jobs back from {@code from} to {@code to} (epoch ms). */
    void hold(String scope, long from, long to) {
        List<Hold> list = byScope.computeIfAbsent(scope, k -> new ArrayList<>());
        synchronized (list) {
            list.add(new Hold(from, to));
        }
    }

    /** The scope holds jobs back from now until {@link #end}. */
    void begin(String scope) {
        openSince.putIfAbsent(scope, System.currentTimeMillis());
    }

    /** Ends the hold {@link #begin} started (its end: now, before the call that lifts it). */
    void end(String scope) {
        Long since = openSince.remove(scope);
        if (since != null) {
            hold(scope, since, System.currentTimeMillis());
        }
    }

    /** @return the first moment from {@code ready} on outside every hold of {@code scope} */
    long runnableAt(String scope, long ready) {
        List<Hold> list = byScope.getOrDefault(scope, List.of());
        List<Hold> copy;
        synchronized (list) {
            copy = new ArrayList<>(list);
        }
        Long open = openSince.get(scope);
        if (open != null) {
            copy.add(new Hold(open, Long.MAX_VALUE));
        }
        long t = ready;
        boolean moved = true;
        while (moved) {
            moved = false;
            for (Hold h : copy) {
                if (h.from < t + LivenessFixture.BOUND.toMillis() && t < h.to) {
                    t = h.to;
                    moved = true;
                }
            }
        }
        return t;
    }
}
