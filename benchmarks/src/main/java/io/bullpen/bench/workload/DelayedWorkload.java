package io.bullpen.bench.workload;

import io.bullpen.bench.BenchContext;
import io.bullpen.bench.Metric;
import io.bullpen.bench.Sizes;
import io.bullpen.bench.Workload;
import io.bullpen.bench.peer.Peer;
import io.bullpen.bench.peer.PeerDriver;
import io.bullpen.bench.redis.UsageWindow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Workload 3: consumers (concurrency 10) run while a producer in another process adds 5,000
 * jobs due uniformly over 5 s (the first 1 s after it connected). Lateness = a job's start
 * minus its due time (Bullpen and BullMQ: timestamp + delay; Redisson: the due time carried in
 * the message), in ms at p50, p95, p99 and max; and Redis commands per delayed job over the
 * whole run (adding, promoting, taking, finishing; commands inside scripts included).
 */
final class DelayedWorkload implements Workload {
    private static final int CONCURRENCY = 10;
    private static final double[] PERCENTILES = {0.50, 0.95, 0.99, 1.0};

    private final Sizes sizes;
    private final List<Metric> lateness = new ArrayList<>();
    private final Metric commands;

    DelayedWorkload(Sizes sizes) {
        this.sizes = sizes;
        for (double p : PERCENTILES) {
            lateness.add(Metric.lower(name(), "lateness " + (p == 1.0 ? "max" : "p" + Math.round(p * 100)) + " (ms)", 0));
        }
        this.commands = Metric.lower(name(), "Redis commands/delayed job", 1);
    }

    @Override
    public String name() {
        return "delayed";
    }

    @Override
    public List<Metric> metrics() {
        List<Metric> all = new ArrayList<>(lateness);
        all.add(commands);
        return all;
    }

    @Override
    public Map<Metric, Double> run(BenchContext ctx, Peer peer) throws Exception {
        int jobs = sizes.delayedJobs();
        Map<Metric, Double> values = new LinkedHashMap<>();
        try (PeerDriver driver = peer.open(ctx, name())) {
            driver.startConsumers("delayed", CONCURRENCY);
            UsageWindow window = UsageWindow.start(ctx.control(), ctx.redisPid(), driver.clientPid());
            driver.produceDelayedElsewhere("delayed", jobs, sizes.delayedLeadMs(), sizes.delayedSpreadMs());
            List<Long> late = driver.awaitConsumed(jobs, Duration.ofMillis(sizes.delayedLeadMs() + sizes.delayedSpreadMs() + 60_000));
            UsageWindow.Usage usage = window.stop();
            driver.stopConsumers();
            for (int i = 0; i < PERCENTILES.length; i++) {
                values.put(lateness.get(i), (double) Percentiles.nearestRank(late, PERCENTILES[i]));
            }
            values.put(commands, (double) usage.commands() / jobs);
        }
        return values;
    }
}
