package io.bullpen.worker;

import io.bullpen.UnrecoverableJobException;

/**
 * The user's code that processes one job. Runs on the worker's executor; throwing fails the
 * attempt (retried per the job's attempts and backoff), throwing
 * {@link UnrecoverableJobException} fails the job at once. A job may run more than once (at
 * least once delivery): make processors idempotent, or check {@link JobContext#fencingToken()}.
 *
 * <ul>
 * <li>An {@link Error} is a failed attempt like an exception, retried the same way, and the
 *     worker keeps running; it is logged at ERROR with its stack trace. That includes a
 *     {@link StackOverflowError} (the stack has unwound by then) and an {@link OutOfMemoryError}
 *     (the JVM may be short of memory for everything else too: watch for it).</li>
 * <li>A return value that cannot be serialized to JSON fails the job for good, without retry
 *     (another attempt would return another such value); the reason names its type.</li>
 * <li>At the job's timeout the attempt fails whether the processor stops or not (see
 *     {@code JobOptions.Builder#timeout}): the thread is interrupted, and a processor that
 *     ignores that runs on, its eventual outcome discarded. Check {@link JobContext#isCancelled()}
 *     in long computations.</li>
 * </ul>
 *
 * @param <T> the type of the job's data
 * @param <R> the type of the result, stored as JSON as the job's return value
 */
@FunctionalInterface
public interface JobProcessor<T, R> {
    /**
     * Processes one job.
     *
     * @param context the job and what the processor may do with it
     * @return the result (may be null)
     * @throws Exception to fail the attempt
     */
    R process(JobContext<T> context) throws Exception;
}
