package io.bullpen.bench.workload;

import io.bullpen.bench.Metric;
import io.bullpen.bench.Sizes;
import io.bullpen.bench.Workload;
import java.util.List;

/** The workloads, in the order a full run does them. */
public final class Workloads {
    private Workloads() {
    }

    /**
     * @param sizes full or quick sizes
     * @return processing, adding, delayed, cost, scale
     */
    public static List<Workload> all(Sizes sizes) {
        return List.of(new ProcessingWorkload(sizes), new AddingWorkload(sizes), new DelayedWorkload(sizes),
                new CostWorkload(sizes), new ScaleWorkload(sizes));
    }

    /**
     * @param sizes full or quick sizes
     * @return every metric of every workload, in table order
     */
    public static List<Metric> allMetrics(Sizes sizes) {
        return all(sizes).stream().flatMap(w -> w.metrics().stream()).toList();
    }
}
