package io.bullpen.bench.workload;

import io.bullpen.bench.BenchContext;
import io.bullpen.bench.Metric;
import io.bullpen.bench.Workload;
import io.bullpen.bench.peer.FlowControl;
import io.bullpen.bench.peer.Peer;
import io.bullpen.bench.peer.PeerDriver;
import io.bullpen.bench.redis.RedisControl;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wake-ups (issue 15), Bullpen only (BullMQ's rate-limited worker sleeps on a local timer and is
 * not woken; see the README):
 * <ul>
 * <li>an idle worker held back by a rate limit (one start per hour, used); the limit is removed:
 *     time from the call that removes it to the held-back job's start, p50 and p99 over 200 (20)
 *     trials (after 20 (5) not counted, for the JIT);</li>
 * <li>an idle worker held back at a global concurrency of 1 (a job on another worker holds the
 *     slot); that job returns: time from its return to the next job's start;</li>
 * <li>the Redis commands while a worker waits out a long limit for 35 s (2 s): INFO commandstats
 *     less the blocking wait (BZPOPMIN), the client library's keep-alive PINGs and the harness's
 *     own INFO/CONFIG calls; the names are logged.</li>
 * </ul>
 */
final class WakeUpWorkload implements Workload {
    private static final Logger log = LoggerFactory.getLogger(WakeUpWorkload.class);
    private static final Set<String> NOT_POLLING = Set.of("bzpopmin", "ping", "info", "config");

    private final FlowSizes sizes;
    private final Metric limitP50 = Metric.lower(name(), "limit removed -> next start p50 (ms)", 2);
    private final Metric limitP99 = Metric.lower(name(), "limit removed -> next start p99 (ms)", 2);
    private final Metric slotP50 = Metric.lower(name(), "slot freed -> next start p50 (ms)", 2);
    private final Metric slotP99 = Metric.lower(name(), "slot freed -> next start p99 (ms)", 2);
    private final Metric waitCommands;
    private final Metric blockingWaits;

    WakeUpWorkload(FlowSizes sizes) {
        this.sizes = sizes;
        long s = sizes.waitWindow().toSeconds();
        this.waitCommands = Metric.lower(name(), "Redis commands in " + s + " s waiting out a limit, besides the blocking wait", 0);
        this.blockingWaits = Metric.lower(name(), "blocking waits (BZPOPMIN) in those " + s + " s", 0);
    }

    /** Trials run first and not counted: the JIT has not seen these paths in the driver's warm-up. */
    private int warmUp() {
        return Math.max(5, sizes.wakeTrials() / 10);
    }

    private List<Long> measured(List<Long> all) {
        return all.subList(warmUp(), all.size());
    }

    @Override
    public String name() {
        return "wakeup";
    }

    @Override
    public List<Metric> metrics() {
        return List.of(limitP50, limitP99, slotP50, slotP99, waitCommands, blockingWaits);
    }

    @Override
    public Map<Metric, Double> run(BenchContext ctx, Peer peer) throws Exception {
        if (!peer.hasFlowControl()) {
            return NotApplicable.all(metrics());
        }
        Map<Metric, Double> values = new LinkedHashMap<>();
        try (PeerDriver driver = peer.open(ctx, name())) {
            FlowControl flow = driver.flowControl();
            List<Long> limit = measured(flow.wakeUpAfterLimitRemoved(warmUp() + sizes.wakeTrials()));
            values.put(limitP50, Percentiles.nearestRank(limit, 0.50) / 1e3);
            values.put(limitP99, Percentiles.nearestRank(limit, 0.99) / 1e3);
            List<Long> slot = measured(flow.wakeUpAfterSlotFreed(warmUp() + sizes.wakeTrials()));
            values.put(slotP50, Percentiles.nearestRank(slot, 0.50) / 1e3);
            values.put(slotP99, Percentiles.nearestRank(slot, 0.99) / 1e3);
            log.info("{}: slowest wake-ups (us), limit removed {}, slot freed {}", peer.title(), slowest(limit),
                    slowest(slot));

            RedisControl redis = ctx.control();
            AtomicReference<Map<String, Long>> calls = new AtomicReference<>();
            flow.whileWaitingOutALongLimit(() -> {
                redis.resetStats();
                Thread.sleep(sizes.waitWindow().toMillis());
                calls.set(new TreeMap<>(redis.commandCalls()));
            });
            // Redis 7 names subcommands "config|resetstat".
            long polling = calls.get().entrySet().stream().filter(e -> !NOT_POLLING.contains(e.getKey().split("\\|")[0]))
                    .mapToLong(Map.Entry::getValue).sum();
            values.put(waitCommands, (double) polling);
            values.put(blockingWaits, (double) calls.get().getOrDefault("bzpopmin", 0L));
            log.info("{}: commands while waiting out a limit for {} s: {}", peer.title(), sizes.waitWindow().toSeconds(),
                    calls.get());
        }
        return values;
    }

    /** The tail a p99 is read from: the 5 slowest, slowest first. */
    private static List<Long> slowest(List<Long> latencies) {
        return latencies.stream().sorted(java.util.Comparator.reverseOrder()).limit(5).toList();
    }
}
