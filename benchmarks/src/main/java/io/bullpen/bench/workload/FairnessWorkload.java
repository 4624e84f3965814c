package io.bullpen.bench.workload;

import io.bullpen.bench.BenchContext;
import io.bullpen.bench.Metric;
import io.bullpen.bench.Workload;
import io.bullpen.bench.peer.FlowControl;
import io.bullpen.bench.peer.Peer;
import io.bullpen.bench.peer.PeerDriver;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fairness over groups, Bullpen only (groups are a BullMQ Pro feature): one group of
 * 10,000 (1,000) jobs is added, a worker at concurrency 10 starts, and 20 groups of 10 jobs each
 * are added right after. Each job takes 5 ms (2 ms). Figures, in ms from the worker's start:
 * when the last small group's last job finished (the target: within 2 s), the median over the
 * small groups, and when the big group finished. For contrast, the same jobs without groups
 * (plain FIFO): when the small jobs' last one finished.
 */
final class FairnessWorkload implements Workload {
    private static final Logger log = LoggerFactory.getLogger(FairnessWorkload.class);

    private final FlowSizes sizes;
    private final Metric smallMax = Metric.lower(name(), "last small group done (ms from start)", 0);
    private final Metric smallMedian = Metric.lower(name(), "small groups done, median (ms from start)", 0);
    private final Metric bigDone = Metric.lower(name(), "big group done (ms from start)", 0);
    private final Metric fifoSmallMax = Metric.lower(name(), "without groups (FIFO): last small job done (ms)", 0);

    FairnessWorkload(FlowSizes sizes) {
        this.sizes = sizes;
    }

    @Override
    public String name() {
        return "fairness";
    }

    @Override
    public List<Metric> metrics() {
        return List.of(smallMax, smallMedian, bigDone, fifoSmallMax);
    }

    @Override
    public Map<Metric, Double> run(BenchContext ctx, Peer peer) throws Exception {
        if (!peer.hasFlowControl()) {
            return NotApplicable.all(metrics());
        }
        Map<Metric, Double> values = new LinkedHashMap<>();
        try (PeerDriver driver = peer.open(ctx, name())) {
            FlowControl flow = driver.flowControl();
            Map<String, Long> grouped = flow.fairness(sizes.bigJobs(), sizes.smallGroups(), sizes.smallJobs(),
                    sizes.fairConcurrency(), sizes.fairWork(), true);
            List<Long> small = smallGroups(grouped);
            values.put(smallMax, (double) Percentiles.nearestRank(small, 1.0));
            values.put(smallMedian, (double) Percentiles.nearestRank(small, 0.5));
            values.put(bigDone, (double) grouped.get("big"));
            Map<String, Long> fifo = flow.fairness(sizes.bigJobs(), sizes.smallGroups(), sizes.smallJobs(),
                    sizes.fairConcurrency(), sizes.fairWork(), false);
            values.put(fifoSmallMax, (double) Percentiles.nearestRank(smallGroups(fifo), 1.0));
            log.info("{}: groups done (ms from start) with groups {}, without {}", peer.title(), grouped, fifo);
        }
        return values;
    }

    private List<Long> smallGroups(Map<String, Long> lastFinish) {
        List<Long> small = new ArrayList<>();
        lastFinish.forEach((group, ms) -> {
            if (!group.equals("big")) {
                small.add(ms);
            }
        });
        if (small.size() != sizes.smallGroups()) {
            throw new IllegalStateException("finished small groups " + small.size() + " of " + sizes.smallGroups());
        }
        return small;
    }
}
