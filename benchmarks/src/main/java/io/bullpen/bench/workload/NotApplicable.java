package io.bullpen.bench.workload;

import io.bullpen.bench.Metric;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The values of a run for a peer that has no equivalent of a workload: n/a in every cell. */
final class NotApplicable {
    private NotApplicable() {
    }

    static Map<Metric, Double> all(List<Metric> metrics) {
        Map<Metric, Double> values = new LinkedHashMap<>();
        metrics.forEach(m -> values.put(m, Double.NaN));
        return values;
    }
}
