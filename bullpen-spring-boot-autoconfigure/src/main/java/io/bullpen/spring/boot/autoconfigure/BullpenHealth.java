package io.bullpen.spring.boot.autoconfigure;

import io.bullpen.JobCounts;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.client.Bullpen;
import io.bullpen.worker.Worker;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the {@code bullpen} health indicator of each starter reports, independent of the Boot
 * line's health API: UP when Redis answers and every worker runs; OUT_OF_SERVICE from the moment
 * shutdown begins (the workers drain); DOWN when Redis does not answer or a worker stopped on its
 * own. Never DOWN because of a backlog. Details: the job counts per queue (cached for
 * {@link #COUNTS_TTL}, so frequent probes cost Redis one call per queue every few seconds at most)
 * and the workers' active jobs.
 */
public final class BullpenHealth {
    /** How long job counts are reused. */
    public static final Duration COUNTS_TTL = Duration.ofSeconds(5);

    /** The health states this indicator reports. */
    public enum Status {
        /** Redis answers, every worker runs. */
        UP,
        /** Shutting down: the workers drain. */
        OUT_OF_SERVICE,
        /** Redis does not answer, or a worker stopped on its own. */
        DOWN
    }

    /**
     * One check's outcome.
     *
     * @param status the status
     * @param details what a health endpoint shows
     */
    public record Report(Status status, Map<String, Object> details) {
    }

    private record Cached(Map<String, Long> counts, long at) {
    }

    private final Bullpen bullpen;
    private final BullpenWorkers workers;
    private final Set<String> queueNames;
    private final Clock clock;
    private final Map<String, Queue<Object>> queues = new ConcurrentHashMap<>();
    private final Map<String, Cached> counts = new ConcurrentHashMap<>();

    BullpenHealth(Bullpen bullpen, BullpenWorkers workers, Set<String> queueNames, Clock clock) {
        this.bullpen = bullpen;
        this.workers = workers;
        this.queueNames = new TreeSet<>(queueNames);
        this.clock = clock;
    }

    /** @return the current health (reads Redis unless the counts are cached) */
    public Report check() {
        Map<String, Object> details = new LinkedHashMap<>();
        Map<String, Object> workerDetails = new LinkedHashMap<>();
        boolean workerStopped = false;
        for (Worker<?, ?> w : workers.workers()) {
            workerDetails.put(w.queue() + " (" + w.name() + ")", Map.of("running", w.isRunning(), "active", w.activeCount()));
            workerStopped |= !w.isRunning();
        }
        details.put("workers", workerDetails);
        try {
            // A round trip even when every count is cached: "Redis answers" is checked each time.
            bullpen.redisson().getBucket("bullpen:health").isExists();
            Map<String, Object> queueDetails = new LinkedHashMap<>();
            for (String name : queueNames) {
                queueDetails.put(name, counts(name));
            }
            details.put("queues", queueDetails);
        } catch (RuntimeException e) {
            details.put("error", e.getClass().getName() + ": " + e.getMessage());
            return new Report(workers.isDraining() ? Status.OUT_OF_SERVICE : Status.DOWN, details);
        }
        if (workers.isDraining()) {
            return new Report(Status.OUT_OF_SERVICE, details);
        }
        return new Report(workerStopped && workers.isRunning() ? Status.DOWN : Status.UP, details);
    }

    private Map<String, Long> counts(String name) {
        long now = clock.millis();
        Cached cached = counts.get(name);
        if (cached == null || now - cached.at() >= COUNTS_TTL.toMillis()) {
            Queue<Object> queue = queues.computeIfAbsent(name, n ->
                    Queue.builder(bullpen.redisson(), n, Object.class).prefix(bullpen.prefix()).build());
            JobCounts c = queue.getJobCounts();
            Map<String, Long> byState = new LinkedHashMap<>();
            for (JobState state : JobState.values()) {
                try {
                    byState.put(state.label(), c.count(state));
                } catch (IllegalArgumentException noCount) {
                    // UNKNOWN: no job is ever counted in it.
                }
            }
            cached = new Cached(byState, now);
            counts.put(name, cached);
        }
        return cached.counts();
    }
}
