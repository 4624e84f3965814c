package io.bullpen.bench.peer;

import java.time.Duration;
import java.util.List;

/**
 * The operations the workloads are made of, done by one peer. Jobs are no-ops whose data is a
 * small JSON object ({@code {"n": i}}) with default options. Times are measured by the driver,
 * in the process that does the work. Every call returns when the work is done.
 */
public interface PeerDriver extends AutoCloseable {
    /** @return the process doing the client's work (this one, or a child), for its CPU time */
    long clientPid();

    /**
     * Adds ready jobs in bulk, for {@link #process} to take.
     *
     * @param queue the queue
     * @param jobs how many
     * @throws Exception on failure
     */
    void prefill(String queue, int jobs) throws Exception;

    /**
     * Starts consumers on a queue of pre-added jobs and waits until all completed; then stops them.
     *
     * @param queue the queue
     * @param jobs how many jobs it holds
     * @param concurrency jobs at once
     * @return seconds from the first job's start to the last one's completion
     * @throws Exception on failure or after 10 minutes
     */
    double process(String queue, int jobs, int concurrency) throws Exception;

    /**
     * @param queue the queue
     * @param jobs how many, added one call at a time from one thread
     * @return seconds taken
     * @throws Exception on failure
     */
    double addOneAtATime(String queue, int jobs) throws Exception;

    /**
     * Adds jobs one call at a time from several producers at once: Java peers from that many
     * threads, a Node peer from that many concurrent async loops.
     *
     * @param queue the queue
     * @param jobs how many in all, split evenly between the producers
     * @param producers how many producers
     * @return seconds from the start of all producers to the last add's return
     * @throws Exception on failure; {@link UnsupportedOperationException} when the peer has no such pass
     */
    default double addConcurrently(String queue, int jobs, int producers) throws Exception {
        throw new UnsupportedOperationException("no concurrent producers");
    }

    /**
     * The cheapest round trip the producer path can make: a GET of a key that does not exist, one
     * call at a time from one caller, on the client (and connections) the queue's adds use. No add
     * from one caller can complete faster than this, nor cost Redis less CPU.
     *
     * @param queue the queue whose client sends the calls
     * @param calls how many
     * @return seconds taken
     * @throws Exception on failure; {@link UnsupportedOperationException} when the peer has no such pass
     */
    default double roundTrips(String queue, int calls) throws Exception {
        throw new UnsupportedOperationException("no round trips");
    }

    /**
     * @param queue the queue
     * @param jobs how many
     * @param chunk jobs per bulk call
     * @return seconds taken
     * @throws Exception on failure
     */
    double addBulk(String queue, int jobs, int chunk) throws Exception;

    /**
     * Fills the queue's event stream to its cap and removes the jobs again, so that memory measured
     * afterwards is the jobs' own.
     *
     * @param queue the queue
     * @return false when the peer keeps no event stream
     * @throws Exception on failure
     */
    boolean saturateEvents(String queue) throws Exception;

    /** @return true when finished jobs stay in Redis by default (a "completed" state) */
    boolean retainsCompleted();

    /**
     * Starts consumers that note each job's lateness: its start time minus its due time.
     *
     * @param queue the queue
     * @param concurrency jobs at once
     * @throws Exception on failure
     */
    void startConsumers(String queue, int concurrency) throws Exception;

    /**
     * @param total jobs the consumers must have started since {@link #startConsumers}
     * @param timeout how long to wait
     * @return the first {@code total} latenesses in milliseconds
     * @throws Exception on failure or timeout
     */
    List<Long> awaitConsumed(int total, Duration timeout) throws Exception;

    /**
     * Whether every job of the queue that is due has been taken by a consumer, as Redis shows it:
     * for a peer whose consumers can lose what they took, the sign that a batch was delivered
     * even though fewer jobs were counted than were added.
     *
     * @param queue the queue
     * @return false when the peer cannot tell (the default: wait for every job to be counted)
     * @throws Exception on a Redis error
     */
    default boolean allDueTaken(String queue) throws Exception {
        return false;
    }

    /**
     * Stops the consumers.
     *
     * @throws Exception on failure
     */
    void stopConsumers() throws Exception;

    /**
     * Runs a producer in another process that adds jobs due uniformly over {@code spreadMs}, the
     * first {@code leadMs} after it connected, and returns when it exited.
     *
     * @param queue the queue
     * @param jobs how many
     * @param leadMs from the producer's start to the first due time
     * @param spreadMs the span of the due times
     * @throws Exception when the producer fails
     */
    void produceDelayedElsewhere(String queue, int jobs, long leadMs, long spreadMs) throws Exception;

    /**
     * Adds jobs delayed by an hour, in bulk where the peer has a bulk call.
     *
     * @param queue the queue
     * @param jobs how many
     * @param chunk jobs per call (or in flight)
     * @return seconds taken
     * @throws Exception on failure
     */
    double addFar(String queue, int jobs, int chunk) throws Exception;

