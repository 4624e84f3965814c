package io.bullpen.worker;

import io.bullpen.Job;

/**
 * In-process callbacks of one worker. Every method has an empty default, so implement only what
 * you need. Callbacks run on the worker's threads: keep them short. A callback that throws is
 * logged and never affects the job. For events from every process, use the queue's event stream.
 *
 * @param <T> the type of the jobs' data
 * @param <R> the type of the processors' results
 */
public interface WorkerListener<T, R> {
    /** @param job a job this worker started (an attempt began) */
    default void onActive(Job<T> job) {
    }

    /**
     * @param job the job
     * @param progress the value the processor reported
     */
    default void onProgress(Job<T> job, Object progress) {
    }

    /**
     * @param job the job, as it was when the attempt started
     * @param result what the processor returned
     */
    default void onCompleted(Job<T> job, R result) {
    }

    /**
     * Called for every failed attempt, whether the job will be retried or not.
     *
     * @param job the job, as it was when the attempt started
     * @param error why the attempt failed
     * @param finalFailure true when the job moved to failed (no retry)
     */
    default void onFailed(Job<T> job, Throwable error, boolean finalFailure) {
    }

    /** @param jobId a job this worker found stalled (its worker lost the lock) and recovered */
    default void onStalled(String jobId) {
    }

    /**
     * The worker could not renew the lock of a job it is running: another worker may run it, and
     * this attempt's result will be rejected.
     *
     * @param job the job
     */
    default void onLockLost(Job<T> job) {
    }

    /** The worker ran out of jobs: the queue has no job ready now. */
    default void onDrained() {
    }

    /** @param error an error of the worker itself (e.g. Redis unreachable); the worker keeps trying */
    default void onError(Throwable error) {
    }
}
