package io.bullpen.bench.workload;

import io.bullpen.bench.BenchContext;
import io.bullpen.bench.Metric;
import io.bullpen.bench.Workload;
import io.bullpen.bench.peer.Peer;
import io.bullpen.bench.peer.PeerDriver;
import io.bullpen.bench.peer.Starts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Limiter accuracy: 5,000 (1,000) pre-added jobs, a queue limit of 200 starts per
 * second, 4 workers at concurrency 50 each. Bullpen: {@code RateLimit.of(200, 1s)}; BullMQ: the
 * workers' {@code limiter: {max: 200, duration: 1000}}. Each job's start is noted twice: its
 * {@code processedOn} as the queue recorded it, and the processor's own clock when it was
 * called. Figures: the most starts in any 1 s window (sliding over the starts: every window that
 * begins at a start) by each of the two, and the mean rate between the first and the last start
 * by the processor's clock. A fixed window shows up as up to 2x the limit across a window edge.
 */
final class LimiterWorkload implements Workload {
    private static final Logger log = LoggerFactory.getLogger(LimiterWorkload.class);
    private static final long PER_MS = 1_000;

    private final FlowSizes sizes;
    private final Metric byProcessedOn;
    private final Metric byProcessor;
    private final Metric meanRate;

    LimiterWorkload(FlowSizes sizes) {
        this.sizes = sizes;
        String limit = "limit " + sizes.limiterMax() + "/s";
        this.byProcessedOn = Metric.lower(name(), "max starts in any 1 s, by processedOn (" + limit + ")", 0);
        this.byProcessor = Metric.lower(name(), "max starts in any 1 s, by the processor's clock (" + limit + ")", 0);
        this.meanRate = Metric.higher(name(), "mean start rate, jobs/s (" + limit + ")", 1);
    }

    @Override
    public String name() {
        return "limiter";
    }

    @Override
    public List<Metric> metrics() {
        return List.of(byProcessedOn, byProcessor, meanRate);
    }

    @Override
    public Map<Metric, Double> run(BenchContext ctx, Peer peer) throws Exception {
        Map<Metric, Double> values = new LinkedHashMap<>();
        try (PeerDriver driver = peer.open(ctx, name())) {
            driver.prefill("limited", sizes.limiterJobs());
            Starts starts;
            try {
                starts = driver.processRateLimited("limited", sizes.limiterJobs(), sizes.limiterWorkers(),
                        sizes.limiterConcurrency(), sizes.limiterMax(), PER_MS);
            } catch (UnsupportedOperationException e) {
                return NotApplicable.all(metrics());
            }
            List<Long> processedOn = new ArrayList<>(starts.processedOnMs());
            processedOn.removeIf(t -> t < 0);
            List<Long> processor = new ArrayList<>(starts.processorMicros());
            values.put(byProcessedOn, processedOn.size() < starts.processedOnMs().size() ? Double.NaN
                    : (double) maxInWindow(processedOn, PER_MS));
            values.put(byProcessor, (double) maxInWindow(processor, PER_MS * 1_000));
            processor.sort(Long::compare);
            double span = (processor.get(processor.size() - 1) - processor.get(0)) / 1e6;
            values.put(meanRate, (processor.size() - 1) / span);
            log.info("{}: {} starts over {} s; max in 1 s: {} by processedOn, {} by the processor's clock"
                            + " (that window begins {} ms after the first start); starts per 100 ms by the processor's clock: {}",
                    peer.title(), processor.size(), String.format("%.2f", span), values.get(byProcessedOn),
                    values.get(byProcessor), (densest(processor, PER_MS * 1_000) - processor.get(0)) / 1_000,
                    histogram(processor, 100_000));
        }
        return values;
    }

    /** @return where the densest window of {@link #maxInWindow} begins */
    static long densest(List<Long> sorted, long window) {
        int best = 0;
        long at = sorted.get(0);
        for (int i = 0, end = 0; i < sorted.size(); i++) {
            while (end < sorted.size() && sorted.get(end) < sorted.get(i) + window) {
                end++;
            }
            if (end - i > best) {
                best = end - i;
                at = sorted.get(i);
            }
        }
        return at;
    }

    /** @return starts per bucket of {@code width} from the first start, for the log */
    static List<Integer> histogram(List<Long> sorted, long width) {
        List<Integer> counts = new ArrayList<>();
        for (long t : sorted) {
            int bucket = (int) ((t - sorted.get(0)) / width);
            while (counts.size() <= bucket) {
                counts.add(0);
            }
            counts.set(bucket, counts.get(bucket) + 1);
        }
        return counts;
    }

    /**
     * @param times start times, any order
     * @param window the window, in the times' unit
     * @return the most starts in a window {@code [t, t + window)} that begins at a start: the
     *         most in any window at all
     */
    static int maxInWindow(List<Long> times, long window) {
        List<Long> sorted = new ArrayList<>(times);
        sorted.sort(Long::compare);
        int best = 0;
        int end = 0;
        for (int i = 0; i < sorted.size(); i++) {
            while (end < sorted.size() && sorted.get(end) < sorted.get(i) + window) {
                end++;
            }
            best = Math.max(best, end - i);
        }
        return best;
    }
}
