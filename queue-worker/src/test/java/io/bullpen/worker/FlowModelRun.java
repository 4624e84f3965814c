package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobLockedException;
import io.bullpen.JobOptions;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.UnrecoverableJobException;
import io.bullpen.flow.ChildFailure;
import io.bullpen.flow.ChildResult;
import io.bullpen.flow.FlowJob;
import io.bullpen.flow.FlowProducer;
import io.bullpen.flow.JobNode;
import io.bullpen.internal.FlowReconciler;
import io.bullpen.testing.BullpenTestContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.core.ConditionTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One seeded run of {@link FlowModelTest}. The checks read what happened (each job's final state,
 * what each parent read from {@code ctx.children()} when it ran, when each processor started and
 * returned) and hold it against the flows' specs, so they need no guess about the order in which
 * concurrent workers finish: an outcome that depends on a race (a CONTINUE child failing before
 * or after a FAIL_PARENT sibling) is checked for being one of the outcomes the policies allow.
 */
final class FlowModelRun {
    private static final Logger log = LoggerFactory.getLogger(FlowModelRun.class);
    /** A job that may run starts within this of the moment it may (its add, the resume, its children's ends, a remove or cancel). */
    static final Duration LIVENESS_BOUND = Duration.ofSeconds(3);
    /**
     * Every job ends within this. Shorter than the reconciler's grace (a minute), so a parent that
     * only the reconciler would move on fails the run.
     */
    static final Duration QUIESCENCE = Duration.ofSeconds(30);
    private static final ChildFailure[] POLICIES = ChildFailure.values();

    /** The sizes of a run. */
    enum Size {
        SMALL(10, 4, 3, 3, 3), SOAK(80, 20, 10, 10, 6);

        final int flowsBefore;
        final int flowsDuring;
        final int opsBefore;
        final int opsDuring;
        final int sharedLeaves;

        Size(int flowsBefore, int flowsDuring, int opsBefore, int opsDuring, int sharedLeaves) {
            this.flowsBefore = flowsBefore;
            this.flowsDuring = flowsDuring;
            this.opsBefore = opsBefore;
            this.opsDuring = opsDuring;
            this.sharedLeaves = sharedLeaves;
        }
    }

    record Step(boolean fail) {
    }

    /** A job of the flows: its spec, its children by key with each edge's policy, and when its add call returned. */
    record Spec(String key, FlowJob job, List<Map.Entry<String, ChildFailure>> edges, long addedAt) {
        boolean fails() {
            return ((Step) job.data()).fail();
        }

        /** A leaf added with an expiry deadline already past: it must fail as expired, never run. */
        boolean expires() {
            return job.options().expireAt().isPresent();
        }
    }

    private final long seed;
    private final BullpenTestContext ctx;
    private final Size size;
    private final Random rnd;
    private final List<String> queues;
    private final Map<String, Queue<Step>> byName = new LinkedHashMap<>();
    private final FlowProducer flows;
    private final List<Worker<Step, String>> workers = new ArrayList<>();
    private final List<FlowJob> sharedLeaves = new ArrayList<>();

    private final Map<String, Spec> specs = new ConcurrentHashMap<>();
    private final List<String> roots = new ArrayList<>();
    /** Jobs a remove or cancel of the test aimed at (whether or not it changed anything), with when. */
    private final Map<String, Long> targets = new LinkedHashMap<>();
    private final List<String> ops = new ArrayList<>();

    private final Map<String, Long> started = new ConcurrentHashMap<>();
    private final Map<String, Long> returned = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
    private final Map<String, List<ChildResult>> views = new ConcurrentHashMap<>();
    private final AtomicInteger processed = new AtomicInteger();
    private final AtomicLong lastActivity = new AtomicLong(System.nanoTime());
    private final List<String> processorErrors = new CopyOnWriteArrayList<>();
    /** How often each case the checks met happened, logged after the run (to see what a run covered). */
    private final Map<String, Integer> tally = new TreeMap<>();
    private long resumedAt;

