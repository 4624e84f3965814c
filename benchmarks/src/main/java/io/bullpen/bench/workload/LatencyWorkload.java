package io.bullpen.bench.workload;

import io.bullpen.bench.BenchContext;
import io.bullpen.bench.Metric;
import io.bullpen.bench.Workload;
import io.bullpen.bench.peer.LatencyRun;
import io.bullpen.bench.peer.Peer;
import io.bullpen.bench.peer.PeerDriver;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code latency}: jobs added at a fixed rate (500/s and 5,000/s, each on its own queue), open
 * loop, for 30 s (5 s with --quick, {@code --duration} sets it) after a ramp of 5 s (1 s) whose
 * adds are left out, to a worker at concurrency 10 that was idle before the first add: add to start and add to completion, p50/p99/max in ms
 * (the add's time taken just before its call, the start's inside the processor, one host
 * clock), and how far the producer fell behind its schedule (p99/max). Bullpen: one thread calling {@code addAsync} in this JVM; BullMQ:
 * {@code queue.add} without awaiting it, in a Node process other than the worker's. Redisson: n/a.
 */
final class LatencyWorkload implements Workload {
    private static final Logger log = LoggerFactory.getLogger(LatencyWorkload.class);
    private static final int[] RATES = {500, 5_000};
    private static final int CONCURRENCY = 10;

    private final EndToEndTimes times;
    private final Map<String, Metric> metrics = new LinkedHashMap<>();

    LatencyWorkload(EndToEndTimes times) {
        this.times = times;
        for (int rate : RATES) {
            String at = String.format(java.util.Locale.ROOT, "%,d/s", rate);
            for (String kind : List.of("start", "completed")) {
                for (String p : List.of("p50", "p99", "max")) {
                    metrics.put(kind + p + rate, Metric.lower(name(), "add to " + kind + " " + p + " (ms), " + at, 2));
                }
            }
            metrics.put("lagp99" + rate, Metric.lower(name(), "producer behind schedule p99 (ms), " + at, 2));
            metrics.put("lagmax" + rate, Metric.lower(name(), "producer behind schedule max (ms), " + at, 2));
        }
    }

    @Override
    public String name() {
        return "latency";
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
            for (int rate : RATES) {
                int ramp = rate * times.rampSeconds();
                LatencyRun run = driver.latency("latency-" + rate, rate, ramp + rate * times.latencySeconds(), CONCURRENCY);
                Map<String, long[]> series = Map.of("start", run.startMicros(), "completed", run.completedMicros(),
                        "lag", run.lagMicros());
                for (Map.Entry<String, long[]> e : series.entrySet()) {
                    List<Long> measured = tail(e.getValue(), ramp);
                    for (String p : e.getKey().equals("lag") ? List.of("p99", "max") : List.of("p50", "p99", "max")) {
                        double fraction = p.equals("p50") ? 0.5 : p.equals("p99") ? 0.99 : 1.0;
                        values.put(metrics.get(e.getKey() + p + rate), Percentiles.nearestRank(measured, fraction) / 1e3);
                    }
                }
                log.info("{}: {}/s: add to start p50 {} p99 {} max {} ms; add to completed p50 {} p99 {} max {} ms; "
                                + "producer behind p99 {} max {} ms", peer.title(), rate,
                        values.get(metrics.get("startp50" + rate)), values.get(metrics.get("startp99" + rate)),
                        values.get(metrics.get("startmax" + rate)), values.get(metrics.get("completedp50" + rate)),
                        values.get(metrics.get("completedp99" + rate)), values.get(metrics.get("completedmax" + rate)),
                        values.get(metrics.get("lagp99" + rate)), values.get(metrics.get("lagmax" + rate)));
            }
        }
        return values;
    }

    private static List<Long> tail(long[] values, int from) {
        List<Long> list = new ArrayList<>(values.length - from);
        for (int i = from; i < values.length; i++) {
            list.add(values[i]);
        }
        return list;
    }
}
