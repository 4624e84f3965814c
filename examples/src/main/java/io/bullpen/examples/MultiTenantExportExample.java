package io.bullpen.examples;

import io.bullpen.GroupInfo;
import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobSpec;
import io.bullpen.Queue;
import io.bullpen.Retention;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * "One big customer must not starve the others": a multi-tenant export queue with a group per
 * tenant and per-tenant concurrency 1.
 *
 * <ol>
 *   <li>Each export is added with {@code JobOptions.builder().group("tenant-N")}.</li>
 *   <li>{@code setDefaultGroupConcurrency(1)}: at most one export per tenant runs at a time,
 *       across all workers; a setting in Redis, like every limit.</li>
 *   <li>The big tenant drops a backlog of 40 exports at once; four small tenants add one export
 *       each every few seconds. The worker (concurrency 3) takes jobs round robin over the
 *       tenants that have exports ready, so a small tenant's export starts at the next free slot
 *       instead of after the big backlog, which runs one at a time.</li>
 *   <li>Every few seconds the example logs {@code getGroups}: each tenant's waiting and active
 *       exports.</li>
 * </ol>
 *
 * <pre>
 * java -cp examples/target/bullpen-demo.jar io.bullpen.examples.MultiTenantExportExample [--redis URL] [--duration SECONDS]
 * </pre>
 */
public final class MultiTenantExportExample extends Example {
    /** The queue's name; "demo-" keeps the examples off a real application's queues. */
    public static final String QUEUE = "demo-exports";
    /** The tenant with the backlog. */
    public static final String BIG_TENANT = "tenant-big";

    /**
     * An export of a tenant's data.
     *
     * @param tenant the tenant (also the job's group)
     * @param n the tenant's export number
     */
    public record Export(String tenant, int n) {
    }

    private final int bigBacklog;
    private final int smallTenants;
    private final Duration smallEvery;
    private final Duration workTime;
    private final Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
    private final Map<String, Integer> maxRunning = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> completed = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> added = new ConcurrentHashMap<>();
    private Queue<Export> exports;

    /** A backlog of 40 for the big tenant, four small tenants adding one export each every 3 s, 500 ms per export. */
    public MultiTenantExportExample() {
        this(40, 4, Duration.ofSeconds(3), Duration.ofMillis(500));
    }

    /**
     * @param bigBacklog exports the big tenant adds at once, at the start
     * @param smallTenants how many small tenants
     * @param smallEvery how often each small tenant adds an export
     * @param workTime how long an export takes
     */
    public MultiTenantExportExample(int bigBacklog, int smallTenants, Duration smallEvery, Duration workTime) {
        this.bigBacklog = bigBacklog;
        this.smallTenants = smallTenants;
        this.smallEvery = smallEvery;
        this.workTime = workTime;
    }

    /**
     * Runs the example.
     *
     * @param args {@code --redis URL}, {@code --duration SECONDS}
     */
    public static void main(String[] args) {
        ExampleRunner.main("MultiTenantExportExample", new MultiTenantExportExample(), args);
    }

    @Override
    protected void setUp() {
        exports = queue(QUEUE, Export.class);
        exports.setDefaultGroupConcurrency(1);   // per tenant: one export at a time, across all workers
        startWorker(worker(exports, Export.class)
                .concurrency(3)
                .processor(ctx -> export(ctx.job())));
        later(Duration.ZERO, "adding the big tenant's backlog", this::addBigBacklog);
        every(smallEvery, "adding the small tenants' exports", this::addSmallExports);
        every(Duration.ofSeconds(5), Duration.ofSeconds(5), "reading the groups", this::logGroups);
    }

    /** The big tenant adds its backlog in one atomic call. */
    public void addBigBacklog() {
        List<JobSpec<Export>> backlog = new ArrayList<>();
        for (int i = 0; i < bigBacklog; i++) {
            backlog.add(JobSpec.of("export", new Export(BIG_TENANT, next(BIG_TENANT)), options(BIG_TENANT)));
        }
        exports.addBulk(backlog);
        log.info("{} added {} exports at once", BIG_TENANT, bigBacklog);
    }

    /** Each small tenant adds one export. */
    public void addSmallExports() {
        for (int t = 1; t <= smallTenants; t++) {
            String tenant = "tenant-" + t;
            exports.add("export", new Export(tenant, next(tenant)), options(tenant));
        }
    }

    private int next(String tenant) {
        return added.computeIfAbsent(tenant, t -> new AtomicInteger()).incrementAndGet();
    }

    private static JobOptions options(String tenant) {
        return JobOptions.builder().group(tenant).removeOnComplete(Retention.keepLast(100)).build();
    }

    private String export(Job<Export> job) throws InterruptedException {
        Export export = job.data();
        int now = running.computeIfAbsent(export.tenant(), t -> new AtomicInteger()).incrementAndGet();
        maxRunning.merge(export.tenant(), now, Math::max);
        try {
            Thread.sleep(workTime.toMillis());   // the export's real work would go here
        } finally {
            running.get(export.tenant()).decrementAndGet();
        }
        completed.computeIfAbsent(export.tenant(), t -> new AtomicInteger()).incrementAndGet();
        long waited = System.currentTimeMillis() - job.timestamp().toEpochMilli() - workTime.toMillis();
        if (!export.tenant().equals(BIG_TENANT) || export.n() % 10 == 0) {
            log.info("{} export {} done; it waited {}", export.tenant(), export.n(), human(Duration.ofMillis(Math.max(0, waited))));
        }
        return "exported";
    }

    private void logGroups() {
        List<GroupInfo> groups = exports.getGroups(null, 100);   // a page of groups, in name order
        log.info("groups: {}", groups.stream()
                .map(g -> g.name() + " waiting " + g.waiting() + " active " + g.active())
                .collect(Collectors.joining(", ")));
    }

    /**
     * @param tenant a tenant
     * @return its exports completed so far
     */
    public int completed(String tenant) {
        AtomicInteger n = completed.get(tenant);
        return n == null ? 0 : n.get();
    }

    /** @return per tenant, the most of its exports that ever ran at once in this process */
    public Map<String, Integer> maxRunning() {
        return Map.copyOf(maxRunning);
    }

    /** @return the queue of exports */
    public Queue<Export> exports() {
        return exports;
    }
}