    FlowModelRun(long seed, BullpenTestContext ctx, Size size) {
        this.seed = seed;
        this.ctx = ctx;
        this.size = size;
        this.rnd = new Random(seed);
        this.queues = List.of(ctx.newQueueName(), ctx.newQueueName(), ctx.newQueueName());
        queues.forEach(q -> byName.put(q, Queue.builder(ctx.redisson(), q, Step.class).build()));
        this.flows = FlowProducer.builder(ctx.redisson()).build();
    }

    void run() {
        log.info("FlowModelTest seed {} ({})", seed, size);
        try {
            for (int i = 0; i < size.sharedLeaves; i++) {
                sharedLeaves.add(FlowJob.builder(randomQueue(), "shared", new Step(rnd.nextInt(100) < 25))
                        .options(JobOptions.builder().jobId("s-" + i).build()).build());
            }
            // Before the queues run: flows added while every queue is paused, then removes and
            // cancels of jobs that are all still waiting (or waiting for their children).
            byName.values().forEach(Queue::pause);
            startWorkers();
            addFlows(size.flowsBefore);
            for (int i = 0; i < size.opsBefore; i++) {
                removeOrCancel();
            }
            resumedAt = System.nanoTime();
            byName.values().forEach(Queue::resume);
            // While they run: more flows (some over shared jobs that already ended) and more removes and cancels.
            int events = size.flowsDuring + size.opsDuring;
            int flowsLeft = size.flowsDuring;
            for (int e = 0; e < events; e++) {
                awaitProgress(rnd.nextInt(Math.max(1, specs.size())));
                if (flowsLeft > 0 && (rnd.nextBoolean() || e - (size.flowsDuring - flowsLeft) >= size.opsDuring)) {
                    addFlows(1);
                    flowsLeft--;
                } else {
                    removeOrCancel();
                }
            }
            awaitQuiescence();
            check();
        } finally {
            workers.forEach(w -> w.close(Duration.ofSeconds(5)));
        }
        log.info("FlowModelTest seed {}: {} jobs in {} roots, {} ran, ops {}", seed, specs.size(), roots.size(),
                started.size(), ops);
    }

    // ------------------------------------------------------------ the run

    private void startWorkers() {
        for (String queue : queues) {
            Worker<Step, String> w = Worker.builder(ctx.redisson(), queue, Step.class).concurrency(4).processor(c -> {
                String key = queue + ":" + c.job().id();
                long now = System.nanoTime();
                lastActivity.set(now);
                started.putIfAbsent(key, now);
                runs.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
                try {
                    List<ChildResult> children = c.children();
                    if (!children.isEmpty()) {
                        views.putIfAbsent(key, children);
                    }
                    if (c.job().data().fail()) {
                        throw new UnrecoverableJobException("planned failure");
                    }
                    return "v-" + key;
                } catch (RuntimeException e) {
                    if (!(e instanceof UnrecoverableJobException)) {
                        processorErrors.add(key + ": " + e);
                    }
                    throw e;
                } finally {
                    returned.put(key, System.nanoTime());
                    processed.incrementAndGet();
                    lastActivity.set(System.nanoTime());
                }
            }).build();
            workers.add(w);
            w.start();
        }
    }

    private String randomQueue() {
        return queues.get(rnd.nextInt(queues.size()));
    }

