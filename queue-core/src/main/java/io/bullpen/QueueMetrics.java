package io.bullpen;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Per-minute counts of finished jobs of one {@link MetricsType}, newest first: {@code counts().get(0)}
 * is the current minute (still counting), {@code get(1)} the minute before, and so on; minutes
 * without finishes count 0. Minutes are whole UTC minutes of epoch time, as stamped by the clocks
 * of the workers that finished the jobs; "current" is the later of the reader's minute and the
 * last minute counted.
 *
 * @param type what was counted
 * @param since the start of the oldest minute, {@code counts().size()} minutes before the end of
 *     the current one
 * @param counts one count per minute, newest first
 */
public record QueueMetrics(MetricsType type, Instant since, List<Long> counts) {

    /** The most minutes kept and returned: the current one plus the 1,440 before it (24 hours). */
    public static final int MAX_MINUTES = 1441;

    /**
     * @param type what was counted
     * @param since the start of the oldest minute
     * @param counts one count per minute, newest first (copied)
     */
    public QueueMetrics {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(since, "since");
        counts = List.copyOf(counts);
    }

    /**
     * The sum over all the minutes.
     *
     * @return the number of jobs counted
     */
    public long total() {
        long sum = 0;
        for (long c : counts) {
            sum += c;
        }
        return sum;
    }
}
