package io.bullpen.bench;

import io.bullpen.bench.peer.Peer;
import java.util.List;
import java.util.Map;

/** One workload of the benchmark, run the same way for every peer. */
public interface Workload {
    /** @return its name on the command line: processing, adding, delayed, cost, scale */
    String name();

    /** @return the figures it produces, in table order */
    List<Metric> metrics();

    /**
     * Runs it once for one peer, on a flushed Redis.
     *
     * @param ctx the benchmark's Redis and sizes
     * @param peer the peer
     * @return a value per metric; {@code Double.NaN} where the peer has no equivalent
     * @throws Exception when the run fails
     */
    Map<Metric, Double> run(BenchContext ctx, Peer peer) throws Exception;
}
