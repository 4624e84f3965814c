package io.bullpen.bench.workload;

import io.bullpen.bench.BenchContext;
import io.bullpen.bench.Metric;
import io.bullpen.bench.Sizes;
import io.bullpen.bench.Workload;
import io.bullpen.bench.peer.Peer;
import io.bullpen.bench.peer.PeerDriver;
import io.bullpen.bench.peer.Spread;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code spread}: whether taking jobs ahead hoards them. 2,000 (1,000 with --quick)
 * pre-added jobs that sleep 1 ms, then as many that sleep 10 ms, each run by 2 workers at
 * concurrency 10 started together: the busiest worker's share of the jobs (50% is an even split)
 * and the time from the first start to the last completion. Bullpen runs each pass twice: with
 * the worker's default and with take-ahead off ({@code takeAhead(0)}; "n/a" on a Bullpen without
 * that setting). BullMQ runs at its defaults; it has no take-ahead setting (its "off" rows are
 * n/a). Redisson: n/a.
 */
final class SpreadWorkload implements Workload {
    private static final Logger log = LoggerFactory.getLogger(SpreadWorkload.class);
    private static final int WORKERS = 2;
    private static final int CONCURRENCY = 10;
    private static final long[] JOB_MILLIS = {1, 10};

    private final Sizes sizes;
    private final Map<String, Metric> metrics = new LinkedHashMap<>();

    SpreadWorkload(Sizes sizes) {
        this.sizes = sizes;
        for (long ms : JOB_MILLIS) {
            for (boolean off : new boolean[] {false, true}) {
                metrics.put(key("share", ms, off), Metric.lower(name(), "busiest worker's share %, " + ms + " ms jobs"
                        + variant(off), 1));
            }
            for (boolean off : new boolean[] {false, true}) {
                metrics.put(key("ms", ms, off), Metric.lower(name(), "first start to last completion ms, " + ms
                        + " ms jobs" + variant(off), 0));
            }
        }
    }

    private static String variant(boolean off) {
        return off ? ", take-ahead off" : ", default";
    }

    private static String key(String what, long ms, boolean off) {
        return what + ms + off;
    }

    @Override
    public String name() {
        return "spread";
    }

    @Override
    public List<Metric> metrics() {
        return List.copyOf(metrics.values());
    }

    @Override
    public Map<Metric, Double> run(BenchContext ctx, Peer peer) throws Exception {
        int jobs = sizes.spreadJobs();
        Map<Metric, Double> values = new LinkedHashMap<>();
        metrics.values().forEach(m -> values.put(m, Double.NaN));
        try (PeerDriver driver = peer.open(ctx, name())) {
            for (long ms : JOB_MILLIS) {
                for (boolean off : new boolean[] {false, true}) {
                    String queue = "spread-" + ms + "ms" + (off ? "-off" : "");
                    driver.prefill(queue, jobs);
                    Spread spread;
                    try {
                        spread = driver.processSpread(queue, jobs, WORKERS, CONCURRENCY, ms, off ? 0 : null);
                    } catch (UnsupportedOperationException e) {
                        log.info("{}: {} ms jobs{}: n/a ({})", peer.title(), ms, variant(off), e.getMessage());
                        continue;
                    }
                    log.info("{}: {} ms jobs{}: per worker {}, {} s", peer.title(), ms, variant(off), spread.perWorker(),
                            spread.seconds());
                    values.put(metrics.get(key("share", ms, off)), spread.busiestSharePercent());
                    values.put(metrics.get(key("ms", ms, off)), spread.seconds() * 1e3);
                }
            }
        }
        return values;
    }
}
