package io.bullpen.bench.workload;

import io.bullpen.bench.BenchContext;
import io.bullpen.bench.Metric;
import io.bullpen.bench.Sizes;
import io.bullpen.bench.Workload;
import io.bullpen.bench.peer.Peer;
import io.bullpen.bench.peer.PeerDriver;
import java.util.List;
import java.util.Map;

/**
 * Workload 2: jobs added one call at a time from one thread (10,000), and in bulk calls of 1,000
 * (100,000); jobs/s. Default options; Redisson adds with RPUSH (add / addAll).
 */
final class AddingWorkload implements Workload {
    private final Sizes sizes;
    private final Metric one;
    private final Metric bulk;

    AddingWorkload(Sizes sizes) {
        this.sizes = sizes;
        this.one = Metric.higher(name(), "jobs/s, one at a time", 0);
        this.bulk = Metric.higher(name(), String.format("jobs/s, bulk of %,d", sizes.bulkChunk()), 0);
    }

    @Override
    public String name() {
        return "adding";
    }

    @Override
    public List<Metric> metrics() {
        return List.of(one, bulk);
    }

    @Override
    public Map<Metric, Double> run(BenchContext ctx, Peer peer) throws Exception {
        try (PeerDriver driver = peer.open(ctx, name())) {
            double oneRate = sizes.addOneJobs() / driver.addOneAtATime("adding-one", sizes.addOneJobs());
            double bulkRate = sizes.addBulkJobs() / driver.addBulk("adding-bulk", sizes.addBulkJobs(), sizes.bulkChunk());
            return Map.of(one, oneRate, bulk, bulkRate);
        }
    }
}
