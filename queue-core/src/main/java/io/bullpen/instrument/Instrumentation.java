package io.bullpen.instrument;

import io.bullpen.Job;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;

/**
 * Observes every queue and worker it is given to, for metrics and tracing, without taking the
 * place of a worker's listeners. Every method has a no-op default: implement the ones you need
 * (a worker queues for its events thread only the callbacks some instrumentation or listener
 * implements).
 * Give it to {@code Queue.Builder.instrumentation}, {@code Worker.Builder.instrumentation} or, for
 * everything a {@code Bullpen} client hands out, to {@code Bullpen.Builder.instrumentation}.
 *
 * <p>Calls never run on Redisson's I/O threads and never cost a Redis call: a queue calls
 * {@link #jobAdded} (and {@link Adding#ended}) before the add returns or its future completes, on
 * the adding thread for a synchronous add and on one of Bullpen's completion threads for
 * {@code addAsync}, and a worker calls the rest on its events thread, the one that runs its
 * listeners, so calls for one worker arrive in order. An implementation that throws is logged and
 * ignored. Keep calls fast: a slow one delays the worker's listeners, never a job.
 *
 * <p>Tracing uses two more calls, which run where the work runs (so the caller's context is
 * current): {@link #addStarting} on the thread that adds, once per add call (one for a bulk add),
 * may put headers (e.g. W3C {@code traceparent}/{@code tracestate}) that are stored with the jobs in
 * the add's own script call; {@link #processStarting} on the processor's thread, around every
 * attempt, gets them back. Without either, an add and an attempt cost exactly what they did.
 */
public interface Instrumentation {

    /** The end of an add call that {@link #addStarting} saw begin. */
    @FunctionalInterface
    interface Adding {
        /** Does nothing. */
        Adding NONE = (jobIds, error) -> {
        };

        /**
         * The add call ended; called off Redisson's I/O threads, before the caller sees the jobs.
         *
         * @param jobIds the ids of the jobs the call added (not those of duplicates), in order;
         *     empty when it failed
         * @param error why the call failed; null when it succeeded
         */
        void ended(List<String> jobIds, Throwable error);
    }

    /** The end of an attempt that {@link #processStarting} saw begin. */
    @FunctionalInterface
    interface Processing {
        /** Does nothing. */
        Processing NONE = error -> {
        };

        /**
         * The processor returned or threw; called on the processor's thread, before the outcome is
         * stored.
         *
         * @param error what the processor threw; null when it returned
         */
        void ended(Throwable error);
    }

    /** How an attempt ended. */
    enum Outcome {
        /** The job completed. */
        COMPLETED,
        /** The attempt failed and the job will run again (after its backoff). */
        RETRYING,
        /** The job failed for good. */
        FAILED
    }

    /**
     * A job was added (not called for a custom id that already existed).
     *
     * @param queue the queue name
     * @param jobId the new job's id
     * @param jobName the job's name
     */
    default void jobAdded(String queue, String jobId, String jobName) {
    }

    /**
     * An add call is about to send its jobs; called on the adding thread, once per call ({@code
     * Queue.add}, {@code addAsync}, {@code addAndAwait}: one job; {@code addBulk}: all of them).
     * Headers put into {@code headers} are stored with every job of the call (one job field, written
     * by the add's script) and handed to {@link #processStarting} for each attempt of each job. A
     * job scheduler's upsert calls it too (one job: the scheduler's name for its jobs); its headers
     * are stored with the scheduler and carried by every iteration it makes.
     *
     * @param queue the queue name
     * @param jobName the name of the call's first job
     * @param jobCount how many jobs the call adds (1 for a single add)
     * @param bulk whether the call is a bulk add (even of one job)
     * @param headers where to put the headers to store; shared by every instrumentation of the call
     * @return what to call when the add ended; {@link Adding#NONE} by default
     */
    default Adding addStarting(String queue, String jobName, int jobCount, boolean bulk, Map<String, String> headers) {
        return Adding.NONE;
    }

    /**
     * A worker is about to run the processor for an attempt of {@code job}; called on the thread
     * that runs the processor, which keeps what this opens current until {@link Processing#ended}.
     *
     * @param queue the queue name
     * @param job the job as taken
     * @param headers the headers stored with the job when it was added (empty when none)
     * @return what to call when the processor returned or threw; {@link Processing#NONE} by default
     */
    default Processing processStarting(String queue, Job<?> job, Map<String, String> headers) {
        return Processing.NONE;
    }

    /**
     * A worker took a job and is about to run it.
     *
     * @param queue the queue name
     * @param job the job as taken
     * @param waited from when the job was ready to run (added, plus its delay) to when it was
     *     taken, by the jobs' timestamps; empty when they do not tell (a retried job, a re-run
     *     of a recovered stalled job or of a job handed back at close)
     */
    default void jobStarted(String queue, Job<?> job, Optional<Duration> waited) {
    }

    /**
     * An attempt ended and its outcome is stored.
     *
     * @param queue the queue name
     * @param job the job, with the attempt that just ended counted
     * @param outcome completed, retrying or failed for good
     * @param duration from when the attempt started to when the worker recorded its end
     * @param error the attempt's error; null when it completed
     */
    default void jobFinished(String queue, Job<?> job, Outcome outcome, Duration duration, Throwable error) {
    }

    /**
     * A worker started taking jobs.
     *
     * @param queue the queue name
     * @param worker the worker's name
     */
    default void workerStarted(String queue, String worker) {
    }

    /**
     * The pool a worker created to run its processors (one thread per unit of concurrency), handed
     * over once, right after {@link #workerStarted}, so that it can be measured (e.g. with
     * Micrometer's {@code ExecutorServiceMetrics}). Only a pool the worker owns: an executor given
     * to {@code Worker.Builder.executor} is the application's to measure, and is not handed over.
     * Read its state only: never submit to it nor shut it down; the worker shuts it down when it
     * closes, before {@link #workerStopped}.
     *
     * @param queue the queue name
     * @param worker the worker's name
     * @param pool the worker's pool (a {@code ThreadPoolExecutor})
     */
    default void workerPool(String queue, String worker, ExecutorService pool) {
    }

    /**
     * A worker closed.
     *
     * @param queue the queue name
     * @param worker the worker's name
     */
    default void workerStopped(String queue, String worker) {
    }

    /**
     * A worker lost the lock of a job it was running (another worker may run it again).
     *
     * @param queue the queue name
     * @param job the job
     */
    default void lockLost(String queue, Job<?> job) {
    }

    /**
     * A worker found a stalled job (its worker died or lost its lock) and put it back to run.
     *
     * @param queue the queue name
     * @param jobId the job's id
     */
    default void stalledRecovered(String queue, String jobId) {
    }
}
