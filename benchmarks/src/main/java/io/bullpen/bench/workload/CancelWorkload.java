package io.bullpen.bench.workload;

import io.bullpen.CancelResult;
import io.bullpen.Job;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.bench.BenchContext;
import io.bullpen.bench.Metric;
import io.bullpen.bench.Workload;
import io.bullpen.bench.peer.Peer;
import io.bullpen.worker.Worker;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cancel, Bullpen only:
 * <ul>
 * <li>an active job whose processor sleeps; {@code Queue.cancel} from another client: time from
 *     the call to the processor seeing {@code ctx.isCancelled()} true (it is interrupted in its
 *     sleep), p50, p99 and max over {@value #TRIALS} trials (after {@value #WARM_UP} not counted).
 *     Each trial starts right after the previous cancel was applied, so its cancel lands just
 *     after a check of the worker's {@code CancelWatcher}: the figures sit near the worst case
 *     (one check interval, 500 ms, plus round trips), not at the average of a random moment;</li>
 * <li>{@value #TRIALS} waiting jobs cancelled: how many are failed when the call returns (the issue
 *     asks for all of them: removed in the same call).</li>
 * </ul>
 */
final class CancelWorkload implements Workload {
    static final int TRIALS = 20;
    static final int WARM_UP = 3;
    private static final Logger log = LoggerFactory.getLogger(CancelWorkload.class);

    private final Metric p50 = Metric.lower(name(), "active job: cancel -> isCancelled() p50 (ms)", 1);
    private final Metric p99 = Metric.lower(name(), "active job: cancel -> isCancelled() p99 (ms)", 1);
    private final Metric max = Metric.lower(name(), "active job: cancel -> isCancelled() max (ms)", 1);
    private final Metric waiting = Metric.higher(name(), "waiting jobs failed by the cancel call itself (of " + TRIALS + ")", 0);

    @Override
    public String name() {
        return "cancel";
    }

    @Override
    public List<Metric> metrics() {
        return List.of(p50, p99, max, waiting);
    }

    @Override
    public Map<Metric, Double> run(BenchContext ctx, Peer peer) throws Exception {
        if (!peer.name().equals("bullpen")) {
            return NotApplicable.all(metrics());
        }
        Config config = new Config();
        config.useSingleServer().setAddress(ctx.url());
        RedissonClient producer = Redisson.create(config);
        RedissonClient consumer = Redisson.create(config);
        Map<Metric, Double> values = new LinkedHashMap<>();
        SynchronousQueue<Long> started = new SynchronousQueue<>();
        SynchronousQueue<Long> seen = new SynchronousQueue<>();
        try (Worker<String, String> worker = Worker.builder(consumer, "cancel-bench", String.class)
                .processor(c -> {
                    started.put(System.nanoTime());
                    try {
                        Thread.sleep(60_000);
                    } catch (InterruptedException e) {
                        if (c.isCancelled()) {
                            seen.put(System.nanoTime());
                        }
                        throw e;
                    }
                    return "slept";
                }).build().start()) {
            Queue<String> queue = Queue.builder(producer, "cancel-bench", String.class).build();
            List<Long> micros = new ArrayList<>();
            for (int i = 0; i < WARM_UP + TRIALS; i++) {
                Job<String> job = queue.add("sleep", "x");
                if (started.poll(10, TimeUnit.SECONDS) == null) {
                    throw new IllegalStateException("the job did not start");
                }
                long t0 = System.nanoTime();
                CancelResult result = queue.cancel(job.id(), "bench");
                if (result != CancelResult.CANCEL_REQUESTED) {
                    throw new IllegalStateException("cancel of an active job answered " + result);
                }
                Long t1 = seen.poll(10, TimeUnit.SECONDS);
                if (t1 == null) {
                    throw new IllegalStateException("the processor never saw the cancel of job " + job.id());
                }
                if (i >= WARM_UP) {
                    micros.add((t1 - t0) / 1_000);
                }
            }
            values.put(p50, Percentiles.nearestRank(micros, 0.50) / 1e3);
            values.put(p99, Percentiles.nearestRank(micros, 0.99) / 1e3);
            values.put(max, Percentiles.nearestRank(micros, 1.0) / 1e3);
            log.info("cancel latencies (ms): {}", micros.stream().map(m -> m / 1000).toList());
        }
        Queue<String> idle = Queue.builder(producer, "cancel-bench-waiting", String.class).build();
        int failedInCall = 0;
        for (int i = 0; i < TRIALS; i++) {
            Job<String> job = idle.add("wait", "x");
            if (idle.cancel(job.id(), "bench") == CancelResult.CANCELLED_WAITING
                    && idle.getState(job.id()) == JobState.FAILED) {
                failedInCall++;
            }
        }
        values.put(waiting, (double) failedInCall);
        producer.shutdown();
        consumer.shutdown();
        return values;
    }
}
