package io.bullpen.bench.workload;

import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.Queue;
import io.bullpen.bench.BenchContext;
import io.bullpen.bench.Metric;
import io.bullpen.bench.Workload;
import io.bullpen.bench.peer.Peer;
import io.bullpen.worker.Worker;
import io.bullpen.worker.WorkerListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Awaiting a result, Bullpen only: one idle worker (concurrency 1) with a no-op
 * processor on its own client, one producer, one job at a time:
 * <ul>
 * <li>add + process: from {@code queue.add} to the worker's {@code onCompleted} listener (in the
 *     same process: the fastest a completion can be seen, with no notification through Redis);</li>
 * <li>addAndAwait: from the call to the future's completion (the add, the awaitJob registration,
 *     the finish, the completed event read by the awaiter's XREAD BLOCK, the completion executor).</li>
 * </ul>
 * p50 and p99 over 1,000 (quick: 100) trials each, after 100 (20) not counted (JIT).
 */
final class AwaitWorkload implements Workload {
    private final int trials;
    private final int warmUp;
    private final Metric plainP50 = Metric.lower(name(), "add + process (worker sees completion) p50 (ms)", 2);
    private final Metric plainP99 = Metric.lower(name(), "add + process (worker sees completion) p99 (ms)", 2);
    private final Metric awaitP50 = Metric.lower(name(), "addAndAwait round trip p50 (ms)", 2);
    private final Metric awaitP99 = Metric.lower(name(), "addAndAwait round trip p99 (ms)", 2);

    AwaitWorkload(boolean quick) {
        this.trials = quick ? 100 : 1_000;
        this.warmUp = quick ? 20 : 100;
    }

    @Override
    public String name() {
        return "await";
    }

    @Override
    public List<Metric> metrics() {
        return List.of(plainP50, plainP99, awaitP50, awaitP99);
    }

    private static RedissonClient connect(String url) {
        Config config = new Config();
        config.useSingleServer().setAddress(url);
        return Redisson.create(config);
    }

    @Override
    public Map<Metric, Double> run(BenchContext ctx, Peer peer) throws Exception {
        if (!peer.name().equals("bullpen")) {
            return NotApplicable.all(metrics());
        }
        RedissonClient producer = connect(ctx.url());
        RedissonClient consumer = connect(ctx.url());
        SynchronousQueue<String> completed = new SynchronousQueue<>();
        String queueName = "await-" + System.nanoTime();
        try (Worker<Integer, Integer> worker = Worker.builder(consumer, queueName, Integer.class)
                .processor(c -> c.job().data()).concurrency(1)
                .listener(new WorkerListener<>() {
                    @Override
                    public void onCompleted(Job<Integer> job, Integer result) {
                        try {
                            completed.offer(job.id(), 10, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                }).build().start()) {
            Queue<Integer> queue = Queue.builder(producer, queueName, Integer.class).build();
            List<Long> plain = new ArrayList<>();
            List<Long> awaited = new ArrayList<>();
            JobOptions options = JobOptions.defaults();
            for (int i = 0; i < warmUp + trials; i++) {
                long t0 = System.nanoTime();
                String id = queue.add("noop", i).id();
                if (!id.equals(completed.poll(10, TimeUnit.SECONDS))) {
                    throw new IllegalStateException("job " + id + " did not complete");
                }
                long t1 = System.nanoTime();
                if (i >= warmUp) {
                    plain.add((t1 - t0) / 1_000);
                }
            }
            // The listener still hands each completion over: taken after the measured interval.
            for (int i = 0; i < warmUp + trials; i++) {
                long t0 = System.nanoTime();
                queue.addAndAwait("noop", i, options, Integer.class, Duration.ofSeconds(10)).get(10, TimeUnit.SECONDS);
                long t1 = System.nanoTime();
                completed.poll(10, TimeUnit.SECONDS);
                if (i >= warmUp) {
                    awaited.add((t1 - t0) / 1_000);
                }
            }
            Map<Metric, Double> values = new LinkedHashMap<>();
            values.put(plainP50, Percentiles.nearestRank(plain, 0.50) / 1e3);
            values.put(plainP99, Percentiles.nearestRank(plain, 0.99) / 1e3);
            values.put(awaitP50, Percentiles.nearestRank(awaited, 0.50) / 1e3);
            values.put(awaitP99, Percentiles.nearestRank(awaited, 0.99) / 1e3);
            return values;
        } finally {
            producer.shutdown();
            consumer.shutdown();
        }
    }
}