    /**
     * Adds jobs due uniformly over {@code spreadMs}, the first {@code leadMs} from now, in this process.
     *
     * @param queue the queue
     * @param jobs how many
     * @param leadMs time to the first due time
     * @param spreadMs the span of the due times
     * @throws Exception on failure
     */
    void addNear(String queue, int jobs, long leadMs, long spreadMs) throws Exception;

    /**
     * Processes pre-added jobs ({@link #prefill}) with {@code workers} workers at {@code concurrency}
     * each under the peer's own rate limiter ({@code max} starts per {@code perMs}), noting when
     * each job started; returns when all completed and the workers are closed.
     *
     * @param queue the queue
     * @param jobs how many it holds
     * @param workers how many workers
     * @param concurrency each worker's concurrency
     * @param max the limit's starts per window
     * @param perMs the limit's window
     * @return the start times
     * @throws Exception on failure; {@link UnsupportedOperationException} when the peer has no limiter
     */
    default Starts processRateLimited(String queue, int jobs, int workers, int concurrency, int max, long perMs)
            throws Exception {
        throw new UnsupportedOperationException("no rate limiter");
    }

    /**
     * Processes pre-added jobs ({@link #prefill}) with {@code workers} workers at {@code concurrency}
     * each, all started together, every job sleeping {@code jobMillis} in its processor; returns
     * when all completed and the workers are closed.
     *
     * @param queue the queue
     * @param jobs how many it holds
     * @param workers how many workers
     * @param concurrency each worker's concurrency
     * @param jobMillis how long each job's processor sleeps
     * @param takeAhead null for the worker's default; else the take-ahead to build every worker with
     * @return how many jobs each worker ran, and the time from the first start to the last completion
     * @throws Exception on failure; {@link UnsupportedOperationException} when the peer cannot
     *     run the pass (a take-ahead it has no setting for)
     */
    default Spread processSpread(String queue, int jobs, int workers, int concurrency, long jobMillis, Integer takeAhead)
            throws Exception {
        throw new UnsupportedOperationException("no spread pass");
    }

    /**
     * Runs flows of one parent and {@code children} children: a worker at {@code concurrency} on
     * the parents' queue and one on the children's (two workers on the one queue when both are
     * the same), started first; then {@code flows} flows added one call at a time from one
     * producer, each parent in {@code parentQueue} (name "parent") over children in
     * {@code childQueue} (name "child", returning their index); each parent reads its children's
     * values and the pass fails unless it saw all of them. Returns when every parent completed and
     * the workers are closed.
     *
     * @param parentQueue the parents' queue
     * @param childQueue the children's queue (may be the parents')
     * @param flows how many flows
     * @param children children per parent
     * @param concurrency each worker's concurrency
     * @return the time from the first add to the last parent's completion
     * @throws Exception on failure; {@link UnsupportedOperationException} when the peer has no flows
     */
    default ParentChildRun parentChild(String parentQueue, String childQueue, int flows, int children, int concurrency)
            throws Exception {
        throw new UnsupportedOperationException("no flows");
    }

    /**
     * Starts the {@code mixed} pass: a worker at {@code concurrency} on the queue (no-op
     * processor), then {@code producers} producers each adding one job at a time until the pass
     * is closed (Java peers: threads; a Node peer: concurrent async loops).
     *
     * @param queue the queue
     * @param producers how many producers
     * @param concurrency the worker's concurrency
     * @return the running pass; close it to stop producers and worker
     * @throws Exception on failure; {@link UnsupportedOperationException} when the peer has no such pass
     */
    default MixedPass startMixed(String queue, int producers, int concurrency) throws Exception {
        throw new UnsupportedOperationException("no mixed pass");
    }

    /**
     * Runs the {@code latency} pass: a worker at {@code concurrency} started and left idle for a
     * second, then {@code jobs} jobs added at {@code rate} per second on a fixed schedule (open
     * loop: a late producer sends what is due at once, it never slows the schedule down), each add
     * timed just before its call; returns when every job completed and the worker is closed.
     *
     * @param queue the queue
     * @param rate adds per second
     * @param jobs how many
     * @param concurrency the worker's concurrency
     * @return per job: the producer's lag, add to start, add to completion
     * @throws Exception on failure; {@link UnsupportedOperationException} when the peer has no such pass
     */
    default LatencyRun latency(String queue, int rate, int jobs, int concurrency) throws Exception {
        throw new UnsupportedOperationException("no latency pass");
    }

    /**
     * @return the flow-control operations only Bullpen has
     * @throws UnsupportedOperationException for the other peers
     */
    default FlowControl flowControl() {
        throw new UnsupportedOperationException("no groups or wake-ups to measure");
    }

    /** Stops the consumers, if any, and disconnects (a Node peer's process exits). */
    @Override
    void close();
}
