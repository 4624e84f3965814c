package io.bullpen.bench.peer;

import java.util.List;

/**
 * A running {@code mixed} pass: a worker processing while producers add one job at a time, until
 * closed. The workload samples {@link #progress()} to measure a steady window.
 */
public interface MixedPass extends AutoCloseable {
    /**
     * @return jobs added and jobs completed since the pass started
     * @throws Exception on failure (a producer or the worker failed)
     */
    Progress progress() throws Exception;

    /** @return the processes doing the client's work (producers and worker), for their CPU time */
    List<Long> clientPids();

    /** Stops the producers, then the worker. */
    @Override
    void close() throws Exception;

    /**
     * @param added jobs added so far
     * @param completed jobs completed so far
     */
    record Progress(long added, long completed) {
    }
}
