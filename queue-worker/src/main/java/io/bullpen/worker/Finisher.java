package io.bullpen.worker;

import io.bullpen.JobNotFoundException;
import io.bullpen.JobState;
import io.bullpen.LockLostException;
import io.bullpen.internal.ScriptTypes.FetchResult;
import io.bullpen.internal.ScriptTypes.Finish;
import io.bullpen.internal.ScriptTypes.FinishBatchResult;
import io.bullpen.internal.ScriptTypes.FinishOutcome;
import io.bullpen.internal.ScriptTypes.FinishResult;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.internal.ScriptTypes.Started;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records every attempt's outcome (completed, failed, timed out, unreadable) and hands back a
 * future of where it landed. Results go in batches (group commit): while moveToFinished calls
 * are under way (at most {@link #MAX_CALLS}; "in flight" is kept for attempts, see
 * {@link Slots}), the results that finish meanwhile queue up and go together in the next call,
 * which also takes one new job for each of them that wants one. A lone result goes out at once,
 * so batching adds no latency when the worker is not busy; under load the per-call costs (a
 * round trip, the script's entry, metrics, retention, the fetch's scans) are shared by the whole
 * batch.
 *
 * <p>The results of a batch's jobs ({@link #submitAll}) go together in one call, whatever their
 * number (never split; small batches queued together share a call up to {@link #MAX_BATCH}), so
 * a batch's reports take effect in one script call; once a call's
 * next jobs are handed out, {@code afterSettle} lets a batch worker form its batches.
 *
 * <p>A Redis error (not a rejection) is retried alone with backoff, up to {@link #MAX_RETRIES}
 * times; when the connection comes back, a result waiting out its backoff goes at once. A call
 * under way when the connection drops is sent again once it is back ({@link InFlightCalls}).
 * The token check detects a repeat: a record whose first call landed is answered with the job's
 * state (moveToFinished's {@code finishedLock}), so it counts as recorded, not as a lost lock. If
 * a result never lands, the lock expires and the job is recovered: at least once. Futures
 * complete on a Redis client thread (or the timer thread for a retry), so what follows them must
 * not block.
 *
 * <p>Take-ahead: each call also asks for the jobs the worker should hold beyond its
 * running ones ({@link Takes#reserveAhead}); those come after the slots' jobs in the reply
 * and go to the buffer. It carries a "started" record for each buffered job whose processor
 * started since the last call and is not finished in this one, and a taken-ahead job's result
 * carries when its processor started.
 */
final class Finisher {
    private static final Logger log = LoggerFactory.getLogger(Finisher.class);
    /** Bounds one script call's run time (Redis is blocked while it runs). */
    static final int MAX_BATCH = 50;
    /**
     * Two calls overlap: Redis runs one while this process handles the other's reply and runs its
     * jobs. Measured on 2 cores (no-op jobs, alternating runs on a quiet machine): processing at
     * concurrency 10 averaged ~9.6k jobs/s with 2 calls under way against ~8.1k with 1, at concurrency
     * 100 ~18k against ~14k; 3 was no better than 2.
     */
    static final int MAX_CALLS = 2;

    /** Tries after the first call failed with a Redis error. */
    static final int MAX_RETRIES = 8;

    /**
     * Where a result ended up, and the job its slot passes to.
     *
     * @param state the job's new state, null when {@code failure} is set
     * @param next the job taken for this slot, or null
     * @param failure why the result was not recorded: a rejection (lock lost, job gone) or a Redis
     *     error that outlasted the retries
     * @param retried the result went out more than once
     */
    record Settled(JobState state, RawJob next, Throwable failure, boolean retried) {
    }

    private record Pending(Finish finish, boolean wantsNext, long startedOn, CompletableFuture<Settled> done) {
    }

    private final Takes takes;
    private final WorkerStore store;
    private final InFlightCalls inFlight;
    private final Intake intake;
    private final ScheduledExecutorService scheduler;
    private final SafeListener<?, ?> listener;
    private final Queue<Pending> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger calls = new AtomicInteger();
    /** Buffered jobs whose processor started, reported with the next call. */
    private final Queue<Started> started = new ConcurrentLinkedQueue<>();
    /** Takes the jobs a call took ahead (to the buffer). */
    private final Consumer<List<RawJob>> takenAhead;
    /** The results of a batch's jobs, each group recorded in one call of its own (batch workers only). */
    private final Queue<List<Pending>> groups = new ConcurrentLinkedQueue<>();
    /** Runs after a call's results and next jobs were handed out; null: nothing (per-job workers). */
    private final Runnable afterSettle;

    /** Results waiting out a retry backoff, with the number of their next try. */
    private final java.util.Map<Pending, Integer> backingOff = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * @param scheduler the worker's timer: retries wait out their backoff there
     * @param takenAhead takes the jobs a call took ahead (to the buffer)
     * @param afterSettle runs once a call's next jobs were all handed out (a batch worker forms its
     *     batches then); null for none
     */
    Finisher(Takes takes, WorkerStore store, InFlightCalls inFlight, Intake intake, ScheduledExecutorService scheduler,
             SafeListener<?, ?> listener, Consumer<List<RawJob>> takenAhead, Runnable afterSettle) {
        this.afterSettle = afterSettle;
        this.takes = takes;
        this.store = store;
        this.inFlight = inFlight;
        this.intake = intake;
        this.scheduler = scheduler;
        this.listener = listener;
        this.takenAhead = takenAhead;
        inFlight.onReconnect(this::resendBackingOff);
    }

    /** The connection is back: results waiting out a backoff go now (from the timer thread). */
    private void resendBackingOff() {
        for (Pending p : backingOff.keySet()) {
            Integer retry = backingOff.remove(p);
            if (retry != null) {
                try {
                    scheduler.execute(() -> resend(p, retry));
                } catch (RejectedExecutionException closed) {
                    p.done.complete(new Settled(null, null, new IllegalStateException("worker closed"), true));
                }
            }
        }
    }

    /** A buffered job's processor started: the next call says so (unless it carries its result). */
    void started(String jobId, String lockToken) {
        started.add(new Started(jobId, lockToken));
    }

    /**
     * Records a result in the next call; while the worker runs (and is not paused), that call
     * also takes a job for this result's slot.
     *
     * @param finish the result
     * @return where it landed; never completes exceptionally
     */
    CompletableFuture<Settled> submit(Finish finish) {
        return submit(finish, true, 0);
    }

    /**
     * @param wantsSlotJob false when the slot already passed to a buffered job: no job is taken for it
     * @param startedOn when the processor of a taken-ahead job started (epoch ms), 0 otherwise
     */
    CompletableFuture<Settled> submit(Finish finish, boolean wantsSlotJob, long startedOn) {
        CompletableFuture<Settled> done = new CompletableFuture<>();
        queue.add(new Pending(finish, wantsSlotJob && intake.running() && !intake.paused(), startedOn, done));
        flush();
        return done;
    }

    /**
     * Records the results of a batch's jobs together, in one call (whatever their number; other
     * small batches queued meanwhile may share it), each also taking a job for its slot while the
     * worker runs.
     *
     * @return where each landed, in order; never complete exceptionally
     */
    List<CompletableFuture<Settled>> submitAll(List<Finish> finishes) {
        boolean wantsNext = intake.running() && !intake.paused();
        List<Pending> group = new ArrayList<>(finishes.size());
        List<CompletableFuture<Settled>> done = new ArrayList<>(finishes.size());
        for (Finish finish : finishes) {
            CompletableFuture<Settled> f = new CompletableFuture<>();
            group.add(new Pending(finish, wantsNext, 0, f));
            done.add(f);
        }
        groups.add(group);
        flush();
        return done;
    }

    private void flush() {
        // Re-check after releasing the flag: a result queued while we held it must not be stranded.
        while ((!queue.isEmpty() || !groups.isEmpty()) && acquire()) {
            List<Pending> group = groups.poll();
            if (group != null) {
                send(withQueuedGroups(group));
                continue;
            }
            List<Pending> batch = new ArrayList<>();
            Pending p;
            while (batch.size() < MAX_BATCH && (p = queue.poll()) != null) {
                batch.add(p);
            }
            if (batch.isEmpty()) {
                calls.decrementAndGet();
                continue;
            }
            send(batch);
        }
    }

    /**
     * A batch's results plus those of other batches queued behind it, whole, while they fit in
     * {@link #MAX_BATCH} together (small batches share a call; a batch is never split).
     */
    private List<Pending> withQueuedGroups(List<Pending> group) {
        List<Pending> more = groups.peek();
        if (more == null || group.size() + more.size() > MAX_BATCH) {
            return group;
        }
        List<Pending> call = new ArrayList<>(group);
        while ((more = groups.peek()) != null && call.size() + more.size() <= MAX_BATCH) {
            if (groups.remove(more)) {
                call.addAll(more);
            }
        }
        return call;
    }

    private boolean acquire() {
        while (true) {
            int n = calls.get();
            if (n >= MAX_CALLS) {
                return false;
            }
            if (calls.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    private void send(List<Pending> batch) {
        List<Finish> finishes = new ArrayList<>(batch.size());
        long[] startedOn = null;
        int next = 0;
        for (int i = 0; i < batch.size(); i++) {
            Pending p = batch.get(i);
            finishes.add(p.finish);
            if (p.wantsNext) {
                next++;
            }
            if (p.startedOn > 0) {
                if (startedOn == null) {
                    startedOn = new long[batch.size()];
                }
                startedOn[i] = p.startedOn;
            }
        }
        List<Started> starts = startedNotIn(finishes);
        int ahead = takes.reserveAhead();
        long sentAt = System.nanoTime();
        try {
            io.bullpen.internal.ScriptTypes.FetchArgs args = takes.fetchArgsAfterFinish(next).withAhead(ahead);
            long[] startedOnAll = startedOn;
            inFlight.call(() -> store.finish(takes.now(), args, finishes, startedOnAll, starts),
                            late -> takes.giveBackLate(late.next()))
                    .whenComplete((result, failure) -> {
                        calls.decrementAndGet();
                        takes.answered(sentAt);
                        try {
                            if (failure != null) {
                                started.addAll(starts);
                            }
                            settle(batch, result, failure);
                        } finally {
                            takes.received(ahead);
                            flush();
                        }
                    });
        } catch (RuntimeException e) {
            calls.decrementAndGet();
            takes.received(ahead);
            started.addAll(starts);
            settle(batch, null, e);
            flush();
        }
    }

    /** The started notes to send: those of jobs whose result is not in this batch (it says the same). */
    private List<Started> startedNotIn(List<Finish> finishes) {
        if (started.isEmpty()) {
            return List.of();
        }
        List<Started> out = new ArrayList<>();
        Started s;
        while ((s = started.poll()) != null) {
            boolean finished = false;
            for (Finish f : finishes) {
                if (f.jobId().equals(s.jobId()) && f.lockToken().equals(s.lockToken())) {
                    finished = true;
                    break;
                }
            }
            if (!finished) {
                out.add(s);
            }
        }
        return out;
    }

    private void settle(List<Pending> batch, FinishBatchResult result, Throwable failure) {
        if (failure != null) {
            for (Pending p : batch) {
                call(p, null, null, failure);
            }
            return;
        }
        FetchResult fetched = result.next();
        takes.afterFetch(fetched);
        List<RawJob> jobs = fetched.jobs();
        int forSlots = 0;
        for (Pending p : batch) {
            if (p.wantsNext) {
                forSlots++;
            }
        }
        if (jobs.size() > forSlots) {
            // Jobs beyond the slots' were taken ahead: buffered before the slots settle, so a
            // slot that frees below finds them.
            takenAhead.accept(jobs.subList(forSlots, jobs.size()));
        }
        int taken = 0;
        for (int i = 0; i < batch.size(); i++) {
            Pending p = batch.get(i);
            RawJob job = p.wantsNext && taken < jobs.size() ? jobs.get(taken++) : null;
            FinishOutcome outcome = result.outcomes().get(i);
            call(p, outcome.state(), job, outcome.error());
        }
        if (afterSettle != null) {
            afterSettle.run();
        }
    }

    private void call(Pending p, JobState state, RawJob next, Throwable failure) {
        if (failure != null && next == null && retryable(failure)) {
            retry(p, 0, unwrap(failure));
        } else {
            p.done.complete(new Settled(state, next, failure, false));
        }
    }

    /** A rejection is final; any other error may be a Redis hiccup. */
    private static boolean retryable(Throwable failure) {
        Throwable cause = unwrap(failure);
        return !(cause instanceof LockLostException) && !(cause instanceof JobNotFoundException);
    }

    static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    /** Sends a result again, alone and taking no job, after a backoff. */
    private void retry(Pending p, int retry, Throwable cause) {
        if (retry >= MAX_RETRIES || !schedule(p, retry, cause)) {
            p.done.complete(new Settled(null, null, cause, retry > 0));
            return;
        }
        listener.error(cause);
    }

    private boolean schedule(Pending p, int retry, Throwable cause) {
        long delay = Math.min(5_000, 100L << retry);
        backingOff.put(p, retry + 1);
        try {
            scheduler.schedule(() -> {
                if (backingOff.remove(p) != null) {
                    resend(p, retry + 1);
                }
            }, delay, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            backingOff.remove(p);
            return false;
        }
        log.warn("could not record the result of job {} (retry in {}ms): {}", p.finish.jobId(), delay, cause.toString());
        return true;
    }

    private void resend(Pending p, int retry) {
        CompletableFuture<FinishResult> call = inFlight.call(() -> resendCall(p));
        call.whenComplete((result, failure) -> {
            if (result != null) {
                takes.afterFetch(result.next());
                p.done.complete(new Settled(result.state(), null, null, true));
            } else if (retryable(failure)) {
                retry(p, retry, unwrap(failure));
            } else {
                p.done.complete(new Settled(null, null, unwrap(failure), true));
            }
        });
    }

    private java.util.concurrent.CompletionStage<FinishResult> resendCall(Pending p) {
        // A taken-ahead job's result still carries its real start.
        long[] startedOn = p.startedOn <= 0 ? null : new long[] {p.startedOn};
        return store.finish(takes.now(), takes.fetchArgsAfterFinish(0), List.of(p.finish), startedOn, List.of())
                .thenApply(batch -> {
                    FinishOutcome outcome = batch.outcomes().get(0);
                    if (outcome.error() != null) {
                        throw outcome.error();
                    }
                    return new FinishResult(outcome.state(), batch.next());
                });
    }
}
