package io.bullpen.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.bullpen.Backoff;
import io.bullpen.Job;
import io.bullpen.JobCounts;
import io.bullpen.JobOptions;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.flow.ChildFailure;
import io.bullpen.flow.FlowJob;
import io.bullpen.flow.FlowProducer;
import io.bullpen.internal.FlowReconciler;
import io.bullpen.testing.RedisClusterFixture;
import io.bullpen.testing.Resp;
import io.bullpen.worker.Worker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flows under faults on a Redis Cluster of its own (3 masters, 3 replicas): every flow has its
 * root in one queue, its children in a second and its grandchildren in a third, each queue's slot
 * on a different master. Roots have 5 children, each child 0-5 children of its own; some
 * grandchildren are shared (the same job under two children of one flow, and jobs with a custom
 * id under parents of several flows); every edge has a random {@link ChildFailure}; some jobs fail
 * for good by design. While a producer adds the flows at a steady rate: worker JVMs are killed
 * with SIGKILL (and started again), CLIENT KILL storms hit every master, and the master of the
 * children's queue is SIGKILLed (its replica takes over; it comes back as a replica).
 *
 * <p>Checks: every job ends; each ends as its own outcome and its children's outcomes under its
 * edges' policies say; a parent that ran saw every completed child's value and started after each
 * child it waited for had ended; no parent is left waiting, and the flow reconciler run with no
 * grace finds nothing to repair; every job starts within {@link #LIVENESS_BOUND} of when it
 * became runnable (its add, or its last child's end), unless that moment falls in a fault window.
 */
@Tag("chaos")
class FlowClusterChaosTest {
    private static final Logger log = LoggerFactory.getLogger(FlowClusterChaosTest.class);
    static final Duration LIVENESS_BOUND = Duration.ofSeconds(5);
    /** After a JVM kill, its window: its jobs' lock expiry (2 s), a relay left to the next heartbeat (5 s), a margin. */
    private static final long KILL_TAIL_MS = 8_000;
    /** After a CLIENT KILL storm or a failover: the clients reconnect (Redisson's retry delay 1-2 s), a margin. */
    private static final long RECONNECT_TAIL_MS = 4_000;
    private static final ChildFailure[] POLICIES = ChildFailure.values();
    private static final int CHILD_CONCURRENCY = 4;

    record Edge(String child, ChildFailure policy) {
    }

    record Spec(boolean fail, List<Edge> edges) {
    }

    /** A fault, from its start to the end of its effects ({@code to} includes its tail). */
    record Window(String what, long from, long to) {
    }

    private final Map<String, Spec> specs = new ConcurrentHashMap<>();
    private final Map<String, Long> addedAt = new ConcurrentHashMap<>();
    private final List<Window> windows = new CopyOnWriteArrayList<>();
    private final ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
    private final AtomicInteger addRetries = new AtomicInteger();

    @Test
    void flowsAcrossThreeMastersEndAsTheirPoliciesSayUnderKillsStormsAndAFailover() throws Exception {
        assumeTrue(RedisClusterFixture.available(), "needs redis-server and redis-cli");
        int flowCount = ChaosSupport.pick(150, 2_000);
        long produceOverMs = ChaosSupport.pick(40_000, 150_000);
        int jvmKills = ChaosSupport.pick(3, 6);
        long seed = Long.getLong("bullpen.flowchaos.seed", System.nanoTime());
        log.info("FlowClusterChaosTest seed {} ({})", seed, ChaosSupport.size());
        Random rnd = new Random(seed);
        List<Path> logs = new ArrayList<>();
        List<Worker<FlowChaosJobs.Step, String>> workers = new ArrayList<>();
        Process child = null;
        long t0 = System.currentTimeMillis();
        // The in-process workers' flow reconcilers log each repair at WARN: there must be none.
        ch.qos.logback.classic.Logger reconcilerLog =
                (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(FlowReconciler.class);
        ListAppender<ILoggingEvent> repairs = new ListAppender<>();
        repairs.start();
        reconcilerLog.addAppender(repairs);
        try (RedisClusterFixture cluster = RedisClusterFixture.start()) {
            List<String> queues = queuesOnDistinctMasters(cluster);
            Map<String, Integer> masters = new LinkedHashMap<>();
            queues.forEach(q -> masters.put(q, cluster.masterPortOf("bp:{" + q + "}:wait")));
            log.info("queues and masters: {}", masters);
            RedissonClient producerClient = cluster.newClient();
            RedissonClient workerClient = cluster.newClient();
            Map<String, Queue<FlowChaosJobs.Step>> byName = new LinkedHashMap<>();
            for (String q : queues) {
                byName.put(q, Queue.builder(producerClient, q, FlowChaosJobs.Step.class).build());
                workers.add(FlowChaosJobs.worker(workerClient, q, "inproc-" + q, 4, lines::add).start());
            }
            List<FlowJob> roots = buildFlows(rnd, queues, flowCount);
            FlowProducer producer = FlowProducer.builder(producerClient).build();
            AtomicBoolean producing = new AtomicBoolean(true);
            Thread producerThread = new Thread(() -> produce(producer, roots, produceOverMs, producing), "flow-producer");
            producerThread.start();

            // The faults, spread over the production: JVM kills, two CLIENT KILL storms, one failover.
            List<Runnable> faults = new ArrayList<>();
            for (int i = 0; i < jvmKills; i++) {
                faults.add(null); // a JVM kill
            }
            faults.add(1, () -> storm(cluster));
            faults.add(faults.size() - 1, () -> storm(cluster));
            faults.add(faults.size() / 2, () -> failover(cluster, masters.get(queues.get(1)), queues.get(1)));
            long step = produceOverMs / (faults.size() + 1);
            long faultsFrom = System.currentTimeMillis();
            int kills = 0;
            int storms = 0;
            for (int i = 0; i < faults.size(); i++) {
                Path childLog = Files.createTempFile("bullpen-flowchaos-", ".log");
                logs.add(childLog);
                child = startChild(cluster, queues, "jvm-" + i, childLog);
                long due = faultsFrom + step * (i + 1);
                while (System.currentTimeMillis() < due) {
                    TimeUnit.MILLISECONDS.sleep(50);
                }
                if (faults.get(i) == null) {
                    long at = System.currentTimeMillis();
                    child.destroyForcibly();
                    assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
                    windows.add(new Window("kill -9 of jvm-" + i, at, System.currentTimeMillis() + KILL_TAIL_MS));
                    child = null;
                    kills++;
                } else {
                    faults.get(i).run();
                    storms += windows.get(windows.size() - 1).what().startsWith("CLIENT KILL") ? 1 : 0;
                    child.destroyForcibly();
                    child.waitFor(10, TimeUnit.SECONDS);
                    child = null;
                }
            }
            Path lastLog = Files.createTempFile("bullpen-flowchaos-last-", ".log");
            logs.add(lastLog);
            child = startChild(cluster, queues, "jvm-last", lastLog);
            producerThread.join(TimeUnit.MINUTES.toMillis(5));
            assertThat(producerThread.isAlive()).as("producer done").isFalse();
            long producedAt = System.currentTimeMillis();

            // Quiescence: nothing waiting, active, delayed or waiting for children.
            try {
                await("every job ended").atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(250))
                        .ignoreExceptions().until(() -> byName.values().stream().allMatch(q -> {
                            JobCounts c = q.getJobCounts();
                            return c.waiting() + c.active() + c.delayed() + c.prioritized() + c.waitingChildren() == 0;
                        }));
            } catch (ConditionTimeoutException e) {
                Map<String, JobCounts> counts = new LinkedHashMap<>();
                byName.forEach((n, q) -> counts.put(n, q.getJobCounts()));
                FlowReconciler reconciler = new FlowReconciler(producerClient, "bp", Clock.systemUTC());
                List<String> repaired = new ArrayList<>();
                queues.forEach(q -> repaired.addAll(reconciler.reconcile(q, 0, 1000)));
                throw new AssertionError("jobs not ended 45 s after the producer finished: counts " + counts
                        + "; the reconciler (no grace) repaired " + repaired, e);
            }
            long settledMs = System.currentTimeMillis() - producedAt;
            long runMs = System.currentTimeMillis() - t0;
            FlowReconciler reconciler = new FlowReconciler(producerClient, "bp", Clock.systemUTC());
            for (String q : queues) {
                assertThat(reconciler.reconcile(q, 0, 1000)).as("the reconciler had to repair parents of " + q).isEmpty();
            }
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
            child = null;
            for (Worker<FlowChaosJobs.Step, String> w : workers) {
                assertThat(w.isRunning()).as("worker %s still running", w.name()).isTrue();
                w.close(Duration.ofSeconds(10));
            }
            List<String> reconcilerRepairsInJvms = new ArrayList<>();
            synchronized (repairs) {
                repairs.list.forEach(e -> reconcilerRepairsInJvms.add("in-process: " + e.getFormattedMessage()));
            }
            for (Path p : logs) {
                for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
                    if (line.contains("Flow reconciler:")) {
                        reconcilerRepairsInJvms.add(line);
                    } else {
                        lines.add(line);
                    }
                }
            }
            check(byName, seed, flowCount, kills, storms, runMs, settledMs, reconcilerRepairsInJvms);
            producerClient.shutdown();
            workerClient.shutdown();
        } finally {
            reconcilerLog.detachAppender(repairs);
            if (child != null) {
                child.destroyForcibly();
                child.waitFor(10, TimeUnit.SECONDS);
            }
            for (Worker<FlowChaosJobs.Step, String> w : workers) {
                w.close(Duration.ZERO);
            }
            for (Path p : logs) {
                Files.deleteIfExists(p);
            }
        }
    }

    // ------------------------------------------------------------ the flows

    private List<FlowJob> buildFlows(Random rnd, List<String> queues, int flowCount) {
        JobOptions.Builder base = JobOptions.builder().attempts(10).backoff(Backoff.fixed(Duration.ofMillis(300)));
        List<FlowJob> shared = new ArrayList<>();
        for (int i = 0; i < Math.max(5, flowCount / 10); i++) {
            shared.add(job(queues.get(2), "s-" + i, rnd.nextInt(100) < 15, base, List.of()));
        }
        List<FlowJob> roots = new ArrayList<>();
        for (int f = 0; f < flowCount; f++) {
            List<FlowJob> leavesOfThisFlow = new ArrayList<>();
            List<Map.Entry<FlowJob, ChildFailure>> mids = new ArrayList<>();
            for (int m = 0; m < 5; m++) {
                List<Map.Entry<FlowJob, ChildFailure>> leaves = new ArrayList<>();
                Set<FlowJob> mine = new HashSet<>();
                int n = rnd.nextInt(6);
                for (int l = 0; l < n; l++) {
                    int r = rnd.nextInt(100);
                    FlowJob leaf;
                    if (r < 15) {
                        leaf = shared.get(rnd.nextInt(shared.size()));
                    } else if (r < 25 && !leavesOfThisFlow.isEmpty()) {
                        leaf = leavesOfThisFlow.get(rnd.nextInt(leavesOfThisFlow.size()));
                    } else {
                        leaf = job(queues.get(2), "l-" + f + "-" + m + "-" + l, rnd.nextInt(100) < 10, base, List.of());
                        leavesOfThisFlow.add(leaf);
                    }
                    if (mine.add(leaf)) {
                        leaves.add(Map.entry(leaf, POLICIES[rnd.nextInt(POLICIES.length)]));
                    }
                }
                mids.add(Map.entry(job(queues.get(1), "m-" + f + "-" + m, rnd.nextInt(100) < 5, base, leaves),
                        POLICIES[rnd.nextInt(POLICIES.length)]));
            }
            roots.add(job(queues.get(0), "r-" + f, rnd.nextInt(100) < 5, base, mids));
        }
        return roots;
    }

    private FlowJob job(String queue, String id, boolean fail, JobOptions.Builder base,
            List<Map.Entry<FlowJob, ChildFailure>> children) {
        FlowJob.Builder b = FlowJob.builder(queue, "step", new FlowChaosJobs.Step(fail))
                .options(base.jobId(id).build());
        List<Edge> edges = new ArrayList<>();
        for (Map.Entry<FlowJob, ChildFailure> c : children) {
            b.child(c.getKey(), c.getValue());
            edges.add(new Edge(c.getKey().queue() + ":" + c.getKey().jobId(), c.getValue()));
        }
        specs.putIfAbsent(queue + ":" + id, new Spec(fail, edges));
        return b.build();
    }

    /** Adds the flows at a steady rate; an add that throws is added again with the same ids until it goes through. */
    private void produce(FlowProducer producer, List<FlowJob> roots, long overMs, AtomicBoolean producing) {
        long start = System.currentTimeMillis();
        for (int i = 0; i < roots.size(); i++) {
            long due = start + overMs * i / roots.size();
            while (System.currentTimeMillis() < due) {
                sleep(5);
            }
            FlowJob root = roots.get(i);
            for (int attempt = 0; ; attempt++) {
                try {
                    producer.add(root);
                    break;
                } catch (RuntimeException e) {
                    addRetries.incrementAndGet();
                    if (attempt > 200) {
                        throw e;
                    }
                    sleep(100);
                }
            }
            long at = System.currentTimeMillis();
            registerAdded(root, at);
        }
        producing.set(false);
    }

    private void registerAdded(FlowJob job, long at) {
        if (addedAt.putIfAbsent(job.queue() + ":" + job.jobId(), at) == null) {
            job.children().forEach(e -> registerAdded(e.child(), at));
        }
    }

    // ------------------------------------------------------------ the faults

    private void storm(RedisClusterFixture cluster) {
        long from = System.currentTimeMillis();
        long killed = 0;
        for (int round = 0; round < 8; round++) {
            for (String uri : cluster.nodeUris()) {
                int port = Integer.parseInt(uri.substring(uri.lastIndexOf(':') + 1));
                try {
                    killed += Long.parseLong(String.valueOf(Resp.call("127.0.0.1", port, "CLIENT", "KILL", "TYPE", "normal")));
                } catch (IOException | RuntimeException e) {
                    log.warn("CLIENT KILL on :{} failed: {}", port, e.toString());
                }
            }
            sleep(500);
        }
        windows.add(new Window("CLIENT KILL storm (8 rounds every 500 ms, " + killed + " connections)", from,
                System.currentTimeMillis() + RECONNECT_TAIL_MS));
    }

    private void failover(RedisClusterFixture cluster, int master, String queue) {
        long from = System.currentTimeMillis();
        cluster.kill(master);
        await("a replica serves the slot of " + queue).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .ignoreExceptions().until(() -> cluster.masterPortOf("bp:{" + queue + "}:wait") != master);
        long promoted = System.currentTimeMillis();
        cluster.restart(master);
        await("the old master rejoins as a replica").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .ignoreExceptions().until(() -> "slave".equals(cluster.role(master)));
        windows.add(new Window("failover of :" + master + " (replica promoted after " + (promoted - from) + " ms)", from,
                System.currentTimeMillis() + RECONNECT_TAIL_MS));
    }

    // ------------------------------------------------------------ the checks

    private void check(Map<String, Queue<FlowChaosJobs.Step>> byName, long seed, int flowCount, int kills, int storms,
            long runMs, long settledMs, List<String> jvmRepairs) {
        Map<String, Long> firstStart = new HashMap<>();
        Map<String, Integer> startCount = new HashMap<>();
        Map<String, List<String>> views = new HashMap<>();
        for (String line : lines) {
            String[] p = line.split(" ");
            if (p[0].equals("start") && p.length == 3) {
                firstStart.merge(p[1], Long.parseLong(p[2]), Math::min);
                startCount.merge(p[1], 1, Integer::sum);
            } else if (p[0].equals("view") && p.length == 3) {
                views.computeIfAbsent(p[1], k -> new ArrayList<>()).add(p[2]);
            }
        }
        List<String> problems = new ArrayList<>();
        Map<String, JobState> states = new HashMap<>();
        Map<String, Job<FlowChaosJobs.Step>> jobs = new HashMap<>();
        for (String key : specs.keySet()) {
            Queue<FlowChaosJobs.Step> q = byName.get(key.substring(0, key.indexOf(':')));
            String id = key.substring(key.indexOf(':') + 1);
            Job<FlowChaosJobs.Step> job = q.getJob(id).orElse(null);
            if (job == null) {
                problems.add(key + " is gone");
                continue;
            }
            jobs.put(key, job);
            states.put(key, q.getState(id));
        }
        Map<String, Integer> tally = new TreeMap<>();
        long worstLag = 0;
        String worst = "none";
        long worstInWindow = 0;
        int inWindow = 0;
        int outsideWindows = 0;
        for (Map.Entry<String, Spec> e : specs.entrySet()) {
            String key = e.getKey();
            Spec spec = e.getValue();
            JobState state = states.get(key);
            if (state == null) {
                continue;
            }
            if (!FlowChaosJobs.ended(state)) {
                problems.add(key + " ends " + state);
                continue;
            }
            boolean ran = firstStart.containsKey(key);
            boolean failedByChild = false;
            boolean continued = false;
            for (Edge edge : spec.edges()) {
                boolean failed = states.get(edge.child()) == JobState.FAILED;
                failedByChild |= failed && edge.policy() == ChildFailure.FAIL_PARENT;
                continued |= failed && edge.policy() == ChildFailure.CONTINUE;
            }
            JobState own = spec.fail() ? JobState.FAILED : JobState.COMPLETED;
            if (ran && state != own) {
                problems.add(key + " ran but ends " + state + ", not as its own outcome " + own);
            }
            if (!continued && ran == failedByChild) {
                problems.add(key + (ran ? " ran although a FAIL_PARENT child failed" : " never ran although no FAIL_PARENT child failed"));
            }
            if (!continued && state != (failedByChild ? JobState.FAILED : own)) {
                problems.add(key + " ends " + state + " against its policies");
            }
            if (continued && !ran && !failedByChild) {
                problems.add(key + " never ran though a CONTINUE child failed and no FAIL_PARENT child did");
            }
            if (!ran && state == JobState.FAILED && !spec.edges().isEmpty()) {
                String reason = jobs.get(key).failedReason().orElse("");
                if (!reason.startsWith("child ")) {
                    problems.add(key + " failed without running: " + reason);
                }
            }
            tally.merge((spec.edges().isEmpty() ? "leaf " : "parent ") + (ran ? "ran, " : "did not run, ") + state, 1, Integer::sum);
            if (!ran) {
                continue;
            }
            long start = firstStart.get(key);
            // What the parent saw, each time it ran.
            for (String view : views.getOrDefault(key, List.of())) {
                Map<String, String> rows = new HashMap<>();
                for (String row : view.split(",")) {
                    int eq = row.lastIndexOf('=');
                    rows.put(row.substring(0, eq), row.substring(eq + 1));
                }
                boolean sawContinueFailed = spec.edges().stream().anyMatch(ed -> ed.policy() == ChildFailure.CONTINUE
                        && "FAILED".equals(stateOf(rows.get(ed.child()))));
                for (Edge edge : spec.edges()) {
                    String row = rows.get(edge.child());
                    JobState childState = states.get(edge.child());
                    if (row == null) {
                        if (edge.policy() != ChildFailure.REMOVE || childState == JobState.COMPLETED) {
                            problems.add(key + " ran without seeing its " + edge.policy() + " child " + edge.child()
                                    + " (" + childState + ")");
                        }
                        continue;
                    }
                    if (row.endsWith("/x")) {
                        problems.add(key + " saw a value of its child " + edge.child() + " that is not the child's: " + row);
                    }
                    // A row without a value or reason is a child the parent still waits for (its state read as
                    // it is now): only a parent that a failed CONTINUE child let run early may see one.
                    if (!sawContinueFailed && row.startsWith("COMPLETED/") && !row.endsWith("/v")) {
                        problems.add(key + " saw its completed child " + edge.child() + " without its value: " + row);
                    }
                    if (!sawContinueFailed && row.startsWith("FAILED/") && !row.endsWith("/r")) {
                        problems.add(key + " saw its failed child " + edge.child() + " without a reason: " + row);
                    }
                    if (!sawContinueFailed && !row.startsWith("COMPLETED/") && !row.startsWith("FAILED/")) {
                        problems.add(key + " started before its child " + edge.child() + " ended: " + row);
                    }
                    if (!sawContinueFailed && row.startsWith("FAILED/") && edge.policy() == ChildFailure.FAIL_PARENT) {
                        problems.add(key + " ran although its FAIL_PARENT child " + edge.child() + " failed");
                    }
                }
                tally.merge(sawContinueFailed ? "parent ran early after a CONTINUE child failed" : "parent ran after all its children",
                        1, Integer::sum);
            }
            // No parent started early: each child it waited for had finished (in Redis) before its first start.
            long runnable = addedAt.getOrDefault(key, start);
            boolean early = continued;
            for (Edge edge : spec.edges()) {
                Job<FlowChaosJobs.Step> c = jobs.get(edge.child());
                long finished = c == null ? 0 : c.finishedOn().map(i -> i.toEpochMilli()).orElse(0L);
                boolean waitedFor = !(edge.policy() == ChildFailure.REMOVE && states.get(edge.child()) == JobState.FAILED);
                if (!early && waitedFor && finished > start) {
                    problems.add(key + " started at " + start + ", before its child " + edge.child() + " finished at " + finished);
                }
                if (finished <= start) {
                    runnable = Math.max(runnable, finished);
                }
            }
            long lag = start - runnable;
            Window w = windowAt(runnable);
            if (w != null) {
                inWindow++;
                worstInWindow = Math.max(worstInWindow, lag);
            } else {
                outsideWindows++;
                if (lag > worstLag) {
                    worstLag = lag;
                    worst = key;
                }
                if (lag > LIVENESS_BOUND.toMillis()) {
                    problems.add(key + " started " + lag + " ms after it became runnable, outside any fault window");
                }
            }
        }
        for (String q : byName.keySet()) {
            if (byName.get(q).getJobCounts().waitingChildren() != 0) {
                problems.add("parents left waiting in " + q);
            }
        }
        long duplicated = startCount.values().stream().mapToLong(n -> n - 1).sum();
        log.info("CHAOS flows on a 3-master cluster ({}, seed {}): {} flows, {} jobs ({} distinct shared leaves), "
                        + "faults: {} kill -9 of worker JVMs, {} CLIENT KILL storms, 1 master failover ({}); add retries {}; "
                        + "duplicated starts {}; liveness: worst start lag outside fault windows {} ms ({}; {} jobs), worst inside {} ms "
                        + "({} jobs runnable inside a window); settled {} ms after the last add; run {} ms; reconciler repairs "
                        + "by workers {}; tally {}; problems {}",
                ChaosSupport.size(), seed, flowCount, specs.size(),
                specs.keySet().stream().filter(k -> k.contains(":s-")).count(), kills, storms, windows, addRetries.get(),
                duplicated, worstLag, worst, outsideWindows, worstInWindow, inWindow, settledMs, runMs, jvmRepairs, tally,
                problems.size());
        assertThat(problems).as("seed " + seed + ": problems (first 30 of " + problems.size() + ")")
                .isEmpty();
        assertThat(jvmRepairs).as("repairs made by the workers' flow reconcilers during the run").isEmpty();
        assertThat(startCount.keySet()).as("jobs that ran").isNotEmpty();
    }

    private static String stateOf(String row) {
        return row == null ? null : row.substring(0, row.indexOf('/'));
    }

    private Window windowAt(long at) {
        for (Window w : windows) {
            if (at >= w.from() - 500 && at <= w.to()) {
                return w;
            }
        }
        return null;
    }

    private static List<String> queuesOnDistinctMasters(RedisClusterFixture cluster) {
        String[] roles = {"root", "mid", "leaf"};
        List<String> out = new ArrayList<>();
        Set<Integer> used = new HashSet<>();
        for (String role : roles) {
            for (int i = 0; ; i++) {
                String name = "flowchaos-" + role + "-" + i;
                if (used.add(cluster.masterPortOf("bp:{" + name + "}:wait"))) {
                    out.add(name);
                    break;
                }
            }
        }
        return out;
    }

    private static Process startChild(RedisClusterFixture cluster, List<String> queues, String name, Path log)
            throws IOException {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = List.of(java, "-cp", System.getProperty("java.class.path"),
                "-Xmx192m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                FlowChaosWorkerMain.class.getName(), String.join(",", cluster.nodeUris()), String.join(",", queues), name,
                String.valueOf(CHILD_CONCURRENCY), "900");
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static void sleep(long ms) {
        try {
            TimeUnit.MILLISECONDS.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
