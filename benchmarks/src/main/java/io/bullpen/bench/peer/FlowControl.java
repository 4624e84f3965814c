package io.bullpen.bench.peer;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The flow-control operations of the workloads that only Bullpen has: wake-ups,
 * fairness over groups, and cost with groups. Each call sets up its own queue and workers and
 * removes them when done.
 */
public interface FlowControl {
    /**
     * An idle worker is held back by a rate limit (one start per hour, already used); the limit
     * is removed and the time until the waiting job starts is measured.
     *
     * @param trials how many times
     * @return per trial, in us: {from before the call that removes the limit is sent, from when
     *     its answer came back (0 when the job started before that)} to the processor's start.
     *     The limit is lifted in between (when Redis ran the call): the first includes the
     *     caller's own send, the second leaves out the part of the wake-up that overlapped the answer
     * @throws Exception on failure
     */
    List<long[]> wakeUpAfterLimitRemoved(int trials) throws Exception;

    /**
     * An idle worker waits at the queue's global concurrency (1, held by a job running on another
     * worker); that job finishes and the time until the waiting job starts is measured.
     *
     * @param trials how many times
     * @return each trial's latency from the release of the running job to the next job's start, in us
     * @throws Exception on failure
     */
    List<Long> wakeUpAfterSlotFreed(int trials) throws Exception;

    /**
     * The floor under both wake-ups: one Redis round trip (a GET) through the client library the
     * peer's worker uses, after the same idle time as a wake-up trial. A wake-up takes at least one
     * such round trip after its trigger (a freed slot: the finishing worker's own call; a removed
     * limit: the worker's fetch after the blocking pop returns).
     *
     * @param trials how many times
     * @return each round trip's time, in us
     * @throws Exception on failure
     */
    List<Long> roundTripsAfterIdle(int trials) throws Exception;

    /**
     * Holds an idle worker back with a long rate limit (one start per hour, used), lets it settle,
     * then calls {@code during} while the worker waits.
     *
     * @param during the measurement, run while the worker waits
     * @throws Exception on failure, or when a job started that the limit should have held back
     */
    void whileWaitingOutALongLimit(Measurement during) throws Exception;

    /** What {@link #whileWaitingOutALongLimit} measures while the worker waits. */
    @FunctionalInterface
    interface Measurement {
        /** @throws Exception on failure */
        void run() throws Exception;
    }

    /**
     * One big group, then small groups added while it runs; one worker.
     *
     * @param bigJobs the big group's jobs, added first
     * @param smallGroups how many small groups, added after the worker started
     * @param smallJobs jobs per small group
     * @param concurrency the worker's concurrency
     * @param work how long each job takes (a sleep)
     * @param grouped false to add the same jobs without groups (FIFO), for contrast
     * @return when each group's last job finished, ms from the worker's start
     * @throws Exception on failure
     */
    Map<String, Long> fairness(int bigJobs, int smallGroups, int smallJobs, int concurrency, Duration work, boolean grouped)
            throws Exception;

    /**
     * Adds jobs one call at a time, spread round robin over {@code groups} groups (0: no group).
     *
     * @param queue the queue
     * @param jobs how many
     * @param groups how many groups, 0 for none
     * @throws Exception on failure
     */
    void addOneAtATime(String queue, int jobs, int groups) throws Exception;

    /**
     * Processes a queue's jobs with no-op processors and waits until all completed.
     *
     * @param queue the queue
     * @param jobs how many it holds
     * @param concurrency the worker's concurrency
     * @throws Exception on failure
     */
    void process(String queue, int jobs, int concurrency) throws Exception;
}
