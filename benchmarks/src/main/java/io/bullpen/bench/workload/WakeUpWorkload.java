package io.bullpen.bench.workload;

import io.bullpen.bench.BenchContext;
import io.bullpen.bench.Metric;
import io.bullpen.bench.Workload;
import io.bullpen.bench.peer.FlowControl;
import io.bullpen.bench.peer.Peer;
import io.bullpen.bench.peer.PeerDriver;
import io.bullpen.bench.redis.MonitorCounter;
import io.bullpen.bench.redis.RedisControl;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wake-ups, Bullpen only (BullMQ's rate-limited worker sleeps on a local timer and is
 * not woken; see docs/PERFORMANCE.md):
 * <ul>
 * <li>an idle worker held back by a rate limit (one start per hour, used); the limit is removed:
 *     time to the held-back job's start, p50 and p99 over 500 (20) trials (after 50 (5) not
 *     counted, for the JIT), measured twice: from before the removing call is sent (includes the
 *     caller's own send and Redis's run of it), and from when its answer came back (the limit was
 *     lifted in between; 0 when the job started first);</li>
 * <li>an idle worker held back at a global concurrency of 1 (a job on another worker holds the
 *     slot); that job returns: time from its return to the next job's start;</li>
 * <li>the floor under a wake-up: one Redis round trip (a GET) through the same client library
 *     after the same 50 ms of idle time, p50 and p99 over as many trials; every wake-up takes at
 *     least one after its trigger;</li>
 * <li>the machine's own floor: one thread waking another parked on a queue (no Redis), p50 and
 *     p99 over as many trials, spaced like the wake-up trials. A wake-up crosses several such
 *     hand-offs (the blocking pop's client thread, the fetch thread, the client thread that takes
 *     the job, the processor thread) and two Redis round trips;</li>
 * <li>the Redis calls (commands clients send, seen with MONITOR; a script call is one) while a
 *     worker waits out a long limit for 35 s (2 s), besides the blocking wait (BZPOPMIN), the
 *     worker heartbeat (its liveness, one script call per 5 s whether the worker is limited or
 *     not: counted on its own) and the client library's keep-alive PINGs; the commands Redis ran
 *     (INFO commandstats, scripts' commands included) are logged.</li>
 * </ul>
 */
final class WakeUpWorkload implements Workload {
    private static final Logger log = LoggerFactory.getLogger(WakeUpWorkload.class);
    private static final Set<String> NOT_POLLING = Set.of("bzpopmin", "ping", MonitorCounter.PRESENCE_SCRIPT);

    private final FlowSizes sizes;
    private final Metric limitP50 = Metric.lower(name(), "limit removed (from sending the call) -> next start p50 (ms)", 2);
    private final Metric limitP99 = Metric.lower(name(), "limit removed (from sending the call) -> next start p99 (ms)", 2);
    private final Metric answeredP50 = Metric.lower(name(), "limit removed (from the call's answer) -> next start p50 (ms)", 2);
    private final Metric answeredP99 = Metric.lower(name(), "limit removed (from the call's answer) -> next start p99 (ms)", 2);
    private final Metric slotP50 = Metric.lower(name(), "slot freed -> next start p50 (ms)", 2);
    private final Metric slotP99 = Metric.lower(name(), "slot freed -> next start p99 (ms)", 2);
    private final Metric roundTripP50 = Metric.lower(name(), "machine floor: one Redis round trip p50 (ms), same client, same idle time", 2);
    private final Metric roundTripP99 = Metric.lower(name(), "machine floor: one Redis round trip p99 (ms), same client, same idle time", 2);
    private final Metric handOffP50 = Metric.lower(name(), "machine floor: one thread hand-off p50 (ms), no Redis", 2);
    private final Metric handOffP99 = Metric.lower(name(), "machine floor: one thread hand-off p99 (ms), no Redis", 2);
    private final Metric waitCommands;
    private final Metric heartbeats;
    private final Metric blockingWaits;

    WakeUpWorkload(FlowSizes sizes) {
        this.sizes = sizes;
        long s = sizes.waitWindow().toSeconds();
        this.waitCommands = Metric.lower(name(),
                "Redis calls in " + s + " s waiting out a limit, besides the blocking wait and the heartbeat", 0);
        this.heartbeats = Metric.lower(name(), "worker heartbeat calls in those " + s + " s (liveness, 1 per 5 s)", 0);
        this.blockingWaits = Metric.lower(name(), "blocking waits (BZPOPMIN) in those " + s + " s", 0);
    }

    /** Trials run first and not counted: the JIT has not seen these paths in the driver's warm-up. */
    private int warmUp() {
        return Math.max(5, sizes.wakeTrials() / 10);
    }

    private <T> List<T> measured(List<T> all) {
        return all.subList(warmUp(), all.size());
    }

    @Override
    public String name() {
        return "wakeup";
    }

    @Override
    public List<Metric> metrics() {
        return List.of(limitP50, limitP99, answeredP50, answeredP99, slotP50, slotP99, roundTripP50, roundTripP99,
                handOffP50, handOffP99,
                waitCommands, heartbeats, blockingWaits);
    }

    @Override
    public Map<Metric, Double> run(BenchContext ctx, Peer peer) throws Exception {
        if (!peer.hasFlowControl()) {
            return NotApplicable.all(metrics());
        }
        Map<Metric, Double> values = new LinkedHashMap<>();
        try (PeerDriver driver = peer.open(ctx, name())) {
            FlowControl flow = driver.flowControl();
            List<long[]> both = measured(flow.wakeUpAfterLimitRemoved(warmUp() + sizes.wakeTrials()));
            List<Long> limit = both.stream().map(t -> t[0]).toList();
            List<Long> answered = both.stream().map(t -> t[1]).toList();
            values.put(limitP50, Percentiles.nearestRank(limit, 0.50) / 1e3);
            values.put(limitP99, Percentiles.nearestRank(limit, 0.99) / 1e3);
            values.put(answeredP50, Percentiles.nearestRank(answered, 0.50) / 1e3);
            values.put(answeredP99, Percentiles.nearestRank(answered, 0.99) / 1e3);
            List<Long> slot = measured(flow.wakeUpAfterSlotFreed(warmUp() + sizes.wakeTrials()));
            values.put(slotP50, Percentiles.nearestRank(slot, 0.50) / 1e3);
            values.put(slotP99, Percentiles.nearestRank(slot, 0.99) / 1e3);
            List<Long> roundTrip = measured(flow.roundTripsAfterIdle(warmUp() + sizes.wakeTrials()));
            values.put(roundTripP50, Percentiles.nearestRank(roundTrip, 0.50) / 1e3);
            values.put(roundTripP99, Percentiles.nearestRank(roundTrip, 0.99) / 1e3);
            List<Long> handOff = measured(handOffs(warmUp() + sizes.wakeTrials()));
            values.put(handOffP50, Percentiles.nearestRank(handOff, 0.50) / 1e3);
            values.put(handOffP99, Percentiles.nearestRank(handOff, 0.99) / 1e3);
            log.info("{}: slowest wake-ups (us), limit removed {} (from the answer {}), slot freed {}, one round trip {}, "
                    + "one thread hand-off {}", peer.title(), slowest(limit), slowest(answered), slowest(slot),
                    slowest(roundTrip), slowest(handOff));

            RedisControl redis = ctx.control();
            AtomicReference<Map<String, Long>> commands = new AtomicReference<>();
            AtomicReference<Map<String, Long>> calls = new AtomicReference<>();
            flow.whileWaitingOutALongLimit(() -> {
                redis.resetStats();
                MonitorCounter monitor = MonitorCounter.start(ctx.port(), redis);
                Thread.sleep(sizes.waitWindow().toMillis());
                monitor.stop(redis);
                calls.set(monitor.clientCalls());
                commands.set(new TreeMap<>(redis.commandCalls()));
            });
            long polling = calls.get().entrySet().stream().filter(e -> !NOT_POLLING.contains(e.getKey()))
                    .mapToLong(Map.Entry::getValue).sum();
            values.put(waitCommands, (double) polling);
            values.put(heartbeats, (double) calls.get().getOrDefault(MonitorCounter.PRESENCE_SCRIPT, 0L));
            values.put(blockingWaits, (double) calls.get().getOrDefault("bzpopmin", 0L));
            log.info("{}: while waiting out a limit for {} s: calls sent {}; commands Redis ran (scripts' included) {}",
                    peer.title(), sizes.waitWindow().toSeconds(), calls.get(), commands.get());
        }
        return values;
    }

    /** One thread wakes another parked on a queue, {@code trials} times 20 ms apart: latencies in us. */
    private static List<Long> handOffs(int trials) throws InterruptedException {
        BlockingQueue<Long> in = new LinkedBlockingQueue<>();
        BlockingQueue<Long> out = new LinkedBlockingQueue<>();
        Thread relay = new Thread(() -> {
            try {
                while (true) {
                    in.take();
                    out.add(System.nanoTime());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "bench-hand-off");
        relay.setDaemon(true);
        relay.start();
        List<Long> latencies = new ArrayList<>();
        try {
            for (int i = 0; i < trials; i++) {
                Thread.sleep(20); // simulated idle time between trials, as in the wake-up trials
                long sent = System.nanoTime();
                in.add(sent);
                latencies.add((out.take() - sent) / 1_000);
            }
        } finally {
            relay.interrupt();
        }
        return latencies;
    }

    /** The tail a p99 is read from: the 5 slowest, slowest first. */
    private static List<Long> slowest(List<Long> latencies) {
        return latencies.stream().sorted(java.util.Comparator.reverseOrder()).limit(5).toList();
    }
}
