package io.bullpen.bench.peer;

import java.util.List;

/**
 * What a {@link PeerDriver#processSpread} pass measured.
 *
 * @param perWorker jobs each worker completed, in the order the workers were started
 * @param seconds from the first job's start to the last one's completion
 */
public record Spread(List<Integer> perWorker, double seconds) {
    /** @return the busiest worker's share of all jobs, in percent */
    public double busiestSharePercent() {
        int total = perWorker.stream().mapToInt(Integer::intValue).sum();
        int most = perWorker.stream().mapToInt(Integer::intValue).max().orElse(0);
        return total == 0 ? Double.NaN : 100.0 * most / total;
    }
}
