package io.bullpen.bench.workload;

import io.bullpen.bench.BenchContext;
import io.bullpen.bench.Metric;
import io.bullpen.bench.Workload;
import io.bullpen.bench.peer.Peer;
import io.bullpen.bench.peer.PeerDriver;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code producers}: P producers each adding one job at a time (Bullpen: P threads calling
 * {@code queue.add}; BullMQ: P concurrent async loops awaiting {@code queue.add}, one Queue
 * object), for P = 1, 4, 16 and 64, each on its own queue after a warm-up of 20,000 adds (2,000
 * with --quick) from 16 producers and a discarded pass of as many adds at that P: jobs/s, and
 * per add the CPU time of redis-server (INFO cpu) and of the client process (the harness JVM for Bullpen, the Node process for BullMQ) over the pass.
 * 20,000 adds per pass (2,000 with --quick). Redisson: n/a.
 */
final class ProducersWorkload implements Workload {
    private static final Logger log = LoggerFactory.getLogger(ProducersWorkload.class);
    private static final int[] PRODUCERS = {1, 4, 16, 64};
    private static final int WARM_UP_PRODUCERS = 16;

    private final int jobs;
    private final int warmUpJobs;
    private final Map<String, Metric> metrics = new LinkedHashMap<>();

    ProducersWorkload(boolean quick) {
        this.jobs = quick ? 2_000 : 20_000;
        this.warmUpJobs = quick ? 2_000 : 20_000;
        for (int p : PRODUCERS) {
            metrics.put("rate" + p, Metric.higher(name(), "jobs/s, " + p + " producer" + (p == 1 ? "" : "s"), 0));
            metrics.put("redis" + p, Metric.lower(name(), "Redis CPU us/add, " + p + " producer" + (p == 1 ? "" : "s"), 1));
            metrics.put("client" + p, Metric.lower(name(), "client CPU us/add, " + p + " producer" + (p == 1 ? "" : "s"), 1));
        }
    }

    @Override
    public String name() {
        return "producers";
    }

    @Override
    public List<Metric> metrics() {
        return List.copyOf(metrics.values());
    }

    @Override
    public Map<Metric, Double> run(BenchContext ctx, Peer peer) throws Exception {
        if (!PassMeter.queuePeer(peer)) {
            return NotApplicable.all(metrics());
        }
        Map<Metric, Double> values = new LinkedHashMap<>();
        try (PeerDriver driver = peer.open(ctx, name())) {
            driver.addConcurrently("producers-warm", warmUpJobs, WARM_UP_PRODUCERS);
            for (int p : PRODUCERS) {
                // A discarded pass at this P first: a lone add (P = 1) takes another path than the
                // coalesced adds of the warm-up, and without it the JIT compiled during the pass.
                driver.addConcurrently("producers-warm-" + p, warmUpJobs, p);
                PassMeter meter = PassMeter.start(ctx, List.of(driver.clientPid()));
                double seconds = driver.addConcurrently("producers-" + p, jobs, p);
                PassMeter.Cost cost = meter.stop();
                values.put(metrics.get("rate" + p), jobs / seconds);
                values.put(metrics.get("redis" + p), cost.redisMicrosPer(jobs));
                values.put(metrics.get("client" + p), cost.clientMicrosPer(jobs));
                log.info("{}: {} producers: {} jobs/s, Redis {} us/add, client {} us/add", peer.title(), p,
                        Math.round(jobs / seconds), Math.round(cost.redisMicrosPer(jobs) * 10) / 10.0,
                        Math.round(cost.clientMicrosPer(jobs) * 10) / 10.0);
            }
        }
        return values;
    }
}
