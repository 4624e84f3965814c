package io.bullpen.worker;

import io.bullpen.Job;
import io.bullpen.JobTimeoutException;

/**
 * In-process callbacks of one worker. Every method has an empty default, so implement only what
 * you need: a callback you do not implement is never queued for the events thread. A worker takes several listeners ({@code listener(a).listener(b)}); each gets every
 * callback, called in the order they were added.
 *
 * <p>Callbacks run one at a time, in order, on the worker's own events thread
 * ({@code bullpen-<queue>-events-1}), never on a processor thread or a Redis client (Netty)
 * thread. So a callback may call Bullpen or Redisson synchronously (e.g. add a follow-up job
 * with {@code Queue.add}), and a slow callback delays only the callbacks after it, never the
 * jobs: they are recorded before their callbacks run, and a callback may come after the job has
 * moved on. A callback that throws is logged and never affects the job. {@code close()} waits up
 * to 5 s for the callbacks queued by then; an outcome recorded after a forced close is still
 * reported. For events from every process, use the queue's event stream.
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
     * @param job the job as it was when the attempt started, but with {@link Job#attemptsMade()}
     *            counting this attempt (1 after a first attempt), as in BullMQ
     * @param result what the processor returned
     */
    default void onCompleted(Job<T> job, R result) {
    }

    /**
     * Called for every failed attempt, whether the job will be retried or not.
     *
     * @param job the job as it was when the attempt started, but with {@link Job#attemptsMade()}
     *            counting this attempt, as {@code QueueEvents}' retrying event does
     * @param error why the attempt failed ({@link JobTimeoutException} when it ran past its timeout)
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
