package io.bullpen.bench.workload;

import io.bullpen.bench.BenchContext;
import io.bullpen.bench.Metric;
import io.bullpen.bench.Workload;
import io.bullpen.bench.peer.MixedPass;
import io.bullpen.bench.peer.Peer;
import io.bullpen.bench.peer.PeerDriver;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code mixed}: P producers (1 and 16) adding one job at a time while a worker at concurrency 10
 * processes, each P on its own queue. After a ramp (5 s), a window of 60 s (5 s with --quick,
 * {@code --duration} sets it): jobs completed per second (the end-to-end rate), jobs added per
 * second, and per completed job Redis CPU (INFO cpu) and the client's CPU (add and process: the
 * harness JVM for Bullpen; for BullMQ its two Node processes, the worker's and the producers').
 * Redisson: n/a.
 */
final class MixedWorkload implements Workload {
    private static final Logger log = LoggerFactory.getLogger(MixedWorkload.class);
    private static final int[] PRODUCERS = {1, 16};
    private static final int CONCURRENCY = 10;

    private final EndToEndTimes times;
    private final Map<String, Metric> metrics = new LinkedHashMap<>();

    MixedWorkload(EndToEndTimes times) {
        this.times = times;
        for (int p : PRODUCERS) {
            String producers = p + " producer" + (p == 1 ? "" : "s");
            metrics.put("rate" + p, Metric.higher(name(), "jobs/s end to end, " + producers, 0));
            metrics.put("adds" + p, Metric.higher(name(), "adds/s, " + producers, 0));
            metrics.put("redis" + p, Metric.lower(name(), "Redis CPU us/job (add + process), " + producers, 1));
            metrics.put("client" + p, Metric.lower(name(), "client CPU us/job (add + process), " + producers, 1));
        }
    }

    @Override
    public String name() {
        return "mixed";
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
            for (int p : PRODUCERS) {
                try (MixedPass pass = driver.startMixed("mixed-" + p, p, CONCURRENCY)) {
                    Thread.sleep(times.rampSeconds() * 1_000L);
                    PassMeter meter = PassMeter.start(ctx, pass.clientPids());
                    long start = System.nanoTime();
                    MixedPass.Progress before = pass.progress();
                    Thread.sleep(times.mixedSeconds() * 1_000L);
                    MixedPass.Progress after = pass.progress();
                    double seconds = (System.nanoTime() - start) / 1e9;
                    PassMeter.Cost cost = meter.stop();
                    long completed = after.completed() - before.completed();
                    long added = after.added() - before.added();
                    if (completed == 0) {
                        throw new IllegalStateException("no job completed in " + times.mixedSeconds() + " s");
                    }
                    values.put(metrics.get("rate" + p), completed / seconds);
                    values.put(metrics.get("adds" + p), added / seconds);
                    values.put(metrics.get("redis" + p), cost.redisMicrosPer(completed));
                    values.put(metrics.get("client" + p), cost.clientMicrosPer(completed));
                    log.info("{}: {} producers: {} jobs/s completed, {} adds/s (backlog {} at the end), Redis {} us/job, "
                                    + "client {} us/job", peer.title(), p, Math.round(completed / seconds),
                            Math.round(added / seconds), after.added() - after.completed(),
                            Math.round(cost.redisMicrosPer(completed) * 10) / 10.0,
                            Math.round(cost.clientMicrosPer(completed) * 10) / 10.0);
                }
            }
        }
        return values;
    }
}
