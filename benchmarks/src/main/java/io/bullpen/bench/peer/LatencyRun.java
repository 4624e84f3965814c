package io.bullpen.bench.peer;

/**
 * One pass of the {@code latency} workload: jobs added at a fixed rate, open loop, to an idle
 * worker. Index i is the i-th job sent; times in microseconds, all on one host clock.
 *
 * @param lagMicros how late each add call was made against its schedule (the producer falling behind)
 * @param startMicros from the time taken just before the add call to the processor's start
 * @param completedMicros from the time taken just before the add call to the worker's completion of the job
 */
public record LatencyRun(long[] lagMicros, long[] startMicros, long[] completedMicros) {
}
