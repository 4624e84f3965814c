package io.bullpen.worker;

import io.bullpen.BullpenException;
import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobNotFoundException;
import io.bullpen.JobState;
import io.bullpen.JobTimeoutException;
import io.bullpen.LockLostException;
import io.bullpen.RateLimitedException;
import io.bullpen.UnrecoverableJobException;
import io.bullpen.internal.JobFields;
import io.bullpen.internal.JsonCodec;
import io.bullpen.internal.ScriptTypes.Finish;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.internal.WireFormat;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Runs one attempt of a job, with a slot already held:
 * 1. reads the job (data that cannot be read fails it as unrecoverable); a job whose start a
 *    rate limit booked in the future ({@link JobFields#START_IN}) waits for it on the timer
 *    thread, its slot held and its lock renewed; on close it is given back unstarted;
 * 2. runs the processor on the executor, with the queue and the job's id in the MDC
 *    ({@link #MDC_QUEUE}, {@link #MDC_JOB_ID}) while it runs; at the job's timeout interrupts it
 *    and fails the attempt whether it stops or not (see {@link AttemptTimeouts});
 * 3. decides the outcome ({@link Finish#completed}; {@link Finish#failed}: failed for good or a retry
 *    at its backoff; {@link Finish#limited}
 *    for a {@link RateLimitedException}, {@link Finish#step} for a processor that asked for a delay
 *    through {@link JobContext#delay}, {@link Finish#waitForChildren} for one that asked to wait for
 *    its children through {@link JobContext#waitForChildren}; a step job's staged data, and the
 *    children it added unless it threw, ride on whichever it is), logs a
 *    failed attempt once ({@link JobFailures}: not a limited one, a step or a cancel) and
 *    submits it to the
 *    {@link Finisher}, which batches it, retries Redis errors, and takes the slot's next job in
 *    the same call;
 * 4. when it has landed: reports it to the listener (a result whose lock was lost is rejected by
 *    the token check and only logged), ends the attempt, and passes the slot to the next job or
 *    releases it (see {@link Slots}).
 * Take-ahead: jobs taken beyond the free slots wait in the {@link AheadBuffer}; a
 * processor thread whose job returned starts the next buffered one itself (its slot passes on
 * while the result is recorded, and the finish asks for no job for it), and a slot that frees
 * with jobs buffered takes one ({@link AheadFeeder#pump}). A buffered job's start is reported with the next
 * finish call, and its result carries when its processor started.
 */
final class JobRunner<T, R> {
    private static final Logger log = LoggerFactory.getLogger(JobRunner.class);
    private static final int STACKTRACE_MAX_CHARS = 8_000;
    /** MDC key holding the queue's name while a processor runs. */
    static final String MDC_QUEUE = "bullpen.queue";
    /** MDC key holding the job's id while a processor runs. */
    static final String MDC_JOB_ID = "bullpen.jobId";

    private final WorkerSettings settings;
    private final Processing<T, R> processing;
    private final Intake intake;
    private final Slots<T> slots;
    private final Takes takes;
    private final WorkerStore store;
    private final SafeListener<T, R> listener;
    /** Relays the ends of jobs with a parent in another slot. */
    private final FlowRunner flows;
    private final Finisher finisher;
    private final AttemptTimeouts timeouts;
    /** Attempts waiting for the start a rate limit booked. */
    private final BookedStarts<T> booked;
    private final JobFailures failures;
    /** Take-ahead: pairs buffered jobs with free slots, hands them back on close. */
    final AheadFeeder<T, R> ahead;
    /** A batch worker's batches; null for a worker with a per-job processor. */
    final BatchFormer<T, R> batches;

    /**
     * @param buffer the jobs taken ahead, and {@code takeAhead} how many to take: the runner's
     *     {@link AheadFeeder} pairs them with slots
     * @param scheduler the worker's timer (booked starts, the failure log's summary, finish retries)
     */
    JobRunner(WorkerSettings settings, Processing<T, R> processing, Intake intake, Slots<T> slots, AheadBuffer buffer,
              TakeAhead takeAhead, Takes takes, WorkerStore store, InFlightCalls calls, SafeListener<T, R> listener,
              ScheduledExecutorService scheduler, AttemptTimeouts timeouts, FlowRunner flows) {
        this.settings = settings;
        this.flows = flows;
        this.processing = processing;
        this.intake = intake;
        this.slots = slots;
        this.takes = takes;
        this.store = store;
        this.listener = listener;
        this.ahead = new AheadFeeder<>(intake, slots, buffer, takeAhead, store, this::start);
        this.batches = processing.batch() == null ? null
                : new BatchFormer<>(settings, processing, intake, scheduler, listener, this);
        this.finisher = new Finisher(takes, store, calls, intake, scheduler, listener, ahead::takenAhead,
                batches == null ? null : batches::delivered);
        this.timeouts = timeouts;
        this.failures = new JobFailures(settings.queue(), System::nanoTime,
                (task, ms) -> scheduler.schedule(task, ms, TimeUnit.MILLISECONDS));
        this.booked = new BookedStarts<>(scheduler, intake::running, (attempt, raw) -> {
            attempt.life.move(AttemptLife.Stage.TAKEN);
            dispatch(attempt, raw);
            // A booked start comes alone: a batch worker's batch may be ready with it.
            delivered();
        }, (attempt, raw) -> giveBack(attempt));
    }

    /** Starts an attempt for a job just taken; the caller holds a slot for it. */
    void start(RawJob raw) {
        start(raw, AttemptLife.taken(raw.id()));
    }

    /** Starts an attempt for a job the caller holds a slot for, in stage TAKEN (a buffered job moved there). */
    void start(RawJob raw, AttemptLife life) {
        ActiveJob<T> attempt = begin(raw, life);
        if (attempt != null) {
            dispatch(attempt, raw);
        }
    }

    /**
     * Begins an attempt for a job the caller holds a slot for.
     *
     * @return the attempt to run now, or null when it is handled otherwise (unreadable: failed;
     *     closing: given back; booked by a rate limit: started by the timer)
     */
    private ActiveJob<T> begin(RawJob raw, AttemptLife life) {
        Map<String, String> hash = raw.hash();
        boolean ahead = "1".equals(hash.get(JobFields.AHEAD));
        long startedOn = 0;
        if (ahead) {
            // Its processor starts now: the job it sees, and its result, tell when it really ran.
            // (The reply's hash is immutable: the decoded job keeps it without a copy.)
            startedOn = takes.now();
            hash = new HashMap<>(hash);
            hash.put(JobFields.PROCESSED_ON, Long.toString(startedOn));
        }
        Job<T> job;
        try {
            job = WireFormat.job(raw.id(), hash, processing.dataType());
        } catch (BullpenException | IllegalArgumentException e) {
            failures.unreadable(raw.id(), e);
            life.move(AttemptLife.Stage.FINISHING);
            finishUnreadable(life, failed(raw.id(), raw.lockToken(), raw.attemptsMade(), e, true, JobOptions.defaults()), e);
            return null;
        }
        if (!intake.running() || (ahead && expired(hash))) {
            // Closing, or held past its expiry deadline: back to its line unstarted (moveToWait
            // puts an unstarted job's deadline back, and the next fetch fails it as expired).
            life.move(AttemptLife.Stage.HANDED_BACK);
            giveBack(raw);
            return null;
        }
        ActiveJob<T> attempt = new ActiveJob<>(job, raw.lockToken(), raw.hash().get(JobFields.GROUP), life);
        attempt.startedOn = startedOn;
        slots.begin(attempt);
        takes.markBusy();
        if (ahead) {
            finisher.started(raw.id(), raw.lockToken());
        }
        long startIn = startIn(raw);
        if (startIn > 0) {
            life.move(AttemptLife.Stage.BOOKED);
            booked.book(attempt, raw, startIn);
            return null;
        }
        return attempt;
    }

    /** A job taken ahead (or held in a forming batch) whose first attempt would start past its expiry deadline does not run. */
    boolean expired(Map<String, String> hash) {
        String deadline = hash.get(JobFields.EXPIRES);
        return deadline != null && "1".equals(hash.get(JobFields.ATTEMPTS_STARTED))
                && takes.now() >= Long.parseLong(deadline);
    }

    private static long startIn(RawJob raw) {
        String value = raw.hash().get(JobFields.START_IN);
        return value == null ? 0 : Long.parseLong(value);
    }

    /** On close: logs the count of failures left out of the log, if any, without waiting for its time. */
    void failureSummary() {
        failures.summary();
    }

    /**
     * On close: every job still waiting for its booked start, or in a batch that has not started,
     * goes back to its line at once, unstarted.
     */
    void giveBackBooked() {
        booked.giveBackAll();
        if (batches != null) {
            batches.giveBackForming();
        }
    }

    /** The context of one attempt, as its processor gets it. */
    JobContext<T> contextOf(ActiveJob<T> attempt) {
        return new WorkerJobContext<>(attempt, store, listener, settings);
    }

    /** A forced close interrupted an abandoned attempt: nothing is recorded, its slot frees. */
    void dropAbandoned(ActiveJob<T> attempt) {
        attempt.life.move(AttemptLife.Stage.SETTLED);
        slots.end(attempt);
        slots.release();
    }

    /** A forced close: the batches still running are interrupted (their jobs are abandoned one by one). */
    void interruptBatches() {
        if (batches != null) {
            batches.interruptRunning();
        }
    }

    /** A take's jobs were all handed to {@link #start}: a batch worker forms its batches now. */
    void delivered() {
        if (batches != null) {
            batches.delivered();
        }
    }

    private void dispatch(ActiveJob<T> attempt, RawJob raw) {
        if (batches != null) {
            batches.add(attempt);
            return;
        }
        if (processing.handoff() == null) {
            hand(attempt, raw);
            return;
        }
        try {
            processing.handoff().execute(() -> hand(attempt, raw));
        } catch (RejectedExecutionException e) {
            giveBack(attempt);
        }
    }

    /**
     * Hands an attempt to the executor. The worker's own pool never blocks here, so a finish
     * calls this on the Redis client thread; an executor the application supplied may (a full
     * queue, a caller-runs policy), so it gets its jobs through the handoff thread.
     */
    private void hand(ActiveJob<T> attempt, RawJob raw) {
        try {
            processing.executor().execute(() -> run(attempt));
        } catch (RejectedExecutionException e) {
            giveBack(attempt);
        }
    }

    /**
     * A job taken while the worker closes (a fetch or a finish that was already under way) is
     * returned to wait at once, so it neither waits for its lock to lapse nor counts as stalled.
     */
    private void giveBack(RawJob raw) {
        giveBack(raw.id(), raw.lockToken());
    }

    /** An attempt that never reached its processor goes back to its line: its slot ends with the call. */
    void giveBack(ActiveJob<T> attempt) {
        attempt.life.move(AttemptLife.Stage.HANDED_BACK);
        slots.end(attempt);
        giveBack(attempt.id(), attempt.lockToken);
    }

    private void giveBack(String jobId, String lockToken) {
        store.handBack(jobId, lockToken, false).whenComplete((ok, error) -> {
            if (error != null) {
                log.warn("could not give back job {} (it will be recovered when its lock expires): {}", jobId,
                        error.toString());
            }
            slots.release();
        });
    }

    /** Runs the attempt, then each buffered job this thread takes on as the previous one returns. */
    private void run(ActiveJob<T> first) {
        ActiveJob<T> attempt = first;
        while (attempt != null) {
            attempt = runOne(attempt);
        }
    }

    /** @return the buffered job's attempt this thread runs next, or null */
    private ActiveJob<T> runOne(ActiveJob<T> attempt) {
        Job<T> job = attempt.job;
        attempt.running(Thread.currentThread());
        job.options().timeout().ifPresent(t -> timeouts.arm(attempt, t, this::timedOut));
        listener.active(job);
        R result = null;
        Throwable error = null;
        boolean owned;
        AttemptObservers observers = AttemptObservers.open(listener.instruments(), settings.queue(), job);
        long began = System.nanoTime();
        // Restored afterwards: an application's executor may run this on a thread with MDC of its own.
        String outerQueue = MDC.get(MDC_QUEUE);
        String outerJobId = MDC.get(MDC_JOB_ID);
        MDC.put(MDC_QUEUE, settings.queue());
        MDC.put(MDC_JOB_ID, job.id());
        try {
            result = processing.processor().process(new WorkerJobContext<>(attempt, store, listener, settings));
        } catch (Throwable t) {
            error = t;
        } finally {
            owned = attempt.returned();
            Thread.interrupted();
            restore(MDC_QUEUE, outerQueue);
            restore(MDC_JOB_ID, outerJobId);
        }
        String children = null;
        IllegalArgumentException unplanned = null;
        if (owned && error == null) {
            // Before the observers end: the children's add descends from this attempt's context.
            try {
                children = planChildren(attempt);
            } catch (IllegalArgumentException e) {
                unplanned = e;
            }
        }
        observers.ended(error);
        ahead.processed(System.nanoTime() - began);
        if (!owned) {
            // The timeout already failed this attempt and passed its slot on.
            timeouts.lateReturn(attempt, error);
            return null;
        }
        if (attempt.abandoned()) {
            if (error != null) {
                // A forced close interrupted this attempt: record nothing (close handed the job back,
                // or its lock lapses), so it runs again rather than being charged a failed attempt.
                log.info("job {} interrupted by a forced close; it runs again", job.id());
                attempt.life.move(AttemptLife.Stage.SETTLED);
                slots.end(attempt);
                slots.release();
                return null;
            }
            // A success is still recorded; the token check rejects it if the lock has gone.
            attempt.life.move(AttemptLife.Stage.FINISHING);
        }
        // Policy for an Error: the attempt fails (and is retried) like any other, and the worker goes
        // on; JobFailures logs it at ERROR with its stack trace.
        // A cancelled job is not put back: its failure below ends it as cancelled (moveToFinished).
        if (error instanceof RateLimitedException limited && attempt.cancelReason() == null) {
            // Not a failure: the job goes back to the front of its line, unused attempt and all.
            return finishAndNext(attempt, Finish.limited(job.id(), attempt.lockToken, limited.delay().toMillis(),
                    limited.isGroup()), error, null);
        }
        if (error == null && unplanned != null) {
            // Checked by addChildren: not expected. The attempt fails rather than drop them unseen.
            error = unplanned;
        }
        if (error == null && attempt.waitsForChildren()) {
            // A wait: the job waits in waiting-children with its staged data and children, no attempt used.
            return finishAndNext(attempt, Finish.waitForChildren(job.id(), attempt.lockToken, children)
                    .withStagedData(attempt.stagedData()), null, null);
        }
        if (error == null && attempt.stepDueMs() >= 0) {
            // A step: the job waits in delayed with its staged data, no attempt used.
            return finishAndNext(attempt, Finish.step(job.id(), attempt.lockToken, attempt.stepDueMs(),
                    attempt.stagedData()).withChildren(children), null, null);
        }
        boolean unrecoverable = error instanceof UnrecoverableJobException;
        String resultJson = null;
        if (error == null) {
            try {
                resultJson = JsonCodec.encodeValue(result, "the return value of job " + job.id());
            } catch (IllegalArgumentException e) {
                // Running the job again would only produce another value that cannot be stored.
                error = e;
                unrecoverable = true;
            }
        }
        if (error != null) {
            attemptFailed(attempt, error, unrecoverable);
        }
        Finish finish = error == null
                ? Finish.completed(job.id(), attempt.lockToken, job.attemptsMade(), resultJson, job.options(),
                        settings.stackTraceLimit())
                : failed(job.id(), attempt.lockToken, job.attemptsMade(), error, unrecoverable, job.options());
        return finishAndNext(attempt, finish.withStagedData(attempt.stagedData()).withChildren(children), error, result);
    }

    /**
     * Plans the children the processor staged, with the worker's default job options, as one add
     * its instrumentations see (see {@link RuntimeChildren}); call on the processor's thread
     * before the attempt's observers end. The attempt keeps the plan, ended when its finish lands.
     *
     * @return the children encoded for the finish record; null for none
     * @throws IllegalArgumentException when they cannot be encoded
     */
    String planChildren(ActiveJob<?> attempt) {
        RuntimeChildren children = RuntimeChildren.plan(attempt.stagedChildren(), settings.defaultJobOptions(),
                listener.instruments());
        attempt.plannedChildren(children);
        return children.encoded();
    }

    /**
     * Submits the result and, with a job buffered, passes the slot to it on this thread (no hand-off
     * to another processor thread, no round trip): the finish then takes no job for the slot.
     */
    private ActiveJob<T> finishAndNext(ActiveJob<T> attempt, Finish outcome, Throwable error, R result) {
        AheadBuffer.Held held = intake.running() ? ahead.poll() : null;
        if (held == null) {
            finish(attempt, outcome, error, result, false);
            return null;
        }
        RawJob next = held.raw();
        held.life().move(AttemptLife.Stage.TAKEN);
        slots.passOn(attempt);
        finish(attempt, outcome, error, result, true);
        ActiveJob<T> nextAttempt = begin(next, held.life());
        if (nextAttempt != null && processing.handoff() != null) {
            // An application's executor gets each job through the handoff thread, as always.
            dispatch(nextAttempt, next);
            return null;
        }
        return nextAttempt;
    }

    private static void restore(String key, String value) {
        if (value == null) {
            MDC.remove(key);
        } else {
            MDC.put(key, value);
        }
    }

    /**
     * Logs a failed attempt once. A cancelled job (it fails as cancelled, never retried) and one
     * whose lock was lost (its result is rejected, and that is logged) are not processor failures.
     * The last attempt is known here: {@link Finish#failed} fails the job for good by the same rule
     * (the attempts made at take, plus this one, against the job's attempts; or unrecoverable).
     */
    void attemptFailed(ActiveJob<T> attempt, Throwable error, boolean unrecoverable) {
        if (attempt.cancelReason() != null || attempt.lockLost()) {
            return;
        }
        Job<T> job = attempt.job;
        failures.attemptFailed(job, error, unrecoverable || job.attemptsMade() + 1 >= job.options().attempts());
    }

    /** The timeout won over the processor: fail the attempt now, through the normal finish. */
    private void timedOut(ActiveJob<T> attempt, JobTimeoutException error) {
        Job<T> job = attempt.job;
        attemptFailed(attempt, error, false);
        finish(attempt, failed(job.id(), attempt.lockToken, job.attemptsMade(), error, false, job.options())
                .withStagedData(attempt.stagedData()), error, null);
    }

    Finish failed(String id, String token, int attemptsMadeBefore, Throwable error, boolean unrecoverable,
                          JobOptions options) {
        return Finish.failed(id, token, attemptsMadeBefore, reason(error), stacktrace(error), unrecoverable, options,
                settings.stackTraceLimit());
    }

    /**
     * Records the outcome, then reports it and passes the slot on. One way: the finisher batches
     * and retries; this only acts on where the result landed.
     *
     * @param attempt the attempt, null for a job that could not be read
     */
    private void finish(ActiveJob<T> attempt, Finish outcome, Throwable error, R result) {
        finish(attempt, outcome, error, result, false);
    }

    /** A job that could not be read: its failure is recorded like any outcome, without an attempt. */
    private void finishUnreadable(AttemptLife life, Finish outcome, Throwable error) {
        finish(null, life, outcome, error, null, false);
    }

    /** @param slotPassed the slot already passed to a buffered job: take none for it, release nothing */
    private void finish(ActiveJob<T> attempt, Finish outcome, Throwable error, R result, boolean slotPassed) {
        finish(attempt, attempt.life, outcome, error, result, slotPassed);
    }

    /** @param life the attempt's, or an unreadable job's; in stage FINISHING */
    private void finish(ActiveJob<T> attempt, AttemptLife life, Finish outcome, Throwable error, R result,
                        boolean slotPassed) {
        Finish finish = record(attempt, outcome);
        settleWhenLanded(finisher.submit(finish, !slotPassed, attempt == null ? 0 : attempt.startedOn), attempt, life,
                finish, error, result, slotPassed);
    }

    /**
     * The outcomes of a batch's jobs, recorded in one call; each then settles as a per-job
     * outcome does (reported, its attempt ended, its slot passed to the job taken for it).
     */
    void finishAll(List<BatchRun.Ended<T, R>> ended) {
        if (ended.isEmpty()) {
            return;
        }
        List<Finish> records = new java.util.ArrayList<>(ended.size());
        for (BatchRun.Ended<T, R> e : ended) {
            records.add(record(e.attempt(), e.outcome()));
        }
        List<java.util.concurrent.CompletableFuture<Finisher.Settled>> landed = finisher.submitAll(records);
        for (int i = 0; i < records.size(); i++) {
            BatchRun.Ended<T, R> e = ended.get(i);
            settleWhenLanded(landed.get(i), e.attempt(), e.attempt().life, records.get(i), e.error(), e.result(), false);
        }
    }

    private static Finish record(ActiveJob<?> attempt, Finish outcome) {
        // The group the take gave saves the script reading it back (one command per grouped job);
        // an awaited job's flag, read at take, rides in the record: its finish reads nothing more.
        return attempt == null ? outcome
                : outcome.withGroup(attempt.group).awaited(WireFormat.fields(attempt.job).get(JobFields.AWAITED))
                        .withParent(attempt.hasParent());
    }

    private void settleWhenLanded(java.util.concurrent.CompletableFuture<Finisher.Settled> landed, ActiveJob<T> attempt,
                                  AttemptLife life, Finish finish, Throwable error, R result, boolean slotPassed) {
        landed.thenAccept(settled -> {
            try {
                if (attempt != null && attempt.hasParent() && settled.state() != null && settled.state().isFinished()) {
                    // Its end may be bound for a parent in another slot (the finish wrote it to the outbox).
                    flows.relaySoon();
                }
                boolean childrenKept = finish.children() != null && settled.failure() == null
                        && settled.state() != JobState.FAILED;
                if (childrenKept) {
                    // The children were staged with the finish: create them now (workers carry on otherwise).
                    flows.materializeSoon(finish.children().substring(0, finish.children().indexOf('\n')));
                }
                if (attempt != null) {
                    attempt.plannedChildren().landed(childrenKept, settled.failure());
                }
                report(finish, attempt, error, result, settled);
            } finally {
                try {
                    life.move(AttemptLife.Stage.SETTLED);
                } finally {
                    if (attempt != null) {
                        slots.end(attempt);
                    }
                    if (!slotPassed) {
                        passOn(settled.next());
                    }
                }
            }
        }).exceptionally(e -> {
            log.error("handling the result of job {} failed", finish.jobId(), e);
            return null;
        });
    }

    private void report(Finish finish, ActiveJob<T> attempt, Throwable error, R result, Finisher.Settled settled) {
        Throwable failure = settled.failure();
        if (failure == null) {
            // A limited attempt, a step or a wait for children is neither completed nor failed: listeners see nothing of it.
            if (attempt != null && !finish.limited() && !finish.step() && !finish.waitChildren()) {
                if (error == null) {
                    listener.completed(attempt.job, result);
                } else {
                    listener.failed(attempt.job, error, settled.state() == JobState.FAILED);
                }
            }
            return;
        }
        if (failure instanceof LockLostException lost) {
            if (settled.retried() && lost.reason() == LockLostException.Reason.MISSING) {
                log.info("job {}: a retried result found the lock gone: the first call landed, or the job is "
                        + "being recovered and will run again", finish.jobId());
            } else {
                log.warn("result of job {} rejected: {} (another worker may run it)", finish.jobId(), failure.getMessage());
                if (attempt != null && attempt.markLockLost()) {
                    listener.lockLost(attempt.job);
                }
            }
        } else if (failure instanceof JobNotFoundException) {
            // Deleted while active (drain, obliterate): there is nothing left to record.
            log.warn("result of job {} not recorded: {}", finish.jobId(), failure.getMessage());
        } else if (settled.next() != null) {
            // Not expected: a rejection of a kind we don't know; the slot passes on, the result is dropped.
            log.error("result of job {} rejected", finish.jobId(), failure);
        } else {
            log.error("gave up recording the result of job {}; its lock will expire and it will be recovered",
                    finish.jobId(), failure);
        }
    }

    /** The slot passes to {@code next}, or is freed when no job was taken for it. */
    private void passOn(RawJob next) {
        if (next != null) {
            start(next);
            return;
        }
        slots.release();
        ahead.pump();
        if (intake.running()) {
            takes.maybeDrained();
        }
    }

    static String reason(Throwable error) {
        String message = error.getMessage();
        return message == null || message.isBlank() ? error.getClass().getName() : message;
    }

    static String stacktrace(Throwable error) {
        StringWriter out = new StringWriter();
        error.printStackTrace(new PrintWriter(out));
        String trace = out.toString();
        return trace.length() <= STACKTRACE_MAX_CHARS ? trace : trace.substring(0, STACKTRACE_MAX_CHARS) + "\n\t...";
    }
}
