package io.bullpen.bench.workload;

import io.bullpen.bench.BenchContext;
import io.bullpen.bench.Metric;
import io.bullpen.bench.Sizes;
import io.bullpen.bench.Workload;
import io.bullpen.bench.peer.Peer;
import io.bullpen.bench.peer.PeerDriver;
import io.bullpen.bench.redis.UsageWindow;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Workload 1: pre-added no-op jobs (50,000; 5,000 with --quick) processed at concurrency 1, 10
 * and 100, each on a queue of its own; jobs/s from the first job's start to the last one's
 * completion. Before each concurrency is measured, a discarded pass of 50,000 jobs (1,000 with
 * --quick) runs at that same concurrency, so the JIT (or V8) has compiled the paths that
 * concurrency takes. Around each measured pass: Redis CPU, the client process's CPU (the
 * harness JVM, or the Node process for BullMQ) and Redis commands, per job; the window spans the
 * worker's start and close.
 */
final class ProcessingWorkload implements Workload {
    private static final int[] CONCURRENCY = {1, 10, 100};

    private final Sizes sizes;
    private final Map<Integer, Metric> rate = new LinkedHashMap<>();
    private final Map<Integer, Metric> redisCpu = new LinkedHashMap<>();
    private final Map<Integer, Metric> clientCpu = new LinkedHashMap<>();
    private final Map<Integer, Metric> commands = new LinkedHashMap<>();

    ProcessingWorkload(Sizes sizes) {
        this.sizes = sizes;
        for (int c : CONCURRENCY) {
            rate.put(c, Metric.higher(name(), "jobs/s, concurrency " + c, 0));
        }
        for (int c : CONCURRENCY) {
            redisCpu.put(c, Metric.lower(name(), "Redis CPU us/job, concurrency " + c, 1));
        }
        for (int c : CONCURRENCY) {
            clientCpu.put(c, Metric.lower(name(), "client CPU us/job, concurrency " + c, 1));
        }
        for (int c : CONCURRENCY) {
            commands.put(c, Metric.lower(name(), "Redis commands/job, concurrency " + c, 1));
        }
    }

    @Override
    public String name() {
        return "processing";
    }

    @Override
    public List<Metric> metrics() {
        return java.util.stream.Stream.of(rate, redisCpu, clientCpu, commands)
                .flatMap(m -> m.values().stream()).toList();
    }

    @Override
    public Map<Metric, Double> run(BenchContext ctx, Peer peer) throws Exception {
        int jobs = sizes.processingJobs();
        int warmUp = sizes.processingWarmUpJobs();
        Map<Metric, Double> values = new LinkedHashMap<>();
        try (PeerDriver driver = peer.open(ctx, name())) {
            for (int c : CONCURRENCY) {
                String queue = "processing-c" + c;
                if (warmUp > 0) {
                    driver.prefill(queue + "-warm", warmUp);
                    driver.process(queue + "-warm", warmUp, c);
                }
                driver.prefill(queue, jobs);
                UsageWindow window = UsageWindow.start(ctx.control(), ctx.redisPid(), driver.clientPid());
                double seconds = driver.process(queue, jobs, c);
                UsageWindow.Usage usage = window.stop();
                values.put(rate.get(c), jobs / seconds);
                values.put(redisCpu.get(c), usage.redisCpuNanos() / 1e3 / jobs);
                values.put(clientCpu.get(c), usage.clientCpuNanos() / 1e3 / jobs);
                values.put(commands.get(c), (double) usage.commands() / jobs);
            }
        }
        return values;
    }
}
