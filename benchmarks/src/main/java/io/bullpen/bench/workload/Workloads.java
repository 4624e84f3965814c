package io.bullpen.bench.workload;

import io.bullpen.bench.Metric;
import io.bullpen.bench.Sizes;
import io.bullpen.bench.Workload;
import java.util.List;

/** The workloads, in the order a full run does them, and the flow-control ones run when named. */
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
     * The flow-control workloads: run only when named, not in a default run.
     *
     * @param quick small sizes
     * @return limiter, wakeup, fairness, groupcost
     */
    public static List<Workload> flow(boolean quick) {
        FlowSizes sizes = quick ? FlowSizes.quick() : FlowSizes.full();
        return List.of(new LimiterWorkload(sizes), new WakeUpWorkload(sizes), new FairnessWorkload(sizes),
                new GroupCostWorkload(sizes));
    }

    /**
     * @param sizes full or quick sizes
     * @param quick small sizes for the flow-control workloads
     * @return every workload, the default ones then the flow-control ones
     */
    public static List<Workload> known(Sizes sizes, boolean quick) {
        return known(sizes, quick, EndToEndTimes.of(quick, null));
    }

    /**
     * @param sizes full or quick sizes
     * @param quick small sizes for the flow-control workloads
     * @param times how long the end-to-end workloads run
     * @return every workload, the default ones then the ones run only when named
     */
    public static List<Workload> known(Sizes sizes, boolean quick, EndToEndTimes times) {
        List<Workload> all = new java.util.ArrayList<>(all(sizes));
        all.addAll(flow(quick));
        all.add(new CancelWorkload());
        all.add(new AwaitWorkload(quick));
        all.addAll(throughput(sizes, quick));
        all.addAll(endToEnd(times));
        return all;
    }

    /**
     * The end-to-end workloads: run only when named, or both with {@code e2e}.
     *
     * @param times how long they run
     * @return mixed, latency
     */
    public static List<Workload> endToEnd(EndToEndTimes times) {
        return List.of(new MixedWorkload(times), new LatencyWorkload(times));
    }

    /**
     * The throughput workloads (spread, functions, producers, parent-child, batch): run only when named, not in a default run.
     *
     * @param sizes full or quick sizes
     * @param quick small sizes
     * @return spread, functions, producers, parent-child, batch
     */
    public static List<Workload> throughput(Sizes sizes, boolean quick) {
        return List.of(new SpreadWorkload(sizes), new FunctionsWorkload(quick), new ProducersWorkload(quick),
                new ParentChildWorkload(quick), new BatchWorkload(quick));
    }

    /**
     * @param sizes full or quick sizes
     * @return every metric of every workload, in table order
     */
    public static List<Metric> allMetrics(Sizes sizes) {
        return all(sizes).stream().flatMap(w -> w.metrics().stream()).toList();
    }
}
