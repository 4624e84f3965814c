package io.bullpen.bench.workload;

import io.bullpen.bench.BenchContext;
import io.bullpen.bench.Metric;
import io.bullpen.bench.Sizes;
import io.bullpen.bench.Workload;
import io.bullpen.bench.peer.Peer;
import io.bullpen.bench.peer.PeerDriver;
import io.bullpen.bench.redis.UsageWindow;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Workload 5, a large delayed set: with consumers running (concurrency 10),
 * <ol>
 * <li>10,000 jobs delayed by an hour are added;</li>
 * <li>5,000 jobs (2,000 with --quick) due over 2 s, the first 2 s from now, are added, and
 *     Redis CPU is measured from then until all ran:
 *     Redis CPU per promoted job at 10k pending;</li>
 * <li>jobs delayed by an hour are added up to 1,000,000 (100,000 with --quick), in bulk
 *     calls of 1,000 (Redisson: offers pipelined 1,000 at a time): the add rate;</li>
 * <li>after 3 s for Redis to settle (its dictionaries rehash incrementally after growth),
 *     step 2 again: Redis CPU per promoted job at 1M pending. It must not grow with the set.</li>
 * </ol>
 */
final class ScaleWorkload implements Workload {
    private static final Logger log = LoggerFactory.getLogger(ScaleWorkload.class);
    private static final int CONCURRENCY = 10;
    private static final long LEAD_MS = 2_000;
    private static final long SPREAD_MS = 2_000;
    private static final Duration SETTLE = Duration.ofSeconds(3);

    private final Sizes sizes;
    private final Metric addRate;
    private final Metric cpuSmall;
    private final Metric cpuLarge;

    ScaleWorkload(Sizes sizes) {
        this.sizes = sizes;
        this.addRate = Metric.higher(name(), "delayed jobs/s added, up to " + Sizes.shortCount(sizes.scaleJobs()) + " pending", 0);
        this.cpuSmall = Metric.lower(name(), "Redis CPU us/promoted job, " + Sizes.shortCount(sizes.scaleFirstStep()) + " pending", 1);
        this.cpuLarge = Metric.lower(name(), "Redis CPU us/promoted job, " + Sizes.shortCount(sizes.scaleJobs()) + " pending", 1);
    }

    @Override
    public String name() {
        return "scale";
    }

    @Override
    public List<Metric> metrics() {
        return List.of(addRate, cpuSmall, cpuLarge);
    }

    @Override
    public Map<Metric, Double> run(BenchContext ctx, Peer peer) throws Exception {
        Map<Metric, Double> values = new LinkedHashMap<>();
        int chunk = sizes.bulkChunk();
        try (PeerDriver driver = peer.open(ctx, name())) {
            driver.startConsumers("scale", CONCURRENCY);
            driver.addFar("scale", sizes.scaleFirstStep(), chunk);
            Thread.sleep(SETTLE.toMillis());
            values.put(cpuSmall, promotionCpu(ctx, driver, 1));
            int rest = sizes.scaleJobs() - sizes.scaleFirstStep();
            values.put(addRate, rest / driver.addFar("scale", rest, chunk));
            Thread.sleep(SETTLE.toMillis());
            values.put(cpuLarge, promotionCpu(ctx, driver, 2));
            driver.stopConsumers();
        }
        return values;
    }

    /** Adds a batch due soon and measures Redis CPU until the consumers ran all of it. */
    private double promotionCpu(BenchContext ctx, PeerDriver driver, int batch) throws Exception {
        int jobs = sizes.scalePromoted();
        long start = System.nanoTime();
        driver.addNear("scale", jobs, LEAD_MS, SPREAD_MS);
        long addMs = (System.nanoTime() - start) / 1_000_000;
        if (addMs > LEAD_MS) {
            log.warn("adding the batch took {} ms, longer than its {} ms lead: jobs that ran meanwhile are not measured", addMs, LEAD_MS);
        }
        UsageWindow window = UsageWindow.start(ctx.control(), ctx.redisPid(), driver.clientPid());
        awaitBatch(driver, batch * jobs);
        return window.stop().redisCpuNanos() / 1e3 / jobs;
    }

    /**
     * Waits until the consumers counted every job of the batch, or until Redis shows the whole
     * batch promoted and taken when a peer's consumers lose jobs (logged: a finding, not a pass).
     */
    private void awaitBatch(PeerDriver driver, int total) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMillis(LEAD_MS + SPREAD_MS).plus(Duration.ofMinutes(10)).toNanos();
        while (true) {
            try {
                driver.awaitConsumed(total, Duration.ofSeconds(10));
                return;
            } catch (Exception notYet) {
                if (driver.allDueTaken("scale")) {
                    log.warn("every due job was taken from Redis but the consumers counted fewer than {}: {}", total,
                            notYet.getMessage());
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
            }
        }
    }
}
