package io.bullpen.bench.workload;

import io.bullpen.bench.BenchContext;
import io.bullpen.bench.Metric;
import io.bullpen.bench.Workload;
import io.bullpen.bench.peer.FlowControl;
import io.bullpen.bench.peer.Peer;
import io.bullpen.bench.peer.PeerDriver;
import io.bullpen.bench.redis.RedisControl;
import io.bullpen.bench.redis.UsageWindow;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What groups cost, Bullpen only: workload 4 ({@code cost}) in alternating rounds
 * (without groups, with groups, twice per run), 20,000 (2,000) jobs added one at a time then
 * processed at concurrency 10, without groups or spread round robin over 100 groups; the figures
 * are over both rounds of a variant. Redis CPU per job for each phase, Redis commands per job
 * over both, and the ratio of Redis CPU per job (groups / none; the target is at most 1.3). Each
 * variant's queue has its event stream filled to its cap first, as in {@code cost}.
 */
final class GroupCostWorkload implements Workload {
    private static final Logger log = LoggerFactory.getLogger(GroupCostWorkload.class);
    private static final int CONCURRENCY = 10;
    /** Rounds of (no groups, groups) per run, alternating. */
    private static final int ROUNDS = 2;

    private final FlowSizes sizes;
    private final Metric addNone = Metric.lower(name(), "Redis CPU us/job, adding, no groups", 1);
    private final Metric addGroups;
    private final Metric processNone = Metric.lower(name(), "Redis CPU us/job, processing, no groups", 1);
    private final Metric processGroups;
    private final Metric commandsNone = Metric.lower(name(), "Redis commands/job, no groups", 1);
    private final Metric commandsGroups;
    private final Metric ratio;

    GroupCostWorkload(FlowSizes sizes) {
        this.sizes = sizes;
        String groups = sizes.groups() + " groups";
        this.addGroups = Metric.lower(name(), "Redis CPU us/job, adding, " + groups, 1);
        this.processGroups = Metric.lower(name(), "Redis CPU us/job, processing, " + groups, 1);
        this.commandsGroups = Metric.lower(name(), "Redis commands/job, " + groups, 1);
        this.ratio = Metric.lower(name(), "Redis CPU/job, " + groups + " / no groups", 2);
    }

    @Override
    public String name() {
        return "groupcost";
    }

    @Override
    public List<Metric> metrics() {
        return List.of(addNone, addGroups, processNone, processGroups, commandsNone, commandsGroups, ratio);
    }

    @Override
    public Map<Metric, Double> run(BenchContext ctx, Peer peer) throws Exception {
        if (!peer.hasFlowControl()) {
            return NotApplicable.all(metrics());
        }
        Map<Metric, Double> values = new LinkedHashMap<>();
        try (PeerDriver driver = peer.open(ctx, name())) {
            FlowControl flow = driver.flowControl();
            // Alternating rounds (none, groups, none, groups): this VM's speed drifts within a run,
            // and a drift between the two variants would read as their difference.
            double[] none = new double[3];
            double[] grouped = new double[3];
            for (int round = 0; round < ROUNDS; round++) {
                add(none, measure(ctx, driver, flow, "cost-plain-" + round, 0));
                add(grouped, measure(ctx, driver, flow, "cost-groups-" + round, sizes.groups()));
            }
            int jobs = sizes.groupCostJobs() * ROUNDS;
            values.put(addNone, none[0] / 1e3 / jobs);
            values.put(addGroups, grouped[0] / 1e3 / jobs);
            values.put(processNone, none[1] / 1e3 / jobs);
            values.put(processGroups, grouped[1] / 1e3 / jobs);
            values.put(commandsNone, none[2] / jobs);
            values.put(commandsGroups, grouped[2] / jobs);
            values.put(ratio, (grouped[0] + grouped[1]) / (none[0] + none[1]));
        }
        return values;
    }

    private static void add(double[] sum, double[] round) {
        for (int i = 0; i < sum.length; i++) {
            sum[i] += round[i];
        }
    }

    /** @return Redis CPU ns adding, Redis CPU ns processing, Redis commands over both phases */
    private double[] measure(BenchContext ctx, PeerDriver driver, FlowControl flow, String queue, int groups)
            throws Exception {
        int jobs = sizes.groupCostJobs();
        RedisControl redis = ctx.control();
        driver.saturateEvents(queue);
        UsageWindow window = UsageWindow.start(redis, ctx.redisPid(), driver.clientPid());
        flow.addOneAtATime(queue, jobs, groups);
        UsageWindow.Usage adding = window.stop();
        window = UsageWindow.start(redis, ctx.redisPid(), driver.clientPid());
        flow.process(queue, jobs, CONCURRENCY);
        UsageWindow.Usage processing = window.stop();
        log.info("{}: Redis CPU us/job adding {}, processing {}; Redis commands per job, adding {}, processing {}", queue,
                String.format(java.util.Locale.ROOT, "%.1f", adding.redisCpuNanos() / 1e3 / jobs),
                String.format(java.util.Locale.ROOT, "%.1f", processing.redisCpuNanos() / 1e3 / jobs),
                perJob(adding, jobs), perJob(processing, jobs));
        return new double[] {adding.redisCpuNanos(), processing.redisCpuNanos(), adding.commands() + processing.commands()};
    }

    /** Calls per job by command, for finding where a variant's commands go (0.01 and up). */
    private static Map<String, String> perJob(UsageWindow.Usage usage, int jobs) {
        Map<String, String> per = new TreeMap<>();
        usage.calls().forEach((command, calls) -> {
            if (calls >= jobs / 100) {
                per.put(command, String.format(java.util.Locale.ROOT, "%.2f", (double) calls / jobs));
            }
        });
        return per;
    }
}
