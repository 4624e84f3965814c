package io.bullpen.worker;

import io.bullpen.Job;
import io.bullpen.flow.ChildFailure;
import io.bullpen.flow.ChildResult;
import io.bullpen.flow.FlowJob;
import java.util.List;
import java.util.Optional;
import java.time.Duration;
import java.time.Instant;

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

    /**
     * Stages new data for the job (a step job's progress): it is written when this attempt ends,
     * in the same script that ends it, whether it completes, fails (a retry starts from it) or
     * asks for a delay ({@link #delay}); the next attempt reads it. A crash before that leaves
     * the job's previous data. {@link #job()} still shows the data this attempt started with.
     * The last call wins.
     *
     * @param data the new data; serialized now (at most 512 KiB of JSON)
     * @throws IllegalArgumentException when the data cannot be serialized or is over the cap
     */
    void updateData(T data);

    /**
     * Ends this attempt, when the processor returns, by moving the job to delayed until
     * {@code when} with its staged data ({@link #updateData}), in one lock-checked script: the
     * attempt is not counted ({@code attemptsMade} unchanged), the return value is ignored, no
     * completed or failed event is emitted (a {@code delayed} one is). If the processor throws
     * instead, the failure wins. The last call wins.
     *
     * @param when when the job is due again (a time already past runs it again at once)
     * @throws IllegalArgumentException when {@code when} does not fit in epoch milliseconds
     * @throws UnsupportedOperationException for a job of a batch ({@link BatchProcessor})
     */
    void delayUntil(Instant when);

    /**
     * As {@link #delayUntil(Instant)}, due {@code delay} from now (the worker's clock).
     *
     * @param delay how long the job waits, {@code >= 0}
     * @throws IllegalArgumentException when the delay is negative
     * @throws UnsupportedOperationException for a job of a batch ({@link BatchProcessor})
     */
    void delay(Duration delay);

    /**
     * The children of this job when it is the parent of a flow: every child (read in pages
     * underneath) with its outcome, copied when it ended. For very large fan-outs prefer
     * {@link #childrenCount()} and {@code Queue#getChildren} (paged).
     *
     * @return the children, in child order ({@code <queue>:<id>}); empty for a job without children
     */
    default List<ChildResult> children() {
        return List.of();
    }

    /** @return how many children this job has (pending and ended); 0 for a job without children */
    default int childrenCount() {
        return 0;
    }

    /**
     * Stages children of this job (each with its own children, as in a flow; in any queues), each
     * edge with the policy {@link ChildFailure#FAIL_PARENT}: see {@link #addChildren(ChildFailure, FlowJob...)}.
     *
     * @param children the children
     * @throws IllegalArgumentException for a cycle (naming the jobs), data that cannot be serialized,
     *     or options flows do not support; nothing is staged
     */
    default void addChildren(FlowJob... children) {
        addChildren(ChildFailure.FAIL_PARENT, children);
    }

    /**
     * Stages children of this job: they are added when this attempt ends, in the same script that
     * ends it (a crash before adds none; after it, every child is recorded with this job and will
     * be created), if the processor returns; a throw drops them. Without {@link #waitForChildren()}
     * they do not hold the job (it completes, or waits for its delay, as it would); with it the
     * job runs again once they are done. Each child's end is copied to this job (see
     * {@link #children()}). A child with a custom id that exists already is not added again: this
     * job depends on it (and its outcome applies at once if it has ended). Options a child does
     * not set are filled in from the worker's default job options for its queue
     * ({@link Worker.Builder#defaultJobOptions}); the worker's instrumentations see the children of
     * one attempt as one bulk add in the attempt's context, whose trace headers every child carries.
     *
     * @param policy what this job does when one of these children fails for good
     * @param children the children
     * @throws IllegalArgumentException when a child is this job or one of its ancestors (a cycle:
     *     the message names the jobs and the path), for a cycle among the children, data that
     *     cannot be serialized, or options flows do not support; nothing is staged
     * @throws UnsupportedOperationException from a context that cannot add children
     */
    default void addChildren(ChildFailure policy, FlowJob... children) {
        throw new UnsupportedOperationException("this JobContext cannot add children");
    }

    /**
     * Ends this attempt, when the processor returns, with the job in {@code waiting-children}, the
     * children staged by {@link #addChildren} recorded in the same script: the attempt is not
     * counted ({@code attemptsMade} unchanged), the return value is ignored, and the processor
     * runs again (a new attempt, with the children's outcomes in {@link #children()}) once none
     * of its children is pending; at once when none is. If the processor throws instead, the
     * failure wins and the staged children are dropped. A cancelled job fails as cancelled. The
     * last of this and {@link #delay} wins.
     *
     * @throws UnsupportedOperationException from a context that cannot wait for children (a job
     *     of a batch: {@link BatchProcessor})
     */
    default void waitForChildren() {
        throw new UnsupportedOperationException("this JobContext cannot wait for children");
    }
}
