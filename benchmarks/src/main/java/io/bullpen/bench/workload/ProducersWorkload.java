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
 *
 * <p>Beside them, after a discarded pass of each, the two bounds of the producer path on this
 * machine and client: the cheapest round trip (a GET of a key never written, one caller, on the
 * adds' client: no add from one caller can be faster or cost Redis less) and bulk adds of
 * {@value #BULK} from one producer (the fewest requests per job: no number of producers adding one
 * at a time can add faster than that, nor for less Redis CPU per job).
 */
final class ProducersWorkload implements Workload {
    private static final Logger log = LoggerFactory.getLogger(ProducersWorkload.class);
    private static final int[] PRODUCERS = {1, 4, 16, 64};
    private static final int WARM_UP_PRODUCERS = 16;
    static final int BULK = 100;

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
        metrics.put("tripRate", Metric.higher(name(), "bound: round trips/s (GET), 1 caller", 0));
        metrics.put("tripRedis", Metric.lower(name(), "bound: Redis CPU us/round trip, 1 caller", 1));
        metrics.put("tripClient", Metric.lower(name(), "bound: client CPU us/round trip, 1 caller", 1));
        metrics.put("bulkRate", Metric.higher(name(), "bound: jobs/s, addBulk of " + BULK + ", 1 producer", 0));
        metrics.put("bulkRedis", Metric.lower(name(), "bound: Redis CPU us/job, addBulk of " + BULK, 1));
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
            driver.roundTrips("producers-trips", warmUpJobs);
            PassMeter meter = PassMeter.start(ctx, List.of(driver.clientPid()));
            double seconds = driver.roundTrips("producers-trips", jobs);
            PassMeter.Cost cost = meter.stop();
            values.put(metrics.get("tripRate"), jobs / seconds);
            values.put(metrics.get("tripRedis"), cost.redisMicrosPer(jobs));
            values.put(metrics.get("tripClient"), cost.clientMicrosPer(jobs));
            log.info("{}: round trips: {}/s, Redis {} us, client {} us", peer.title(), Math.round(jobs / seconds),
                    Math.round(cost.redisMicrosPer(jobs) * 10) / 10.0, Math.round(cost.clientMicrosPer(jobs) * 10) / 10.0);
            driver.addBulk("producers-bulk-warm", warmUpJobs, BULK);
            meter = PassMeter.start(ctx, List.of(driver.clientPid()));
            seconds = driver.addBulk("producers-bulk", jobs, BULK);
            cost = meter.stop();
            values.put(metrics.get("bulkRate"), jobs / seconds);
            values.put(metrics.get("bulkRedis"), cost.redisMicrosPer(jobs));
            log.info("{}: addBulk of {}: {} jobs/s, Redis {} us/job", peer.title(), BULK, Math.round(jobs / seconds),
                    Math.round(cost.redisMicrosPer(jobs) * 10) / 10.0);
        }
        return values;
    }
}
