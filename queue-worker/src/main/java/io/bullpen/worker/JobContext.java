package io.bullpen.worker;

import io.bullpen.Job;
import java.util.Optional;

/**
 * What a processor gets for one attempt of one job.
 *
 * @param <T> the type of the job's data
 */
public interface JobContext<T> {
    /** @return the job as it was when this attempt started */
    Job<T> job();

    /**
     * Stores the job's progress and announces it (a {@code progress} event).
     *
     * @param progress any JSON-serializable value, e.g. a percentage or an object
     */
    void updateProgress(Object progress);

    /**
     * Appends a line to the job's log (kept with the job, capped).
     *
     * @param line the line
     */
    void log(String line);

    /**
     * The fencing token of this attempt: grows with every attempt across the queue. A downstream
     * store that remembers the highest token it accepted can reject writes from an attempt whose
     * worker lost its lock and was superseded.
     *
     * @return the token
     */
    long fencingToken();

    /**
     * True once this attempt should stop: its lock was lost (another worker may run the job), it
     * timed out, the job was cancelled ({@code Queue.cancel}, {@code Worker.cancel}: see
     * {@link #cancellationReason()}), or the worker is closing and the close timeout ran out. Long
     * processors should check it (the thread is also interrupted).
     *
     * @return whether the attempt is cancelled
     */
    boolean isCancelled();

    /**
     * Why the job was cancelled, once someone cancelled it while this attempt runs (the worker
     * checks every 500 ms, and interrupts the processor thread). The attempt then ends the job as
     * failed with {@code "cancelled: <reason>"}, without a retry, whatever the processor throws; a value
     * returned anyway completes the job.
     *
     * @return the reason given to the cancel, empty while the job was not cancelled
     */
    default Optional<String> cancellationReason() {
        return Optional.empty();
    }
}
