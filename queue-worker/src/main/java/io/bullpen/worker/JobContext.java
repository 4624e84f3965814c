package io.bullpen.worker;

import io.bullpen.Job;

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
     * timed out, or the worker is closing and the close timeout ran out. Long processors should
     * check it (the thread is also interrupted).
     *
     * @return whether the attempt is cancelled
     */
    boolean isCancelled();
}
