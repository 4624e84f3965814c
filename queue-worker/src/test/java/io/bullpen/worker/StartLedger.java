package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

/**
 * Liveness bookkeeping for the trickle tests: when each job became runnable and when its
 * processor started. A test says {@link #ready} before the action that makes a job runnable
 * (an add, a failure with backoff, a step's delay...), the processor says {@link #started}; each
 * start takes the oldest runnable moment of its job. At the end every runnable moment must have
 * had its start within the bound, measured from the moment the job could run (a test whose limits
 * hold jobs back moves that moment with a function of the start).
 */
final class StartLedger {
    /**
     * One attempt start.
     *
     * @param job the job id
     * @param what what made it runnable (for the failure message)
     * @param readyAt when it became runnable, epoch ms (before limits or pauses held it)
     * @param startedAt when its processor started, epoch ms
     * @param seq the start's position among all starts
     */
    record Start(String job, String what, long readyAt, long startedAt, int seq) {
    }

    private record Ready(String what, long at) {
    }

    private final Map<String, Deque<Ready>> pending = new ConcurrentHashMap<>();
    private final List<Start> starts = new CopyOnWriteArrayList<>();
    private final List<String> unexpected = new CopyOnWriteArrayList<>();
    private volatile boolean restartsAllowed;

    /** Starts nobody made runnable (a crashed worker's jobs, recovered) are not a failure. */
    void allowRestarts() {
        restartsAllowed = true;
    }

    /** The job becomes runnable at {@code at} (epoch ms); say it before it can start. */
    void ready(String job, String what, long at) {
        Deque<Ready> q = pending.computeIfAbsent(job, k -> new ArrayDeque<>());
        synchronized (q) {
            q.addLast(new Ready(what, at));
        }
    }

    /** The job will not start after all (cancelled before it did): its runnable moments go. */
    void forget(String job) {
        pending.remove(job);
    }

    /** The job's processor started now. */
    void started(String job) {
        long now = System.currentTimeMillis();
        Deque<Ready> q = pending.get(job);
        Ready r = null;
        if (q != null) {
            synchronized (q) {
                r = q.pollFirst();
            }
        }
        if (r == null) {
            unexpected.add(job);
            return;
        }
        synchronized (starts) {
            starts.add(new Start(job, r.what, r.at, now, starts.size()));
        }
    }

    /** @return runnable moments not started yet */
    int pendingCount() {
        return pending.values().stream().mapToInt(q -> {
            synchronized (q) {
                return q.size();
            }
        }).sum();
    }

    List<Start> starts() {
        return List.copyOf(starts);
    }

    /** Waits until every runnable moment said so far has started, at most {@code atMost}. */
    void awaitAllStarted(Duration atMost) {
        try {
            await().atMost(atMost).pollInterval(Duration.ofMillis(50)).until(() -> pendingCount() == 0);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("runnable jobs that never started: " + describePending(), e);
        }
    }

    /** Every start came within {@code bound} of its job becoming runnable, as given. */
    void assertStartedWithin(Duration bound) {
        assertStartedWithin(bound, Start::readyAt);
    }

    /**
     * Every start came within {@code bound} of the moment its job could run.
     *
     * @param runnableAt when the job could run, given its start (limits and pauses moved it past
     *     {@link Start#readyAt()})
     */
    void assertStartedWithin(Duration bound, ToLongFunction<Start> runnableAt) {
        if (!restartsAllowed) {
            assertThat(unexpected).as("starts nobody made runnable").isEmpty();
        }
        List<String> late = new ArrayList<>();
        long worst = 0;
        for (Start s : starts) {
            long latency = s.startedAt() - runnableAt.applyAsLong(s);
            worst = Math.max(worst, latency);
            if (latency > bound.toMillis()) {
                late.add(s.job() + " (" + s.what() + ") started " + latency + " ms after it could run");
            }
        }
        assertThat(late).as("jobs that started later than %d ms after they could run (worst %d ms, %d starts)",
                bound.toMillis(), worst, starts.size()).isEmpty();
        assertThat(starts).as("starts").isNotEmpty();
    }

    /** @return what is still pending, for failure messages */
    String describePending() {
        long now = System.currentTimeMillis();
        return pending.entrySet().stream().filter(e -> !e.getValue().isEmpty())
                .map(e -> e.getKey() + " " + e.getValue().stream().map(r -> r.what + " ready " + (now - r.at) + " ms ago")
                        .collect(Collectors.joining(", ")))
                .collect(Collectors.joining("; "));
    }
}
