package io.bullpen.worker;

/**
 * The user's code that processes one job. Runs on the worker's executor; throwing fails the
 * attempt (retried per the job's attempts and backoff), throwing
 * {@link UnrecoverableJobException} fails the job at once. A job may run more than once (at
 * least once delivery): make processors idempotent, or check {@link JobContext#fencingToken()}.
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
