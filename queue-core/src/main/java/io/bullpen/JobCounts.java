package io.bullpen;

import java.util.Objects;

/**
 * How many jobs a queue holds in each state, read in one atomic step, and whether it is paused.
 *
 * @param waiting jobs in the wait list
 * @param active jobs being processed
 * @param delayed jobs waiting for their due time
 * @param prioritized ready jobs ordered by priority
 * @param completed completed jobs still kept
 * @param failed failed jobs still kept
 * @param paused whether the queue is paused (workers take no new jobs)
 * @param waitingChildren parent jobs of flows waiting for their children
 */
public record JobCounts(long waiting, long active, long delayed, long prioritized,
                        long completed, long failed, boolean paused, long waitingChildren) {

    /**
     * Counts of a queue without parent jobs waiting for children.
     *
     * @param waiting jobs in the wait list
     * @param active jobs being processed
     * @param delayed jobs waiting for their due time
     * @param prioritized ready jobs ordered by priority
     * @param completed completed jobs still kept
     * @param failed failed jobs still kept
     * @param paused whether the queue is paused
     */
    public JobCounts(long waiting, long active, long delayed, long prioritized, long completed, long failed,
                     boolean paused) {
        this(waiting, active, delayed, prioritized, completed, failed, paused, 0);
    }

    /**
     * The number of jobs the queue holds in all states.
     *
     * @return the sum of the seven counts
     */
    public long total() {
        return waiting + active + delayed + prioritized + completed + failed + waitingChildren;
    }

    /**
     * The count for one state.
     *
     * @param state a stored state
     * @return the number of jobs in it
     * @throws NullPointerException if {@code state} is null
     * @throws IllegalArgumentException for {@link JobState#UNKNOWN}, which is never counted
     */
    public long count(JobState state) {
        Objects.requireNonNull(state, "state must not be null");
        return switch (state) {
            case WAITING -> waiting;
            case ACTIVE -> active;
            case DELAYED -> delayed;
            case PRIORITIZED -> prioritized;
            case COMPLETED -> completed;
            case FAILED -> failed;
            case WAITING_CHILDREN -> waitingChildren;
            case UNKNOWN -> throw new IllegalArgumentException(
                    "job state unknown has no count: it means the job does not exist");
        };
    }
}
