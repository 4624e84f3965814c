package io.bullpen.worker;

import java.util.List;

/**
 * What a {@link BatchProcessor} gets: the jobs of one batch, each with a {@link JobContext} of its
 * own (its progress, log, data, cancel flag), and a way to report a result per job.
 *
 * <p>Reports take effect when the processor returns (or at the batch's deadline, the earliest
 * timeout of its jobs), for every job of the batch in one call to Redis. A job not reported
 * completes with the processor's return value; when the processor throws, each job not reported
 * ends as if its own processor had thrown that exception (a {@code RateLimitedException} puts it
 * back, an {@code UnrecoverableJobException} fails it without retry, any other is a failed attempt
 * retried per its attempts and backoff). A job cancelled while the batch runs leaves it: it fails as
 * cancelled, and a report on it is ignored.
 *
 * <p>Each job keeps its own lock, attempts, backoff, events and metrics: a job of a batch that
 * fails retries alone, in whatever batch takes it next.
 *
 * @param <T> the type of the jobs' data
 * @param <R> the type of the results
 */
public interface JobBatch<T, R> {
    /**
     * @return the jobs of this batch, in the order they were taken (at least one, at most the
     *     batch size); the list cannot be modified
     */
    List<JobContext<T>> jobs();

    /**
     * Completes one job with {@code value}, when the processor returns.
     *
     * @param job one of {@link #jobs()}
     * @param value its result (may be null), stored as JSON
     * @throws IllegalArgumentException when {@code job} is not one of this batch's jobs
     * @throws IllegalStateException when the job was already reported
     */
    void complete(JobContext<T> job, R value);

    /**
     * Fails one job's attempt with {@code error}, when the processor returns, as if its own
     * processor had thrown it: retried per its attempts and backoff; an
     * {@code UnrecoverableJobException} fails it for good; a {@code RateLimitedException} puts it
     * back without using an attempt.
     *
     * @param job one of {@link #jobs()}
     * @param error why it failed
     * @throws IllegalArgumentException when {@code job} is not one of this batch's jobs
     * @throws IllegalStateException when the job was already reported
     */
    void fail(JobContext<T> job, Throwable error);
}
