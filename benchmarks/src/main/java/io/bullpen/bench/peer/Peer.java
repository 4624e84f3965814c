package io.bullpen.bench.peer;

import io.bullpen.bench.BenchContext;

/** A system compared in the benchmark. */
public interface Peer {
    /** @return its name on the command line: bullpen, bullmq, redisson */
    String name();

    /** @return its name in the table */
    String title();

    /**
     * @return true when its drivers offer {@link PeerDriver#flowControl()} (groups, wake-ups):
     *         Bullpen only; the workloads that need it show n/a for the others without starting them
     */
    default boolean hasFlowControl() {
        return false;
    }

    /**
     * Connects a driver for one workload run and warms it up (JIT, script cache, connections).
     *
     * @param ctx the benchmark's Redis
     * @param workload the workload about to run
     * @return the driver; close it after the run
     * @throws Exception when the peer cannot start
     */
    PeerDriver open(BenchContext ctx, String workload) throws Exception;
}
