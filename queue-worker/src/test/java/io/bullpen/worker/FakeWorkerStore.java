package io.bullpen.worker;

import io.bullpen.CancelResult;
import io.bullpen.JobOptions;
import io.bullpen.JobState;
import io.bullpen.LockLostException;
import io.bullpen.internal.JobFields;
import io.bullpen.internal.JsonCodec;
import io.bullpen.internal.ScriptTypes.FetchArgs;
import io.bullpen.internal.ScriptTypes.FetchResult;
import io.bullpen.internal.ScriptTypes.Finish;
import io.bullpen.internal.ScriptTypes.FinishBatchResult;
import io.bullpen.internal.ScriptTypes.FinishOutcome;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.internal.ScriptTypes.SchedulerUpdate;
import io.bullpen.internal.ScriptTypes.StalledResult;
import io.bullpen.internal.ScriptTypes.Started;
import io.bullpen.internal.SmallClient;
import io.bullpen.internal.WorkerScripts.Beat;
import io.bullpen.internal.WorkerScripts.Pulse;
import io.bullpen.flow.ChildResult;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link WorkerStore} in memory, for tests of the worker's threads and timing: no Redis. It is
 * not a second implementation of the scripts: a job is ready, active (with its lock token) or
 * settled, and every call is recorded for the test to assert on. Its replies complete on the
 * calling thread, or later when a test holds a kind of call ({@link #holdFinishes}).
 */
final class FakeWorkerStore implements WorkerStore {
    /** A recorded call: its kind ({@code take}, {@code finish}, {@code handBack}, ...) and what it carried. */
    record Call(String kind, Object detail) {
    }

    /** A result the worker recorded. */
    record Recorded(String jobId, JobState state, Finish finish, long startedOn) {
    }

    private final Object lock = new Object();
    private final Deque<RawJob> ready = new ArrayDeque<>(); // guarded by lock
    private final Map<String, String> active = new LinkedHashMap<>(); // id -> lock token; guarded by lock
    private final Map<String, String> cancels = new HashMap<>(); // guarded by lock
    /** The token and state of each job's last accepted result: a repeat is answered with the state. */
    private final Map<String, Map.Entry<String, JobState>> finishedLock = new HashMap<>(); // guarded by lock
    private final AtomicInteger fence = new AtomicInteger();
    final List<Call> calls = new CopyOnWriteArrayList<>();
    final List<Recorded> finished = new CopyOnWriteArrayList<>();
    final List<String> handedBack = new CopyOnWriteArrayList<>();
    final List<String> startedNotes = new CopyOnWriteArrayList<>();
    final List<Integer> finishBatchSizes = new CopyOnWriteArrayList<>();
    /** Finish calls held back by {@link #holdFinishes}, released by {@link #releaseFinishes}. */
    private final List<Runnable> heldFinishes = new ArrayList<>(); // guarded by lock
    private boolean holdFinishes; // guarded by lock
    /** When >= 0: how many jobs each take gives beyond its count, whatever it asked for ahead. */
    private volatile int aheadGiven = -1;
    private final FakeMarker marker = new FakeMarker();
    /** What heartbeats answer as the queue's earliest lease expiry (epoch ms; -1 = none). */
    private volatile long nextLeaseExpiry = -1;
    /** Jobs added without a signal (as a crashed worker's job whose lease expires: nothing announces it). */
    private final Deque<RawJob> silent = new ArrayDeque<>(); // guarded by lock

    // --- the test's side ---

    /** Adds a ready job with data {@code "d"} and these options, and signals the marker. */
    String add(String id, JobOptions options) {
        return add(id, options, Map.of());
    }

    /** Adds a ready job with more fields in its hash (such as the take's {@code startIn}). */
    String add(String id, JobOptions options, Map<String, String> fields) {
        Map<String, String> hash = new HashMap<>(fields);
        hash.put(JobFields.NAME, "test");
        hash.put(JobFields.DATA, "\"d\"");
        hash.put(JobFields.OPTS, JsonCodec.encodeOptions(options));
        hash.put(JobFields.ATTEMPTS_MADE, "0");
        synchronized (lock) {
            ready.add(new RawJob(id, Map.copyOf(hash), null));
        }
        marker.signal();
        return id;
    }

    String add(String id) {
        return add(id, JobOptions.defaults());
    }

    /** Adds a ready job whose data cannot be read. */
    void addUnreadable(String id) {
        synchronized (lock) {
            // Attempts to spare: an unreadable job must fail for good all the same.
            ready.add(new RawJob(id, Map.of(JobFields.NAME, "test", JobFields.DATA, "{not json",
                    JobFields.OPTS, JsonCodec.encodeOptions(JobOptions.builder().attempts(5).build()),
                    JobFields.ATTEMPTS_MADE, "0"), null));
        }
        marker.signal();
    }

    /**
     * A job comes back when a lease nobody renews expires at {@code expiresAt}: heartbeats report the
     * expiry, and the job is ready from then on, with no signal on the marker.
     */
    void leaseExpiresAt(String id, long expiresAt) {
        Map<String, String> hash = Map.of(JobFields.NAME, "test", JobFields.DATA, "\"d\"", JobFields.ATTEMPTS_MADE, "0");
        synchronized (lock) {
            silent.add(new RawJob(id, hash, null));
        }
        nextLeaseExpiry = expiresAt;
    }

    /** The job's lock goes to nobody: renewals and finishes with its token are refused. */
    void loseLock(String id) {
        synchronized (lock) {
            active.remove(id);
        }
    }

    /** A producer cancels the job ({@code Queue.cancel}): {@link #checkCancels} reports it. */
    void cancelFromProducer(String id, String reason) {
        synchronized (lock) {
            cancels.put(id, reason);
        }
    }

    /** From now on, finish calls get no reply until {@link #releaseFinishes}. */
    void holdFinishes() {
        synchronized (lock) {
            holdFinishes = true;
        }
    }

    /** Replies to every finish call held back, and stops holding them. */
    void releaseFinishes() {
        List<Runnable> replies;
        synchronized (lock) {
            holdFinishes = false;
            replies = new ArrayList<>(heldFinishes);
            heldFinishes.clear();
        }
        replies.forEach(Runnable::run);
    }

    /**
     * Each take from now gives up to {@code n} jobs beyond its count, as a reply to a take-ahead
     * request does (the worker buffers them), whatever the worker's adaptive target asked for.
     */
    void giveAhead(int n) {
        aheadGiven = n;
    }

    int readyCount() {
        synchronized (lock) {
            return ready.size();
        }
    }

    int activeCount() {
        synchronized (lock) {
            return active.size();
        }
    }

    long count(String kind) {
        return calls.stream().filter(c -> c.kind().equals(kind)).count();
    }

    FakeMarker marker() {
        return marker;
    }

    // --- the worker's side ---

    @Override
    public CompletionStage<FetchResult> take(long now, FetchArgs args) {
        calls.add(new Call("take", args));
        synchronized (lock) {
            return CompletableFuture.completedFuture(new FetchResult(takeLocked(args), -1, -1));
        }
    }

    private List<RawJob> takeLocked(FetchArgs args) {
        long expiry = nextLeaseExpiry;
        if (expiry >= 0 && System.currentTimeMillis() >= expiry) {
            ready.addAll(silent);
            silent.clear();
            nextLeaseExpiry = -1;
        }
        List<RawJob> out = new ArrayList<>();
        int ahead = aheadGiven >= 0 ? aheadGiven : args.ahead();
        while (out.size() < args.count() + ahead && !ready.isEmpty()) {
            RawJob job = ready.poll();
            String token = args.token() + ":" + fence.incrementAndGet();
            Map<String, String> hash = new HashMap<>(job.hash());
            if (out.size() >= args.count()) {
                hash.put(JobFields.AHEAD, "1");
            }
            active.put(job.id(), token);
            out.add(new RawJob(job.id(), Map.copyOf(hash), token));
        }
        return out;
    }

    @Override
    public CompletionStage<FinishBatchResult> finish(long now, FetchArgs next, List<Finish> finishes, long[] startedOn,
                                                     List<Started> started) {
        calls.add(new Call("finish", finishes));
        CompletableFuture<FinishBatchResult> reply = new CompletableFuture<>();
        Runnable answer = () -> {
            FinishBatchResult result;
            synchronized (lock) {
                finishBatchSizes.add(finishes.size());
                started.forEach(s -> startedNotes.add(s.jobId()));
                List<FinishOutcome> outcomes = new ArrayList<>();
                for (int i = 0; i < finishes.size(); i++) {
                    Finish f = finishes.get(i);
                    Map.Entry<String, JobState> last = finishedLock.get(f.jobId());
                    if (last != null && last.getKey().equals(f.lockToken())) {
                        outcomes.add(new FinishOutcome(last.getValue(), null));
                        continue;
                    }
                    if (!f.lockToken().equals(active.get(f.jobId()))) {
                        outcomes.add(new FinishOutcome(null, new LockLostException("fake", f.jobId(),
                                LockLostException.Reason.MISSING)));
                        continue;
                    }
                    active.remove(f.jobId());
                    JobState state = stateAfter(f);
                    finishedLock.put(f.jobId(), Map.entry(f.lockToken(), state));
                    finished.add(new Recorded(f.jobId(), state, f, startedOn == null ? 0 : startedOn[i]));
                    outcomes.add(new FinishOutcome(state, null));
                }
                result = new FinishBatchResult(outcomes, new FetchResult(takeLocked(next), -1, -1));
            }
            reply.complete(result);
        };
        boolean held;
        synchronized (lock) {
            held = holdFinishes;
            if (held) {
                heldFinishes.add(answer);
            }
        }
        if (!held) {
            answer.run();
        }
        return reply;
    }

    /** The state a job lands in, as the finish script would decide it for the outcome. */
    private static JobState stateAfter(Finish f) {
        if (f instanceof Finish.Completed) {
            return JobState.COMPLETED;
        }
        if (f instanceof Finish.Failed) {
            return JobState.FAILED;
        }
        if (f instanceof Finish.Retry retry) {
            return retry.delayMs() > 0 ? JobState.DELAYED : JobState.WAITING;
        }
        if (f instanceof Finish.Step) {
            return JobState.DELAYED;
        }
        if (f instanceof Finish.WaitChildren) {
            return JobState.WAITING_CHILDREN;
        }
        return JobState.WAITING;
    }

    @Override
    public int relayOutbox(int limit) {
        return 0;
    }

    @Override
    public void materializeFlow(String flowId) {
        calls.add(new Call("materializeFlow", flowId));
    }

    @Override
    public void refuseCycles(String parentId, Set<String> childRefs) {
    }

    @Override
    public void carryOnFlows(long olderThanMs, int limit) {
        calls.add(new Call("carryOnFlows", olderThanMs));
    }

    @Override
    public void reconcileFlows(long graceMs, int limit) {
        calls.add(new Call("reconcileFlows", graceMs));
    }

    @Override
    public List<ChildResult> children(String parentId, int pageSize) {
        return List.of();
    }

    @Override
    public int childrenCount(String parentId) {
        return 0;
    }

    @Override
    public CompletionStage<Void> handBack(String jobId, String lockToken, boolean started) {
        calls.add(new Call("handBack", jobId + (started ? " started" : "")));
        synchronized (lock) {
            if (lockToken == null || !lockToken.equals(active.get(jobId))) {
                return CompletableFuture.failedFuture(new LockLostException("fake", jobId,
                        LockLostException.Reason.MISSING));
            }
            active.remove(jobId);
            handedBack.add(jobId);
        }
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletionStage<List<String>> extendLocks(long now, long lockMs, Map<String, String> tokensById) {
        calls.add(new Call("extendLocks", Map.copyOf(tokensById)));
        List<String> lost = new ArrayList<>();
        synchronized (lock) {
            tokensById.forEach((id, token) -> {
                if (!token.equals(active.get(id))) {
                    lost.add(id);
                }
            });
        }
        return CompletableFuture.completedFuture(lost);
    }

    @Override
    public CompletionStage<StalledResult> recoverStalled(long now, int maxStalled, int limit) {
        calls.add(new Call("recoverStalled", limit));
        return CompletableFuture.completedFuture(new StalledResult(List.of(), List.of()));
    }

    @Override
    public CompletionStage<Map<String, String>> checkCancels(List<String> jobIds) {
        calls.add(new Call("checkCancels", List.copyOf(jobIds)));
        Map<String, String> out = new HashMap<>();
        synchronized (lock) {
            for (String id : jobIds) {
                if (cancels.containsKey(id)) {
                    out.put(id, cancels.get(id));
                }
            }
        }
        return CompletableFuture.completedFuture(out);
    }

    @Override
    public CompletionStage<CancelResult> cancel(long now, String jobId, String reason) {
        calls.add(new Call("cancel", jobId));
        synchronized (lock) {
            if (!active.containsKey(jobId)) {
                return CompletableFuture.completedFuture(CancelResult.NOT_FOUND);
            }
            cancels.put(jobId, reason);
        }
        return CompletableFuture.completedFuture(CancelResult.CANCEL_REQUESTED);
    }

    @Override
    public CompletionStage<Pulse> heartbeat(Beat beat, long ttlMs) {
        calls.add(new Call("heartbeat", beat));
        return CompletableFuture.completedFuture(new Pulse(System.currentTimeMillis(), nextLeaseExpiry, 0));
    }

    @Override
    public CompletionStage<Boolean> workerLeft(String name) {
        calls.add(new Call("workerLeft", name));
        return CompletableFuture.completedFuture(true);
    }

    @Override
    public CompletionStage<Void> updateProgress(String jobId, String progressJson) {
        calls.add(new Call("updateProgress", jobId + "=" + progressJson));
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletionStage<Long> addLog(String jobId, String line, int keep) {
        calls.add(new Call("addLog", jobId + ":" + line));
        return CompletableFuture.completedFuture(1L);
    }

    @Override
    public void advanceSchedulers(List<SchedulerUpdate> updates) {
        calls.add(new Call("advanceSchedulers", updates));
    }

    @Override
    public void register() {
        calls.add(new Call("register", null));
    }

    @Override
    public Marker openMarker(SmallClient.Connections events) {
        marker.events = events;
        return marker;
    }

    /**
     * The marker: a pop completes with "0" when a signal is (or becomes) there, with null at its
     * timeout. One signal wakes one pop, as BZPOPMIN does.
     */
    static final class FakeMarker implements Marker {
        private final Object lock = new Object();
        private final Deque<CompletableFuture<String>> pops = new ArrayDeque<>(); // guarded by lock
        private int signals; // guarded by lock
        final AtomicInteger putBacks = new AtomicInteger();
        final AtomicInteger handOvers = new AtomicInteger();
        final AtomicInteger popsSent = new AtomicInteger();
        volatile boolean closed;
        volatile SmallClient.Connections events;

        @Override
        public CompletableFuture<String> pop(Duration timeout) {
            popsSent.incrementAndGet();
            CompletableFuture<String> pop = new CompletableFuture<>();
            synchronized (lock) {
                if (signals > 0) {
                    signals--;
                    pop.complete("0");
                    return pop;
                }
                pops.add(pop);
            }
            CompletableFuture.delayedExecutor(timeout.toMillis(), TimeUnit.MILLISECONDS).execute(() -> {
                synchronized (lock) {
                    pops.remove(pop);
                }
                pop.complete(null);
            });
            return pop;
        }

        /** A job was added (or a signal put back): the longest-waiting pop takes it, or the next pop. */
        void signal() {
            CompletableFuture<String> pop;
            synchronized (lock) {
                pop = pops.poll();
                while (pop != null && pop.isDone()) {
                    pop = pops.poll();
                }
                if (pop == null) {
                    signals = Math.max(signals, 1); // a ZSET member: signals do not add up
                    return;
                }
            }
            pop.complete("0");
        }

        int pendingSignals() {
            synchronized (lock) {
                return signals;
            }
        }

        @Override
        public CompletionStage<?> putBack() {
            putBacks.incrementAndGet();
            signal();
            return CompletableFuture.completedFuture(true);
        }

        @Override
        public CompletionStage<?> handOver() {
            handOvers.incrementAndGet();
            signal();
            return CompletableFuture.completedFuture(true);
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
