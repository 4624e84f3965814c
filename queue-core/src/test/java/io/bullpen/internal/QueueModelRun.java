package io.bullpen.internal;

import static io.bullpen.internal.QueueModelTest.HISTORY;
import static io.bullpen.internal.QueueModelTest.LOCK_MS;
import static io.bullpen.internal.QueueModelTest.MAX_ELAPSED_MS;
import static io.bullpen.internal.QueueModelTest.MAX_JOBS;
import static io.bullpen.internal.QueueModelTest.STEPS;
import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.JobLockedException;
import io.bullpen.JobNotFoundException;
import io.bullpen.JobState;
import io.bullpen.JobStateException;
import io.bullpen.Retention;
import io.bullpen.internal.QueueModelTypes.Fetch;
import io.bullpen.internal.QueueModelTypes.Options;
import io.bullpen.internal.QueueModelTypes.Outcome;
import io.bullpen.internal.QueueModelTypes.State;
import io.bullpen.internal.QueueModelTypes.Taken;
import io.bullpen.internal.ScriptTypes.AddResult;
import io.bullpen.internal.ScriptTypes.FetchArgs;
import io.bullpen.internal.ScriptTypes.FetchResult;
import io.bullpen.internal.ScriptTypes.Finish;
import io.bullpen.internal.ScriptTypes.FinishResult;
import io.bullpen.internal.ScriptTypes.NewJob;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import io.bullpen.testing.SettableClock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.awaitility.Awaitility;

/** One seeded run of {@link QueueModelTest}: the random source, both sides and the history of operations. */
final class QueueModelRun {
    final long seed;
    final BullpenTestContext ctx;
    final QueueModelRandom rnd;
    final String queue;
    final Scripts scripts;
    final CancelScripts cancels;
    final JobChangeScripts changes;
    final SettableClock clock;
    final long start;
    final QueueModel model = new QueueModel(LOCK_MS);
    final Deque<String> history = new ArrayDeque<>();
    /** Every id ever seen, in first-seen order (targets for remove/promote/retry). */
    final List<String> knownIds = new ArrayList<>();
    /** How often each kind of operation and outcome happened, printed after the run. */
    final Map<String, Integer> tally = new TreeMap<>();
    /** The idle workers and the liveness check. */
    final QueueModelLiveness liveness;
    /**
     * Redis's clock (epoch ms, this host's) after which the queue limit a limited outcome set has
     * passed, -1 for none: every take but the limiting finish's own waits for it, so the model
     * knows the take deletes it.
     */
    long limitedUntilReal = -1;
    /** Whether the model said, just before the last take, that it would get a job. */
    boolean takeMayRun;
    int maxJobs;
    int step;
    String op = "(none)";

    QueueModelRun(long seed, BullpenTestContext ctx) {
        this.seed = seed;
        this.ctx = ctx;
        this.rnd = new QueueModelRandom(seed);
        this.queue = ctx.queueName();
        // A small events cap: the stream is read by every snapshot but not checked here.
        this.scripts = new Scripts(ctx.redisson(), new KeyScheme("bp", queue));
        this.cancels = new CancelScripts(ctx.redisson(), new KeyScheme("bp", queue));
        this.changes = new JobChangeScripts(ctx.redisson(), new KeyScheme("bp", queue));
        Futures.join(scripts.setQueueSettings(10));
        this.clock = ctx.clock();
        this.start = clock.millis();
        this.liveness = new QueueModelLiveness(this);
    }

    void run() {
        for (step = 1; step <= STEPS; step++) {
            op = "?";
            try {
                randomOp();
                record();
                checkState();
                liveness.check();
            } catch (AssertionError e) {
                throw e;
            } catch (RuntimeException e) {
                throw new AssertionError(where() + "unexpected exception: " + e, e);
            }
            maxJobs = Math.max(maxJobs, model.jobs().size());
        }
        System.out.println("QueueModelTest seed=" + seed + ": " + STEPS + " steps, max jobs " + maxJobs + ", "
                + (clock.millis() - start) + " ms of clock, " + model.retentionDeleted + " deleted by retention, "
                + model.promotedByFetch + " promoted by fetches, " + model.expiredByFetch + " expired, tally " + tally);
    }

    void count(String what) {
        tally.merge(what, 1, Integer::sum);
    }

    // ------------------------------------------------------------ operations

