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
 * What groups cost (issue 15), Bullpen only: workload 4 ({@code cost}) twice in one run, 20,000
 * (2,000) jobs added one at a time then processed at concurrency 10, first without groups, then
 * spread round robin over 100 groups. Redis CPU per job for each phase, Redis commands per job
 * over both, and the ratio of Redis CPU per job (groups / none; the target is at most 1.3). Each
 * variant's queue has its event stream filled to its cap first, as in {@code cost}.
 */
final class GroupCostWorkload implements Workload {
    private static final Logger log = LoggerFactory.getLogger(GroupCostWorkload.class);
    private static final int CONCURRENCY = 10;

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
            double none = measure(ctx, driver, flow, "cost-plain", 0, addNone, processNone, commandsNone, values);
            double grouped = measure(ctx, driver, flow, "cost-groups", sizes.groups(), addGroups, processGroups,
                    commandsGroups, values);
            values.put(ratio, grouped / none);
        }
        return values;
    }

    /** @return Redis CPU ns over both phases */
    private double measure(BenchContext ctx, PeerDriver driver, FlowControl flow, String queue, int groups, Metric add,
            Metric process, Metric commands, Map<Metric, Double> values) throws Exception {
        int jobs = sizes.groupCostJobs();
        RedisControl redis = ctx.control();
        driver.saturateEvents(queue);
        UsageWindow window = UsageWindow.start(redis, ctx.redisPid(), driver.clientPid());
        flow.addOneAtATime(queue, jobs, groups);
        UsageWindow.Usage adding = window.stop();
        window = UsageWindow.start(redis, ctx.redisPid(), driver.clientPid());
        flow.process(queue, jobs, CONCURRENCY);
        UsageWindow.Usage processing = window.stop();
        values.put(add, adding.redisCpuNanos() / 1e3 / jobs);
        values.put(process, processing.redisCpuNanos() / 1e3 / jobs);
        values.put(commands, (double) (adding.commands() + processing.commands()) / jobs);
        log.info("{}: Redis commands per job, adding {}, processing {}", queue, perJob(adding, jobs),
                perJob(processing, jobs));
        return adding.redisCpuNanos() + processing.redisCpuNanos();
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
