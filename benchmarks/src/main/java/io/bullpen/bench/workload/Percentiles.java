package io.bullpen.bench.workload;

import java.util.ArrayList;
import java.util.List;

/** Nearest-rank percentiles. */
final class Percentiles {
    private Percentiles() {
    }

    /**
     * @param values the sample, not empty
     * @param p a fraction in (0, 1]; 1 is the max
     * @return the smallest value with at least p of the sample at or below it
     */
    static long nearestRank(List<Long> values, double p) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no values");
        }
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(Long::compare);
        int rank = (int) Math.ceil(p * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }
}