    void randomOp() {
        if (rnd.nextInt(100) < 10) {
            changeJob();
            return;
        }
        if (rnd.nextInt(100) < 15) {
            liveness.act();
            return;
        }
        if (rnd.nextInt(100) < 2) {
            // A quiet gap: nothing happens for 5-60 s, then the run goes on.
            advance(5_000 + rnd.nextInt(55_001));
            return;
        }
        int r = rnd.nextInt(100);
        if (r < 10) {
            addOne();
        } else if (r < 16) {
            addCoalesced();
        } else if (r < 22) {
            addBulk();
        } else if (r < 36) {
            take(1 + rnd.nextInt(3));
        } else if (r < 48) {
            finishHeld(true, false, 0);
        } else if (r < 58) {
            finishHeld(false, rnd.nextInt(100) < 15, 0);
        } else if (r < 68) {
            boolean ok = rnd.nextBoolean();
            finishHeld(ok, !ok && rnd.nextInt(100) < 15, 1 + rnd.nextInt(2));
        } else if (r < 70) {
            limitHeld(rnd.nextBoolean() ? 0 : 1 + rnd.nextInt(2));
        } else if (r < 75) {
            if (rnd.nextInt(100) < 40) {
                cancel(pickId(rnd.nextBoolean() ? State.ACTIVE : State.WAITING));
            } else {
                remove(pickId(null));
            }
        } else if (r < 82) {
            promote(pickId(State.DELAYED));
        } else if (r < 88) {
            retry(pickId(State.FAILED));
        } else if (r < 89) {
            pause(true);
        } else if (r < 93) {
            pause(false);
        } else {
            advance(rnd.roundOr(rnd.nextInt(3001), 0, 500, 1000, 1500));
        }
    }

    long now() {
        return clock.millis();
    }

    void addOne() {
        if (model.jobs().size() >= MAX_JOBS) {
            remove(pickId(null));
            return;
        }
        add(List.of(rnd.options(System.currentTimeMillis())));
    }

