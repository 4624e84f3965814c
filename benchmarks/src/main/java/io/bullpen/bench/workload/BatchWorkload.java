package io.bullpen.bench.workload;

import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobSpec;
import io.bullpen.Queue;
import io.bullpen.bench.BenchContext;
import io.bullpen.bench.Metric;
import io.bullpen.bench.Workload;
import io.bullpen.bench.peer.Peer;
import io.bullpen.bench.redis.UsageWindow;
import io.bullpen.worker.JobBatch;
import io.bullpen.worker.JobBatchOptions;
import io.bullpen.worker.Worker;
import io.bullpen.worker.WorkerListener;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import io.bullpen.bench.peer.ClientSettings;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Batch processing, Bullpen only: 50,000 (quick: 5,000) no-op jobs added in bulk, then processed
 * by one worker at concurrency 4, with Bullpen's per-job processor and with batch processors of
 * size 1, 10 and 100 (concurrency 4 = 4 batches at once); jobs/s from the worker's start to the
 * last completion, and Redis CPU per job over the processing. Variants run in alternating rounds
 * (per-job, 1, 10, 100, twice) on fresh queues, each after the same warm-up pass.
 */
final class BatchWorkload implements Workload {
    private static final Logger log = LoggerFactory.getLogger(BatchWorkload.class);
    private static final int CONCURRENCY = 4;
    private static final int ROUNDS = 2;
    /** Batch sizes measured; 0 = the per-job processor. */
    private static final int[] VARIANTS = {0, 1, 10, 100};

    private final int jobs;
    private final Map<Integer, Metric> rate = new LinkedHashMap<>();
    private final Map<Integer, Metric> cpu = new LinkedHashMap<>();

    BatchWorkload(boolean quick) {
        this.jobs = quick ? 5_000 : 50_000;
        for (int v : VARIANTS) {
            rate.put(v, Metric.higher(name(), "jobs/s, " + label(v), 0));
            cpu.put(v, Metric.lower(name(), "Redis CPU us/job, " + label(v), 1));
        }
    }

    private static String label(int size) {
        return size == 0 ? "per-job processor" : "batch size " + size;
    }

    @Override
    public String name() {
        return "batch";
    }

    @Override
    public List<Metric> metrics() {
        List<Metric> all = new ArrayList<>(rate.values());
        all.addAll(cpu.values());
        return all;
    }

    private static RedissonClient connect(String url) {
        Config config = new Config();
        config.useSingleServer().setAddress(url);
        return Redisson.create(ClientSettings.apply(config));
    }

    @Override
    public Map<Metric, Double> run(BenchContext ctx, Peer peer) throws Exception {
        if (!peer.name().equals("bullpen")) {
            return NotApplicable.all(metrics());
        }
        RedissonClient producer = connect(ctx.url());
        RedissonClient consumer = connect(ctx.url());
        Map<Integer, double[]> sums = new LinkedHashMap<>();
        try {
            for (int v : VARIANTS) {
                measure(ctx, producer, consumer, "batch-warmup-" + v, v, Math.min(jobs, 5_000));
            }
            for (int round = 0; round < ROUNDS; round++) {
                for (int v : VARIANTS) {
                    double[] r = measure(ctx, producer, consumer, "batch-" + v + "-" + round, v, jobs);
                    double[] sum = sums.computeIfAbsent(v, k -> new double[2]);
                    sum[0] += r[0];
                    sum[1] += r[1];
                }
            }
        } finally {
            producer.shutdown();
            consumer.shutdown();
        }
        Map<Metric, Double> values = new LinkedHashMap<>();
        for (int v : VARIANTS) {
            double[] sum = sums.get(v);
            values.put(rate.get(v), ROUNDS * (double) jobs / (sum[0] / 1e9));
            values.put(cpu.get(v), sum[1] / 1e3 / (ROUNDS * (double) jobs));
        }
        return values;
    }

    /** @return processing wall time (ns) and Redis CPU (ns) */
    private double[] measure(BenchContext ctx, RedissonClient producer, RedissonClient consumer, String name,
                             int batchSize, int count) throws Exception {
        Queue<Integer> queue = Queue.builder(producer, name, Integer.class).build();
        List<JobSpec<Integer>> specs = new ArrayList<>(1_000);
        for (int i = 0; i < count; i++) {
            specs.add(JobSpec.of("noop", i, JobOptions.defaults()));
            if (specs.size() == 1_000 || i == count - 1) {
                queue.addBulk(specs);
                specs.clear();
            }
        }
        CountDownLatch done = new CountDownLatch(count);
        WorkerListener<Integer, Object> listener = new WorkerListener<>() {
            @Override
            public void onCompleted(Job<Integer> job, Object result) {
                done.countDown();
            }
        };
        Worker.Builder<Integer, Object> builder = Worker.builder(consumer, name, Integer.class).listener(listener)
                .concurrency(CONCURRENCY);
        Worker<Integer, Object> worker = batchSize == 0
                ? builder.<Object>processor(c -> c.job().data()).build()
                : builder.batchProcessor((JobBatch<Integer, Object> b) -> b.jobs().size())
                        .batch(JobBatchOptions.of(batchSize)).build();
        UsageWindow window = UsageWindow.start(ctx.control(), ctx.redisPid(), ProcessHandle.current().pid());
        long t0 = System.nanoTime();
        long wall;
        UsageWindow.Usage usage;
        try {
            worker.start();
            if (!done.await(10, TimeUnit.MINUTES)) {
                throw new IllegalStateException(name + ": " + done.getCount() + " job(s) did not complete");
            }
            wall = System.nanoTime() - t0;
            usage = window.stop();
        } finally {
            worker.close();
        }
        queue.obliterate(true);
        log.info("{}: {} jobs/s, Redis CPU {} us/job", name, String.format(Locale.ROOT, "%.0f", count / (wall / 1e9)),
                String.format(Locale.ROOT, "%.1f", usage.redisCpuNanos() / 1e3 / count));
        return new double[] {wall, usage.redisCpuNanos()};
    }
}
