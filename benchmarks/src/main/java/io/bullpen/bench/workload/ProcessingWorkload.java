package io.bullpen.bench.workload;

import io.bullpen.bench.BenchContext;
import io.bullpen.bench.Metric;
import io.bullpen.bench.Sizes;
import io.bullpen.bench.Workload;
import io.bullpen.bench.peer.Peer;
import io.bullpen.bench.peer.PeerDriver;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Workload 1: pre-added no-op jobs (50,000; 5,000 with --quick) processed at concurrency 1, 10
 * and 100, each on a queue of its own; jobs/s from the first job's start to the last one's
 * completion.
 */
final class ProcessingWorkload implements Workload {
    private static final int[] CONCURRENCY = {1, 10, 100};

    private final Sizes sizes;
    private final Map<Integer, Metric> metrics = new LinkedHashMap<>();

    ProcessingWorkload(Sizes sizes) {
        this.sizes = sizes;
        for (int c : CONCURRENCY) {
            metrics.put(c, Metric.higher(name(), "jobs/s, concurrency " + c, 0));
        }
    }

    @Override
    public String name() {
        return "processing";
    }

    @Override
    public List<Metric> metrics() {
        return List.copyOf(metrics.values());
    }

    @Override
    public Map<Metric, Double> run(BenchContext ctx, Peer peer) throws Exception {
        int jobs = sizes.processingJobs();
        Map<Metric, Double> values = new LinkedHashMap<>();
        try (PeerDriver driver = peer.open(ctx, name())) {
            for (int c : CONCURRENCY) {
                String queue = "processing-c" + c;
                driver.prefill(queue, jobs);
                values.put(metrics.get(c), jobs / driver.process(queue, jobs, c));
            }
        }
        return values;
    }
}
