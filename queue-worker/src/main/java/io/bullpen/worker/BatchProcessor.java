package io.bullpen.worker;

/**
 * The user's code that processes a batch of jobs in one call (insert 500 rows in one statement,
 * send 100 pushes in one API call); set with {@link Worker.Builder#batchProcessor} and sized with
 * {@link Worker.Builder#batch}. Runs on the worker's executor, one batch per concurrency slot.
 * Report a result per job through {@link JobBatch#complete} and {@link JobBatch#fail}; the jobs
 * not reported complete with the return value, or, when this throws, each ends as if its own
 * processor had thrown that exception (see {@link JobBatch}). Inside a batch,
 * {@link JobContext#delay}, {@link JobContext#delayUntil} and {@link JobContext#waitForChildren}
 * throw {@link UnsupportedOperationException}; {@link JobContext#updateData} works per job.
 *
 * @param <T> the type of the jobs' data
 * @param <R> the type of the results, stored as JSON as each job's return value
 */
@FunctionalInterface
public interface BatchProcessor<T, R> {
    /**
     * Processes one batch.
     *
     * @param batch the jobs and the way to report a result per job
     * @return the result of every job not reported (may be null)
     * @throws Exception to fail the attempt of every job not reported
     */
    R process(JobBatch<T, R> batch) throws Exception;
}