    void addBulk() {
        if (model.jobs().size() >= MAX_JOBS) {
            remove(pickId(null));
            return;
        }
        int n = 2 + rnd.nextInt(3);
        List<Options> specs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            specs.add(rnd.options(System.currentTimeMillis()));
        }
        add(specs);
    }

    /** 1-4 single adds in one addCoalesced call: each as if added by a call of its own, in order. */
    void addCoalesced() {
        if (model.jobs().size() >= MAX_JOBS) {
            remove(pickId(null));
            return;
        }
        int n = 1 + rnd.nextInt(4);
        List<Options> specs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            specs.add(rnd.options(System.currentTimeMillis()));
        }
        long now = now();
        op = "addCoalesced@" + rel(now) + " " + specs.stream().map(QueueModelRandom::describe).toList();
        List<NewJob> jobs = specs.stream().map(o -> o.toNewJob("job")).toList();
        List<String> noTrace = new ArrayList<>();
        jobs.forEach(j -> noTrace.add(null));
        long redisBefore = System.currentTimeMillis();
        List<AddResult> actual = Futures.join(scripts.addCoalesced(now, jobs, noTrace)).stream()
                .map(o -> {
                    assertThat(o.error()).as(desc("addCoalesced outcome")).isNull();
                    return o.result();
                }).toList();
        long redisAfter = System.currentTimeMillis();
        List<AddResult> expected = new ArrayList<>();
        for (Options spec : specs) {
            expected.addAll(model.add(now, List.of(spec)));
        }
        learnDeadlines(redisBefore, redisAfter);
        op += " -> " + actual;
        assertThat(actual).as(desc("addCoalesced results")).isEqualTo(expected);
        for (AddResult a : actual) {
            see(a.id());
            count(a.added() ? "add" : a.deduplicated() ? "add.deduplicated" : "add.duplicate");
        }
    }

    void add(List<Options> specs) {
        long now = now();
        op = "add" + (specs.size() > 1 ? "Bulk" : "") + "@" + rel(now) + " " + specs.stream().map(QueueModelRandom::describe).toList();
        List<NewJob> jobs = specs.stream().map(o -> o.toNewJob("job")).toList();
        long redisBefore = System.currentTimeMillis();
        List<AddResult> actual = Futures.join(scripts.addJob(now, jobs));
        long redisAfter = System.currentTimeMillis();
        List<AddResult> expected = model.add(now, specs);
        learnDeadlines(redisBefore, redisAfter);
        op += " -> " + actual;
        assertThat(actual).as(desc("addJob results")).isEqualTo(expected);
        for (AddResult a : actual) {
            see(a.id());
            count(a.added() ? "add" : a.deduplicated() ? "add.deduplicated" : "add.duplicate");
        }
    }

    FetchArgs fetch(int count) {
        return new FetchArgs(count, "w", LOCK_MS, "worker-1", QueueModel.PROMOTE_LIMIT, 100, 1);
    }

    void take(int count) {
        // Take-ahead: the jobs held ahead come in the same take order after the
        // slots' ones, leased like them (the queue has no limit, so the ahead counts).
        int ahead = rnd.nextInt(100) < 30 ? 1 + rnd.nextInt(3) : 0;
        take(count, ahead, "");
    }

    /**
     * How far from Redis's time (ms) no expiry deadline may be when a fetch is sent: the fetch's
     * TIME lies within the call, well within this, so the model knows which deadlines it passed.
     */
    static final long DEADLINE_CLEARANCE_MS = 1000;

    /**
     * Before a fetch: waits (real time) until no expiry deadline lies within a few ms before or
     * {@link #DEADLINE_CLEARANCE_MS} after Redis's time; returns that time (this host's clock is
     * Redis's). Every deadline at or before it has passed for the fetch, every later one has not.
     */
    long clearOfDeadlines() {
        while (true) {
            long t = System.currentTimeMillis();
            long near = model.expiry.values().stream().mapToLong(Long::longValue)
                    .filter(d -> d >= t - 5 && d <= t + DEADLINE_CLEARANCE_MS).max().orElse(-1);
            if (near < 0) {
                return t;
            }
            count("expiry.waitedForDeadline");
            Awaitility.await().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1)).atMost(Duration.ofSeconds(5))
                    .until(() -> System.currentTimeMillis() > near + 6);
        }
    }

    /** The expireAfter deadlines the last call set: read back, each within the call's Redis time + its delay. */
    void learnDeadlines(long redisBefore, long redisAfter) {
        if (model.pendingDeadlines.isEmpty()) {
            return;
        }
        QueueSnapshot s = ctx.snapshot(queue);
        model.pendingDeadlines.forEach((id, fromNow) -> {
            String xp = s.job(id).get("xp");
            assertThat(xp).as(desc("expireAfter deadline of " + id)).isNotNull();
            long deadline = Long.parseLong(xp);
            assertThat(deadline).as(desc("expireAfter deadline of " + id + ": Redis's time in the call + " + fromNow))
                    .isBetween(redisBefore + fromNow, redisAfter + fromNow);
            model.deadline(id, deadline);
        });
        model.pendingDeadlines.clear();
    }

    /** moveToActive as a worker calls it, against the model; returns the script's reply. */
    FetchResult take(int count, int ahead, String who) {
        awaitLimitPassed();
        long redisNow = clearOfDeadlines();
        long now = now();
        takeMayRun = model.runnable(now, redisNow);
        op = who + "moveToActive@" + rel(now) + " count=" + count + " ahead=" + ahead;
        FetchResult actual = Futures.join(scripts.moveToActive(now, fetch(count).withAhead(ahead)));
        long redisAfter = System.currentTimeMillis();
        // While meta holds limitedUntil the take ignores ahead; a take deletes it once passed.
        int modelAhead = model.limitedUntilSet ? 0 : ahead;
        int expiredBefore = model.expiredByFetch;
        Fetch expected = model.moveToActive(now, redisNow, count + modelAhead);
        if (model.expiredByFetch > expiredBefore) {
            count("expired.byTake");
        }
        takeDeletesPassedLimit();
        if (modelAhead > 0 && expected.jobs().size() >= count) {
            // The wake times go only to a worker whose slots were not all filled.
            expected = new Fetch(expected.jobs(), -1, -1);
        }
        op += " -> " + taken(actual);
        count("take." + actual.jobs().size() + (model.isPaused() ? ".paused" : ""));
        assertFetch("moveToActive", actual, expected, redisNow, redisAfter);
        return actual;
    }

    /** Before a take: the queue limit a limited outcome set has passed on Redis's clock (a few ms at most). */
    void awaitLimitPassed() {
        if (limitedUntilReal >= 0) {
            long until = limitedUntilReal;
            Awaitility.await().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1)).atMost(Duration.ofSeconds(5))
                    .until(() -> System.currentTimeMillis() > until + 1);
            limitedUntilReal = -1;
        }
    }

    /** A take that got past the pause check deleted a passed limitedUntil. */
    void takeDeletesPassedLimit() {
        if (!model.isPaused() && limitedUntilReal < 0) {
            model.limitedUntilSet = false;
        }
    }

    void finishHeld(boolean ok, boolean unrecoverable, int nextCount) {
        List<String> held = new ArrayList<>(model.active());
        if (held.isEmpty()) {
            take(1 + rnd.nextInt(3));
            return;
        }
        String id = held.get(rnd.nextInt(held.size()));
        QueueModel.Job job = model.job(id);
        Options o = job.opts;
        long now = now();
        // The dedup id as a worker passes it: from the options it read at take.
        // The outcome as a worker decides it, from the attempts made at take.
        int attemptsMade = job.attemptsMade + 1;
        Retention retention = ok ? o.onComplete() : o.onFail();
        Finish finish = ok
                ? new Finish.Completed(id, model.lockToken(id), attemptsMade, "\"done\"", retention, null, o.dedupId(),
                        null, 0)
                : unrecoverable || attemptsMade >= o.attempts()
                ? new Finish.Failed(id, model.lockToken(id), attemptsMade, "boom", "trace", 3, retention, null,
                        o.dedupId(), null, 0)
                : new Finish.Retry(id, model.lockToken(id), attemptsMade, "boom", "trace", 3, o.backoffMs(), o.lifo(),
                        null, null, retention, o.dedupId(), 0);
        op = "moveToFinished@" + rel(now) + " " + (ok ? "complete " : unrecoverable ? "fail(unrecoverable) " : "fail ")
                + job + " retention=" + retention + " next=" + nextCount;
        if (nextCount > 0) {
            awaitLimitPassed();
        }
        long redisNow = nextCount > 0 ? clearOfDeadlines() : System.currentTimeMillis();
        FinishResult actual = Futures.join(scripts.moveToFinished(now, fetch(nextCount), finish));
        long redisAfter = System.currentTimeMillis();
        List<Fetch> next = new ArrayList<>();
        String expectedState = model.finish(now, redisNow, id, ok, unrecoverable, nextCount, next);
        if (nextCount > 0) {
            takeDeletesPassedLimit();
        }
        op += " -> " + actual.state().label() + " " + taken(actual.next());
        count("finish." + actual.state().label() + (nextCount > 0 ? "+next" + actual.next().jobs().size() : ""));
        assertThat(actual.state()).as(desc("moveToFinished target state")).isEqualTo(JobState.fromLabel(expectedState));
        if (nextCount > 0) {
            assertFetch("moveToFinished next", actual.next(), next.get(0), redisNow, redisAfter);
        } else {
            assertThat(actual.next().jobs()).as(desc("moveToFinished without fetch")).isEmpty();
            assertThat(actual.next().nextDelayedDue()).as(desc("nextDelayedDue without fetch")).isEqualTo(-1);
            assertThat(actual.next().nextLeaseExpiry()).as(desc("nextLeaseExpiry without fetch")).isEqualTo(-1);
        }
    }

    /**
     * A held job's processor threw RateLimitedException with a delay of 1-40 ms (queue scope):
     * the job goes back to the front of its line and the queue waits that long on Redis's clock,
     * within the take's booking horizon, so a take in the same call still gets jobs.
     */
    void limitHeld(int nextCount) {
        List<String> held = new ArrayList<>(model.active());
        if (held.isEmpty()) {
            take(1 + rnd.nextInt(3));
            return;
        }
        String id = held.get(rnd.nextInt(held.size()));
        QueueModel.Job job = model.job(id);
        long delayMs = 1 + rnd.nextInt(40);
        long redisNow = nextCount > 0 ? clearOfDeadlines() : System.currentTimeMillis();
        long now = now();
        op = "moveToFinished@" + rel(now) + " limited " + delayMs + "ms " + job + " next=" + nextCount;
        FinishResult actual = Futures.join(scripts.moveToFinished(now, fetch(nextCount),
                Finish.limited(id, model.lockToken(id), delayMs, false)));
        long redisAfter = System.currentTimeMillis();
        long limitPassedAt = redisAfter + delayMs;
        List<Fetch> next = new ArrayList<>();
        String expectedState = model.limited(now, redisNow, id, nextCount, next);
        if (!expectedState.equals("failed")) {
            // A cancelled job fails instead and sets no limit.
            limitedUntilReal = Math.max(limitedUntilReal, limitPassedAt);
        }
        op += " -> " + actual.state().label() + " " + taken(actual.next());
        count("limited." + actual.state().label() + (nextCount > 0 ? "+next" + actual.next().jobs().size() : ""));
        assertThat(actual.state()).as(desc("limited outcome's target state")).isEqualTo(JobState.fromLabel(expectedState));
        if (nextCount > 0) {
            assertFetch("moveToFinished (limited) next", actual.next(), next.get(0), redisNow, redisAfter);
        }
    }

    /**
     * The fetch's reply against the model's. Its next due time also covers the earliest expiry
     * deadline, moved from Redis's clock to the caller's (now + deadline - Redis's time in the
     * call, which lies in [redisBefore, redisAfter]).
     */
    void assertFetch(String what, FetchResult actual, Fetch expected, long redisBefore, long redisAfter) {
        List<Taken> got = actual.jobs().stream().map(j -> new Taken(j.id(), j.lockToken())).toList();
        assertThat(got).as(desc(what + " jobs taken (id, lock token)")).isEqualTo(expected.jobs());
        for (RawJob j : actual.jobs()) {
            assertThat(j.hash()).as(desc(what + " returned hash of " + j.id()))
                    .containsEntry("fence", j.lockToken().substring(2))
                    .containsEntry("pb", "worker-1");
        }
        if (expected.nextExpiry() < 0) {
            assertThat(actual.nextDelayedDue()).as(desc(what + " nextDelayedDue")).isEqualTo(expected.nextDelayedDue());
        } else {
            long due = expected.nextDelayedDue();
            long lo = now() + expected.nextExpiry() - redisAfter;
            long hi = now() + expected.nextExpiry() - redisBefore;
            long wake = actual.nextDelayedDue();
            boolean delayedFirst = due >= 0 && wake == due && due <= hi;
            boolean expiryFirst = wake >= lo && wake <= hi && (due < 0 || wake <= due);
            assertThat(delayedFirst || expiryFirst).as(desc(what + " nextDelayedDue " + wake + ": the delayed due " + due
                    + " or the expiry deadline " + expected.nextExpiry() + " on the caller's clock, in [" + lo + ", " + hi
                    + "], whichever is first")).isTrue();
        }
        // Leases are on Redis's clock, which the model cannot predict to the ms: the script moves
        // the earliest one to the caller's clock, so it lies within one lock duration of now.
        if (expected.nextLeaseExpiry() < 0) {
            assertThat(actual.nextLeaseExpiry()).as(desc(what + " nextLeaseExpiry")).isEqualTo(-1);
        } else {
            assertThat(actual.nextLeaseExpiry()).as(desc(what + " nextLeaseExpiry"))
                    .isGreaterThan(now()).isLessThanOrEqualTo(now() + LOCK_MS);
        }
    }

    void remove(String id) {
        op = "removeJob " + id + " " + state(id);
        Outcome expected = model.remove(id);
        Outcome actual;
        try {
            actual = Futures.join(scripts.removeJob(id)) ? Outcome.OK : Outcome.NOT_FOUND;
        } catch (JobLockedException e) {
            actual = Outcome.LOCKED;
        }
        checkOutcome("removeJob", actual, expected);
    }

    void cancel(String id) {
        long now = now();
        String reason = "r" + rnd.nextInt(3);
        op = "cancelJob@" + rel(now) + " " + id + " " + state(id) + " reason=" + reason;
        io.bullpen.CancelResult expected = model.cancel(now, id, reason);
        io.bullpen.CancelResult actual = Futures.join(cancels.cancelJob(now, id, reason));
        checkOutcome("cancelJob", actual, expected);
    }

    void promote(String id) {
        op = "promote " + id + " " + state(id);
        Outcome expected = model.promote(id);
        long redisBefore = System.currentTimeMillis();
        Outcome actual = outcomeOf(() -> scripts.promote(id));
        learnDeadlines(redisBefore, System.currentTimeMillis());
        checkOutcome("promote", actual, expected);
    }

    /** changeDelay, changePriority or updateData, aimed mostly at jobs they apply to. */
    void changeJob() {
        int kind = rnd.nextInt(3);
        String id = pickId(kind == 0 ? State.DELAYED : kind == 1 ? (rnd.nextBoolean() ? State.WAITING
                : State.PRIORITIZED) : null);
        String name = kind == 0 ? "changeDelay" : kind == 1 ? "changePriority" : "updateData";
        long delayMs = rnd.nextInt(4) == 0 ? 0 : rnd.roundOr(rnd.nextInt(3001), 1, 500, 1000);
        int priority = rnd.nextInt(3) == 0 ? 0 : 1 + rnd.nextInt(5);
        String data = "{\"v\":" + step + "}";
        long now = now();
        op = name + " " + id + " " + state(id) + (kind == 0 ? " delay=" + delayMs : kind == 1 ? " priority=" + priority : "");
        Outcome expected = kind == 0 ? model.changeDelay(now, id, delayMs)
                : kind == 1 ? model.changePriority(id, priority) : model.updateData(id, data);
        long redisBefore = System.currentTimeMillis();
        Outcome actual = outcomeOf(() -> kind == 0 ? changes.changeDelay(now, id, delayMs)
                : kind == 1 ? changes.changePriority(id, priority) : changes.updateData(id, data));
        learnDeadlines(redisBefore, System.currentTimeMillis());
        checkOutcome(name, actual, expected);
    }

    /** An admin call's outcome as the model names it: its domain errors are NOT_FOUND / NOT_IN_STATE. */
    private static Outcome outcomeOf(Supplier<CompletionStage<?>> call) {
        try {
            Futures.join(call.get());
            return Outcome.OK;
        } catch (JobNotFoundException e) {
            return Outcome.NOT_FOUND;
        } catch (JobStateException e) {
            return Outcome.NOT_IN_STATE;
        }
    }

    void retry(String id) {
        op = "retryJob(FAILED) " + id + " " + state(id);
        Outcome expected = model.retryFailed(id);
        Outcome actual = outcomeOf(() -> scripts.retryJob(id, JobState.FAILED));
        checkOutcome("retryJob", actual, expected);
    }

    /** Records an operation's outcome in the history and the tally, and compares it with the model's. */
    void checkOutcome(String call, Object actual, Object expected) {
        op += " -> " + actual;
        count(call + "." + actual);
        assertThat(actual).as(desc(call + " outcome")).isEqualTo(expected);
    }

    void pause(boolean pause) {
        op = pause ? "pause" : "resume";
        boolean actual = Futures.join(scripts.pause(pause));
        boolean expected = model.pause(pause);
        op += " -> changed=" + actual;
        assertThat(actual).as(desc(op + " changed")).isEqualTo(expected);
    }

    void advance(long ms) {
        long by = Math.max(0, Math.min(ms, start + MAX_ELAPSED_MS - now()));
        clock.advance(Duration.ofMillis(by));
        op = "advance " + by + "ms -> @" + rel(now());
    }

    /** An id to aim at: often one in {@code preferred}, else any id ever seen, sometimes an unknown one. */
    String pickId(State preferred) {
        if (preferred != null && rnd.nextBoolean()) {
            List<String> ids = model.idsIn(preferred);
            if (!ids.isEmpty()) {
                return ids.get(rnd.nextInt(ids.size()));
            }
        }
        int r = rnd.nextInt(100);
        if (r < 10 || knownIds.isEmpty()) {
            return rnd.nextBoolean() ? "c-" + rnd.nextInt(12) : Integer.toString(900_000 + rnd.nextInt(10));
        }
        if (r < 55) {
            // Bias towards ids that still exist.
            List<String> live = new ArrayList<>(model.jobs().keySet());
            if (!live.isEmpty()) {
                return live.get(rnd.nextInt(live.size()));
            }
        }
        return knownIds.get(rnd.nextInt(knownIds.size()));
    }

    void see(String id) {
        if (!knownIds.contains(id)) {
            knownIds.add(id);
        }
    }

    String state(String id) {
        QueueModel.Job j = model.job(id);
        return j == null ? "(model: absent)" : "(model: " + j + ")";
    }

    static String taken(FetchResult f) {
        return "taken=" + f.jobs().stream().map(j -> j.id() + "/" + j.lockToken()).toList()
                + " nextDue=" + f.nextDelayedDue() + " nextLease=" + f.nextLeaseExpiry();
    }

    /** Time relative to the run's start, to keep messages short. */
    String rel(long now) {
        return "+" + (now - start);
    }

    // ------------------------------------------------------------ checks

    void checkState() {
        QueueModelState.assertMatches(ctx, queue, scripts, model, this::desc);
    }

    void record() {
        history.addLast(step + ": " + op);
        while (history.size() > HISTORY) {
            history.removeFirst();
        }
    }

    String where() {
        return "seed=" + seed + " step=" + step + " op=" + op + "\nlast ops (oldest first):\n  "
                + String.join("\n  ", history) + "\n";
    }

    Supplier<String> desc(String what) {
        return () -> where() + "check: " + what;
    }
}
