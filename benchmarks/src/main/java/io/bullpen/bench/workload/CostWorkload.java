package io.bullpen.bench.workload;

import io.bullpen.bench.BenchContext;
import io.bullpen.bench.Metric;
import io.bullpen.bench.Sizes;
import io.bullpen.bench.Workload;
import io.bullpen.bench.peer.Peer;
import io.bullpen.bench.peer.PeerDriver;
import io.bullpen.bench.redis.MonitorCounter;
import io.bullpen.bench.redis.RedisControl;
import io.bullpen.bench.redis.UsageWindow;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Workload 4, what one job costs over its whole life: 20,000 jobs (default options) added one at
 * a time, then processed at concurrency 10.
 * <ul>
 * <li>Redis commands per job: INFO commandstats over both phases, commands run by scripts
 *     included;</li>
 * <li>round trips per job: commands clients sent (EVALSHA, BZPOPMIN, RPUSH...), counted with
 *     MONITOR in a second pass of 5,000 jobs, since MONITOR slows Redis down;</li>
 * <li>CPU per job of the client process and of redis-server, from /proc, for each phase (adding
 *     one at a time costs a round trip per job, processing does not have to) and in total;</li>
 * <li>Redis memory per waiting job (after the adds) and per retained completed job (after the
 *     processing): INFO memory deltas, clients' buffers excluded, measured after the event
 *     stream was filled to its cap so that only the jobs' own memory counts.</li>
 * </ul>
 */
final class CostWorkload implements Workload {
    private static final Logger log = LoggerFactory.getLogger(CostWorkload.class);
    private static final int CONCURRENCY = 10;

    private final Sizes sizes;
    private final Metric commands = Metric.lower(name(), "Redis commands/job", 1);
    private final Metric roundTrips = Metric.lower(name(), "round trips/job", 2);
    private final Metric addClientCpu = Metric.lower(name(), "client CPU us/job, adding one at a time", 1);
    private final Metric addRedisCpu = Metric.lower(name(), "Redis CPU us/job, adding one at a time", 1);
    private final Metric processClientCpu = Metric.lower(name(), "client CPU us/job, processing", 1);
    private final Metric processRedisCpu = Metric.lower(name(), "Redis CPU us/job, processing", 1);
    private final Metric totalCpu = Metric.lower(name(), "total CPU us/job (client + Redis)", 1);
    private final Metric waitingMemory = Metric.lower(name(), "Redis bytes/waiting job", 0);
    private final Metric completedMemory = Metric.lower(name(), "Redis bytes/completed job", 0);

    CostWorkload(Sizes sizes) {
        this.sizes = sizes;
    }

    @Override
    public String name() {
        return "cost";
    }

    @Override
    public List<Metric> metrics() {
        return List.of(commands, roundTrips, addClientCpu, addRedisCpu, processClientCpu, processRedisCpu, totalCpu,
                waitingMemory, completedMemory);
    }

    @Override
    public Map<Metric, Double> run(BenchContext ctx, Peer peer) throws Exception {
        Map<Metric, Double> values = new LinkedHashMap<>();
        int jobs = sizes.costJobs();
        RedisControl redis = ctx.control();
        try (PeerDriver driver = peer.open(ctx, name())) {
            driver.saturateEvents("cost");
            long before = redis.settledDataMemory();
            UsageWindow window = UsageWindow.start(redis, ctx.redisPid(), driver.clientPid());
            driver.addOneAtATime("cost", jobs);
            UsageWindow.Usage adding = window.stop();
            long waiting = redis.settledDataMemory();
            window = UsageWindow.start(redis, ctx.redisPid(), driver.clientPid());
            driver.process("cost", jobs, CONCURRENCY);
            UsageWindow.Usage processing = window.stop();
            long completed = redis.settledDataMemory();
            log.info("{} data memory: {} B before, {} B with {} jobs waiting, {} B after they completed", peer.title(), before,
                    waiting, jobs, completed);
            values.put(commands, (double) (adding.commands() + processing.commands()) / jobs);
            values.put(addClientCpu, adding.clientCpuNanos() / 1e3 / jobs);
            values.put(addRedisCpu, adding.redisCpuNanos() / 1e3 / jobs);
            values.put(processClientCpu, processing.clientCpuNanos() / 1e3 / jobs);
            values.put(processRedisCpu, processing.redisCpuNanos() / 1e3 / jobs);
            values.put(totalCpu, (adding.clientCpuNanos() + adding.redisCpuNanos() + processing.clientCpuNanos()
                    + processing.redisCpuNanos()) / 1e3 / jobs);
            values.put(waitingMemory, (double) (waiting - before) / jobs);
            values.put(completedMemory, driver.retainsCompleted() ? (double) (completed - before) / jobs : Double.NaN);
        }
        redis.flushAll();
        values.put(roundTrips, countRoundTrips(ctx, peer));
        return values;
    }

    private double countRoundTrips(BenchContext ctx, Peer peer) throws Exception {
        int jobs = sizes.roundTripJobs();
        try (PeerDriver driver = peer.open(ctx, name())) {
            driver.saturateEvents("round-trips");
            MonitorCounter monitor = MonitorCounter.start(ctx.port(), ctx.control());
            try {
                driver.addOneAtATime("round-trips", jobs);
                driver.process("round-trips", jobs, CONCURRENCY);
                return (double) monitor.stop(ctx.control()) / jobs;
            } finally {
                monitor.close();
            }
        }
    }
}