    private void addFlows(int n) {
        List<FlowJob> batch = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            batch.add(randomFlow(1 + rnd.nextInt(3), new ArrayList<>()));
        }
        List<JobNode> added;
        if (batch.size() > 1 && rnd.nextBoolean()) {
            added = flows.addBulk(batch);
        } else {
            added = new ArrayList<>();
            for (FlowJob root : batch) {
                added.add(flows.add(root));
            }
        }
        // A job may run from when its add returned (it may start before: that counts as no lag).
        long at = System.nanoTime();
        for (int i = 0; i < batch.size(); i++) {
            roots.add(key(added.get(i)));
            register(batch.get(i), added.get(i), at);
        }
        ops.add("add " + added.stream().map(FlowModelRun::key).toList());
    }

    /** A random job with up to 3 children per level: a new one, one built earlier in this add (a DAG), or a shared leaf. */
    private FlowJob randomFlow(int depth, List<FlowJob> built) {
        FlowJob.Builder b = FlowJob.builder(randomQueue(), "step", new Step(rnd.nextInt(100) < 15));
        int children = depth == 0 ? 0 : rnd.nextInt(4);
        List<FlowJob> mine = new ArrayList<>();
        for (int i = 0; i < children; i++) {
            int r = rnd.nextInt(100);
            FlowJob child;
            if (r < 15) {
                child = sharedLeaves.get(rnd.nextInt(sharedLeaves.size()));
            } else if (r < 30 && !built.isEmpty()) {
                child = built.get(rnd.nextInt(built.size()));
            } else {
                child = randomFlow(depth - 1, built);
            }
            if (mine.contains(child)) {
                continue;
            }
            mine.add(child);
            b.child(child, POLICIES[rnd.nextInt(POLICIES.length)]);
        }
        int expiry = mine.isEmpty() ? rnd.nextInt(100) : 100;
        if (expiry < 10) {
            // Past on Redis's clock (this host's): the first fetch after the add fails it.
            b.options(JobOptions.builder().expireAt(Instant.now().minusSeconds(1)).build());
        } else if (expiry < 20) {
            // Far off: it runs as any job, and never expires once started.
            b.options(JobOptions.builder().expireAfter(Duration.ofHours(1)).build());
        }
        FlowJob job = b.build();
        built.add(job);
        return job;
    }

    private void register(FlowJob job, JobNode node, long addedAt) {
        String key = key(node);
        if (specs.containsKey(key)) {
            // A shared job added earlier: its first add defines it.
            return;
        }
        List<Map.Entry<String, ChildFailure>> edges = new ArrayList<>();
        for (int i = 0; i < job.children().size(); i++) {
            edges.add(Map.entry(key(node.children().get(i)), job.children().get(i).policy()));
        }
        specs.put(key, new Spec(key, job, edges, addedAt));
        for (int i = 0; i < job.children().size(); i++) {
            register(job.children().get(i).child(), node.children().get(i), addedAt);
        }
    }

    private void removeOrCancel() {
        List<String> keys = new ArrayList<>(specs.keySet());
        keys.sort(null);
        String key = keys.get(rnd.nextInt(keys.size()));
        Queue<Step> queue = byName.get(queueOf(key));
        String id = idOf(key);
        long at = System.nanoTime();
        String outcome;
        if (rnd.nextBoolean()) {
            outcome = "cancel " + key + " -> " + queue.cancel(id, "test");
        } else {
            try {
                outcome = "remove " + key + " -> " + queue.remove(id);
            } catch (JobLockedException e) {
                outcome = "remove " + key + " -> locked";
            }
        }
        targets.putIfAbsent(key, at);
        ops.add(outcome);
        if (outcome.endsWith("-> true")) {
            // A removed shared job added again would be a new job under the same id: later flows share another.
            for (int i = 0; i < sharedLeaves.size(); i++) {
                FlowJob leaf = sharedLeaves.get(i);
                if (key.equals(leaf.queue() + ":" + leaf.jobId())) {
                    sharedLeaves.set(i, FlowJob.builder(leaf.queue(), "shared", leaf.data())
                            .options(JobOptions.builder().jobId(leaf.jobId() + "r").build()).build());
                }
            }
        }
        lastActivity.set(System.nanoTime());
    }

    /** Until the workers have run {@code jobs} jobs, or have had nothing to do for half a second. */
    private void awaitProgress(int jobs) {
        await().pollInterval(Duration.ofMillis(10)).atMost(QUIESCENCE).until(() -> processed.get() >= jobs
                || System.nanoTime() - lastActivity.get() > 500_000_000L);
    }

    private void awaitQuiescence() {
        try {
            await().pollInterval(Duration.ofMillis(100)).atMost(QUIESCENCE).until(() -> specs.keySet().stream()
                    .allMatch(k -> ended(state(k))));
        } catch (ConditionTimeoutException e) {
            List<String> left = specs.keySet().stream().filter(k -> !ended(state(k))).map(k -> k + " " + state(k)).toList();
            List<String> repairs = new ArrayList<>();
            FlowReconciler reconciler = new FlowReconciler(ctx.redisson(), "bp", Clock.systemUTC());
            queues.forEach(q -> repairs.addAll(reconciler.reconcile(q, 0, 1000)));
            throw new AssertionError(where() + "jobs not ended after " + QUIESCENCE + ": " + left
                    + "; the reconciler (no grace) repaired " + repairs, e);
        }
    }

    // ------------------------------------------------------------ the checks

    private void check() {
        assertThat(processorErrors).as(where() + "processor errors").isEmpty();
        Set<String> touched = touched();
        long bound = LIVENESS_BOUND.toNanos();
        long worstLag = 0;
        String worst = "none";
        for (Spec spec : specs.values()) {
            String key = spec.key();
            JobState state = state(key);
            Optional<Job<Step>> job = byName.get(queueOf(key)).getJob(idOf(key));
            assertThat(runs.getOrDefault(key, new AtomicInteger()).get()).as(where() + key + " ran more than once").isLessThanOrEqualTo(1);
            Long start = started.get(key);
            List<ChildResult> view = views.getOrDefault(key, List.of());
            boolean continued = false;
            for (ChildResult row : view) {
                ChildFailure policy = policy(spec, row.queue() + ":" + row.id());
                continued |= policy == ChildFailure.CONTINUE && row.state() == JobState.FAILED;
            }
            if (start != null && !spec.edges().isEmpty()) {
                count(continued ? "ran early after a CONTINUE child failed" : "ran after all its children");
                checkView(spec, view, continued, start);
            }
            if (state == JobState.UNKNOWN) {
                count("removed");
            }
            if (state != JobState.UNKNOWN && !spec.edges().isEmpty()) {
                checkChildren(spec);
            }
            if (spec.expires()) {
                assertThat(start).as(where() + key + " had a deadline already past at its add, yet ran").isNull();
            }
            if (start == null && state != JobState.UNKNOWN) {
                assertThat(state).as(where() + key + " completed without running").isEqualTo(JobState.FAILED);
                String reason = job.flatMap(Job::failedReason).orElse("");
                count(reason.startsWith("child ") ? "failed by a child" : reason.equals("expired") ? "expired"
                        : "cancelled before it ran");
                if (reason.equals("expired")) {
                    assertThat(spec.expires()).as(where() + key + " expired without a deadline").isTrue();
                    assertThat(job.map(Job::attemptsMade)).as(where() + key + " expired: no attempt").contains(0);
                } else if (!reason.startsWith("child ")) {
                    assertThat(touched).as(where() + key + " failed without running (" + reason + ") and no remove or cancel reached it")
                            .contains(key);
                    assertThat(reason).as(where() + key + " failed without running").startsWith("cancelled: ");
                } else {
                    String child = reason.substring("child ".length(), reason.indexOf(" failed: "));
                    assertThat(policy(spec, child)).as(where() + key + " failed by " + child + ", not a FAIL_PARENT child")
                            .isEqualTo(ChildFailure.FAIL_PARENT);
                    assertThat(childFailed(spec, child)).as(where() + key + " failed by " + child + ", which did not fail").isTrue();
                }
            }
            if (!touched.contains(key)) {
                checkOutcome(spec, state, job, start != null);
            }
            if (start != null) {
                long floor = Math.max(resumedAt, spec.addedAt());
                String from = floor == resumedAt ? "the resume" : "its add";
                for (String d : descendants(key)) {
                    Long ended = returned.get(d);
                    if (ended != null && ended < start && ended > floor) {
                        floor = ended;
                        from = "the return of " + d;
                    }
                }
                for (Map.Entry<String, Long> t : targets.entrySet()) {
                    // A remove or cancel anywhere may end a job this one waits for (a cancel goes
                    // down to children, a shared child links flows), so it may start from then on.
                    if (t.getValue() < start && t.getValue() > floor) {
                        floor = t.getValue();
                        from = "the remove or cancel of " + t.getKey();
                    }
                }
                long lag = start - floor;
                assertThat(lag).as(where() + key + " started " + lag / 1_000_000 + " ms after " + from)
                        .isLessThanOrEqualTo(bound);
                if (lag > worstLag) {
                    worstLag = lag;
                    worst = key + " after " + from;
                }
            }
        }
        FlowReconciler reconciler = new FlowReconciler(ctx.redisson(), "bp", Clock.systemUTC());
        for (String queue : queues) {
            assertThat(byName.get(queue).getJobCounts().waitingChildren()).as(where() + "parents left waiting in " + queue).isZero();
            assertThat(reconciler.reconcile(queue, 0, 1000)).as(where() + "the reconciler had to repair " + queue).isEmpty();
            ctx.assertInvariant(queue);
        }
        log.info("FlowModelTest seed {}: worst start lag {} ms ({}), {} touched by removes and cancels, tally {}", seed,
                worstLag / 1_000_000, worst, touched.size(), tally);
    }

    /** What a parent read from ctx.children() when it ran: all its children ended (unless a CONTINUE child failed), with their values. */
    private void checkView(Spec spec, List<ChildResult> view, boolean continued, long start) {
        String key = spec.key();
        Map<String, ChildResult> rows = new LinkedHashMap<>();
        view.forEach(r -> rows.put(r.queue() + ":" + r.id(), r));
        for (Map.Entry<String, ChildFailure> edge : spec.edges()) {
            String child = edge.getKey();
            ChildResult row = rows.get(child);
            if (row == null) {
                count("ran without its dropped REMOVE child");
                assertThat(edge.getValue()).as(where() + key + " ran without seeing its child " + child).isEqualTo(ChildFailure.REMOVE);
                assertThat(state(child)).as(where() + key + " did not see its REMOVE child " + child + ", which completed")
                        .isNotEqualTo(JobState.COMPLETED);
                continue;
            }
            checkRow(key + " (as it ran)", child, row, !continued);
            count("ran seeing " + edge.getValue() + " child " + row.state());
            if (!continued) {
                assertThat(row.state()).as(where() + key + " started before its child " + child + " ended")
                        .isIn(JobState.COMPLETED, JobState.FAILED);
                Long ended = returned.get(child);
                if (ended != null) {
                    assertThat(ended).as(where() + key + " started before its child " + child + " returned").isLessThan(start);
                }
                if (row.state() == JobState.FAILED) {
                    assertThat(edge.getValue()).as(where() + key + " ran although its FAIL_PARENT child " + child + " failed")
                            .isNotEqualTo(ChildFailure.FAIL_PARENT);
                }
            }
        }
    }

    /** After the run: getChildren lists every child not dropped by a REMOVE edge, ended, with its value. */
    private void checkChildren(Spec spec) {
        String key = spec.key();
        List<ChildResult> page = byName.get(queueOf(key)).getChildren(idOf(key), null, 1000);
        Map<String, ChildResult> rows = new LinkedHashMap<>();
        page.forEach(r -> rows.put(r.queue() + ":" + r.id(), r));
        for (Map.Entry<String, ChildFailure> edge : spec.edges()) {
            String child = edge.getKey();
            ChildResult row = rows.get(child);
            if (row == null) {
                assertThat(edge.getValue()).as(where() + "getChildren of " + key + " lacks " + child).isEqualTo(ChildFailure.REMOVE);
                continue;
            }
            checkRow("getChildren of " + key, child, row, true);
        }
    }

    /**
     * A child's row holds its outcome: the value it returned, or a reason, as the child itself
     * ended. A row without either is a child the parent still waited for, read as it is now: only
     * a parent a CONTINUE child let run early may see one.
     */
    private void checkRow(String where, String child, ChildResult row, boolean mustHaveEnded) {
        JobState actual = state(child);
        boolean pending = row.returnValueJson().isEmpty() && row.failedReason().isEmpty();
        if (pending && !mustHaveEnded) {
            return;
        }
        if (row.state() == JobState.COMPLETED) {
            assertThat(row.returnValueJson()).as(where() + where + ": value of " + child).contains("\"v-" + child + "\"");
            if (actual != JobState.UNKNOWN) {
                assertThat(actual).as(where() + where + ": " + child + " seen completed").isEqualTo(JobState.COMPLETED);
            }
        } else if (row.state() == JobState.FAILED) {
            assertThat(row.failedReason()).as(where() + where + ": reason of " + child).isPresent();
            if (actual != JobState.UNKNOWN) {
                assertThat(actual).as(where() + where + ": " + child + " seen failed").isEqualTo(JobState.FAILED);
            }
        } else if (mustHaveEnded) {
            assertThat(row.state()).as(where() + where + ": " + child + " not ended").isIn(JobState.COMPLETED, JobState.FAILED);
        }
    }

    /** A job no remove or cancel reached ends as its own failure and its children's outcomes under their edges say. */
    private void checkOutcome(Spec spec, JobState state, Optional<Job<Step>> job, boolean ran) {
        String key = spec.key();
        assertThat(state).as(where() + key + " was neither removed nor cancelled, yet is gone").isNotEqualTo(JobState.UNKNOWN);
        if (spec.expires()) {
            assertThat(state).as(where() + key + " had a deadline already past at its add").isEqualTo(JobState.FAILED);
            assertThat(job.flatMap(Job::failedReason)).as(where() + key + " reason").contains("expired");
            return;
        }
        boolean failedByChild = false;
        boolean continued = false;
        for (Map.Entry<String, ChildFailure> edge : spec.edges()) {
            boolean failed = childFailed(spec, edge.getKey());
            failedByChild |= failed && edge.getValue() == ChildFailure.FAIL_PARENT;
            continued |= failed && edge.getValue() == ChildFailure.CONTINUE;
        }
        JobState own = spec.fails() ? JobState.FAILED : JobState.COMPLETED;
        if (ran) {
            assertThat(state).as(where() + key + " ran, so it ends as its own outcome").isEqualTo(own);
            if (spec.fails()) {
                assertThat(job.flatMap(Job::failedReason)).as(where() + key + " reason").contains("planned failure");
            } else {
                assertThat(job.flatMap(Job::returnValueJson)).as(where() + key + " value").contains("\"v-" + key + "\"");
            }
        }
        if (!continued) {
            assertThat(ran).as(where() + key + " ran although a FAIL_PARENT child failed (or did not run although none did)")
                    .isEqualTo(!failedByChild);
            assertThat(state).as(where() + key + " outcome").isEqualTo(failedByChild ? JobState.FAILED : own);
        } else if (!ran) {
            assertThat(failedByChild).as(where() + key + " did not run though a CONTINUE child failed").isTrue();
        }
    }

    /** Whether a child ended failed for its parent: failed, or gone before it ended, as the parent's copy says. */
    private boolean childFailed(Spec parent, String child) {
        JobState state = state(child);
        if (state == JobState.FAILED) {
            return true;
        }
        if (state == JobState.COMPLETED) {
            return false;
        }
        if (state(parent.key()) != JobState.UNKNOWN) {
            for (ChildResult r : byName.get(queueOf(parent.key())).getChildren(idOf(parent.key()), null, 1000)) {
                if ((r.queue() + ":" + r.id()).equals(child)) {
                    return r.state() != JobState.COMPLETED;
                }
            }
        }
        // Not listed: dropped by a REMOVE edge, which only a failed child is.
        return true;
    }

    private void count(String what) {
        tally.merge(what, 1, Integer::sum);
    }

    private static ChildFailure policy(Spec spec, String child) {
        return spec.edges().stream().filter(e -> e.getKey().equals(child)).map(Map.Entry::getValue).findFirst().orElse(null);
    }

    /** The targets of removes and cancels and every job below them. */
    private Set<String> touched() {
        Set<String> out = new HashSet<>();
        targets.keySet().forEach(t -> {
            out.add(t);
            out.addAll(descendants(t));
        });
        return out;
    }

    private Set<String> descendants(String key) {
        Set<String> out = new HashSet<>();
        List<String> todo = new ArrayList<>(List.of(key));
        while (!todo.isEmpty()) {
            Spec s = specs.get(todo.remove(todo.size() - 1));
            if (s == null) {
                continue;
            }
            for (Map.Entry<String, ChildFailure> e : s.edges()) {
                if (out.add(e.getKey())) {
                    todo.add(e.getKey());
                }
            }
        }
        return out;
    }

    private JobState state(String key) {
        return byName.get(queueOf(key)).getState(idOf(key));
    }

    private static boolean ended(JobState state) {
        return state == JobState.COMPLETED || state == JobState.FAILED || state == JobState.UNKNOWN;
    }

    private static String key(JobNode node) {
        return node.queue() + ":" + node.id();
    }

    private static String queueOf(String key) {
        return key.substring(0, key.indexOf(':'));
    }

    private static String idOf(String key) {
        return key.substring(key.indexOf(':') + 1);
    }

    private String where() {
        return "seed " + seed + ", ops " + ops + ": ";
    }
}
