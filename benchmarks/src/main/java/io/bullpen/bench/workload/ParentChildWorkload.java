package io.bullpen.bench.workload;

import io.bullpen.bench.BenchContext;
import io.bullpen.bench.Metric;
import io.bullpen.bench.Workload;
import io.bullpen.bench.peer.ParentChildRun;
import io.bullpen.bench.peer.Peer;
import io.bullpen.bench.peer.PeerDriver;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code parent-child}: 1,000 flows (100 with --quick) of one parent and 10 children over two
 * queues, added one call at a time from one producer while a worker at concurrency 10 runs each
 * queue; each parent reads its children's values. Flows/s from the first add to the last
 * parent's completion; per flow over that window, Redis commands (INFO commandstats, the
 * harness's own calls left out), Redis CPU (INFO cpu: used_cpu_sys + used_cpu_user) and the
 * client process's CPU. A discarded pass of a fifth as many flows first, on other queues.
 *
 * <p>BullMQ: its {@code FlowProducer}, both queues under the prefix {@code {pc}}, one Redis
 * Cluster slot, as its flows require; its one figure fills both rows. Bullpen: "one slot" is
 * parents and children in one queue (every Bullpen queue is its own slot, so a flow over two
 * queues spans two), with two workers on it; "two slots" is two queues, one worker each.
 * Redisson: n/a.
 */
final class ParentChildWorkload implements Workload {
    private static final Logger log = LoggerFactory.getLogger(ParentChildWorkload.class);
    private static final int CHILDREN = 10;
    private static final int CONCURRENCY = 10;
    private static final List<String> LAYOUTS = List.of("one", "two");

    private final int flows;
    private final Map<String, Metric> metrics = new LinkedHashMap<>();

    ParentChildWorkload(boolean quick) {
        this.flows = quick ? 100 : 1_000;
        for (String layout : LAYOUTS) {
            metrics.put("rate" + layout, Metric.higher(name(), "flows/s, " + label(layout), 0));
        }
        for (String layout : LAYOUTS) {
            metrics.put("commands" + layout, Metric.lower(name(), "Redis commands/flow, " + label(layout), 1));
        }
        for (String layout : LAYOUTS) {
            metrics.put("redis" + layout, Metric.lower(name(), "Redis CPU us/flow, " + label(layout), 0));
        }
        for (String layout : LAYOUTS) {
            metrics.put("client" + layout, Metric.lower(name(), "client CPU us/flow, " + label(layout), 0));
        }
    }

    private static String label(String layout) {
        return layout.equals("one") ? "one slot" : "two slots (BullMQ: one)";
    }

    @Override
    public String name() {
        return "parent-child";
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
        boolean bullpen = peer.name().equals("bullpen");
        Map<Metric, Double> values = new LinkedHashMap<>();
        try (PeerDriver driver = peer.open(ctx, name())) {
            for (String layout : bullpen ? LAYOUTS : List.of("one")) {
                // Bullpen's one slot is one queue; BullMQ's two queues share its {pc} prefix's slot.
                boolean oneQueue = bullpen && layout.equals("one");
                driver.parentChild("pc-warm-p-" + layout, oneQueue ? "pc-warm-p-" + layout : "pc-warm-c-" + layout,
                        Math.max(20, flows / 5), CHILDREN, CONCURRENCY);
                String parents = "pc-parents-" + layout;
                String children = oneQueue ? parents : "pc-children-" + layout;
                PassMeter meter = PassMeter.start(ctx, List.of(driver.clientPid()));
                ParentChildRun run = driver.parentChild(parents, children, flows, CHILDREN, CONCURRENCY);
                PassMeter.Cost cost = meter.stop();
                List<String> rows = bullpen ? List.of(layout) : LAYOUTS;
                for (String row : rows) {
                    values.put(metrics.get("rate" + row), flows / run.seconds());
                    values.put(metrics.get("commands" + row), cost.commandsPer(flows));
                    values.put(metrics.get("redis" + row), cost.redisMicrosPer(flows));
                    values.put(metrics.get("client" + row), cost.clientMicrosPer(flows));
                }
                log.info("{} {} slot(s): {} flows/s, {} commands/flow, Redis {} us/flow, client {} us/flow; commands {}",
                        peer.title(), layout, Math.round(flows / run.seconds()), Math.round(10.0 * cost.commandsPer(flows)) / 10.0,
                        Math.round(cost.redisMicrosPer(flows)), Math.round(cost.clientMicrosPer(flows)), cost.calls());
            }
        }
        return values;
    }
}
