package io.bullpen.worker;

import io.bullpen.BullpenException;
import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobNotFoundException;
import io.bullpen.JobState;
import io.bullpen.LockLostException;
import io.bullpen.internal.JsonCodec;
import io.bullpen.internal.ScriptTypes.Finish;
import io.bullpen.internal.ScriptTypes.RawJob;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one attempt of a job, with a slot already held:
 * 1. reads the job (data that cannot be read fails it as unrecoverable);
 * 2. runs the processor on the executor; at the job's timeout interrupts it and fails the
 *    attempt whether it stops or not (see {@link AttemptTimeouts});
 * 3. records the outcome with moveToFinished, batched with the results that finish meanwhile
 *    (see {@link Finisher}); the call also takes the next job, so the slot passes straight to it
 *    without another round trip; otherwise the slot is released;
 * 4. a result whose lock was lost is rejected by the token check and only logged;
 * 5. a Redis error while recording is retried with backoff (a repeat is detected by the token
 *    check); if it never lands, the lock expires and the job is recovered: at least once.
 */
final class JobRunner<T, R> {
    private static final Logger log = LoggerFactory.getLogger(JobRunner.class);
    private static final int STACKTRACE_MAX_CHARS = 8_000;
    private static final Duration MAX_BACKOFF = Duration.ofDays(3650);

    private final WorkerRuntime<T, R> rt;
    private final Finisher finisher;
    private final AttemptTimeouts timeouts;

    JobRunner(WorkerRuntime<T, R> rt, AttemptTimeouts timeouts) {
        this.rt = rt;
        this.finisher = new Finisher(rt);
        this.timeouts = timeouts;
    }

    /** Starts an attempt for a job just taken; the caller holds a slot for it. */
    void start(RawJob raw) {
        Job<T> job;
        try {
            job = Job.fromHash(raw.id(), raw.hash(), rt.dataType);
        } catch (BullpenException | IllegalArgumentException e) {
            log.error("job {} of queue {} cannot be read; failing it", raw.id(), rt.settings.queue(), e);
            finish(raw.id(), raw.lockToken(), null, null, e, true, JobOptions.defaults(), raw.attemptsMade(), null);
            return;
        }
        if (!rt.running()) {
            giveBack(raw);
            return;
        }
        ActiveJob<T> attempt = new ActiveJob<>(job, raw.lockToken());
        rt.inFlight.put(job.id(), attempt);
        rt.markBusy();
        if (rt.handoff == null) {
            hand(attempt, raw);
            return;
        }
        try {
            rt.handoff.execute(() -> hand(attempt, raw));
        } catch (RejectedExecutionException e) {
            rt.inFlight.remove(job.id(), attempt);
            giveBack(raw);
        }
    }

    /**
     * Hands an attempt to the executor. The worker's own pool never blocks here, so a finish
     * calls this on the Redis client thread; an executor the application supplied may (a full
     * queue, a caller-runs policy), so it gets its jobs through the handoff thread.
     */
    private void hand(ActiveJob<T> attempt, RawJob raw) {
        try {
            rt.executor.execute(() -> run(attempt));
        } catch (RejectedExecutionException e) {
            rt.inFlight.remove(attempt.id(), attempt);
            giveBack(raw);
        }
    }

    /**
     * A job taken while the worker closes (a fetch or a finish that was already under way) is
     * returned to wait at once, so it neither waits for its lock to lapse nor counts as stalled.
     */
    private void giveBack(RawJob raw) {
        rt.scripts.moveToWait(raw.id(), raw.lockToken()).whenComplete((ok, error) -> {
            if (error != null) {
                log.warn("could not give back job {} (it will be recovered when its lock expires): {}", raw.id(),
                        error.toString());
            }
            rt.releaseSlot();
        });
    }

    private void run(ActiveJob<T> attempt) {
        Job<T> job = attempt.job;
        attempt.running(Thread.currentThread());
        job.options().timeout().ifPresent(t -> timeouts.arm(attempt, t, this::timedOut));
        rt.listener.active(job);
        R result = null;
        Throwable error = null;
        boolean owned;
        try {
            result = rt.processor.process(new WorkerJobContext<>(rt, attempt));
        } catch (Throwable t) {
            error = t;
        } finally {
            owned = attempt.returned();
            Thread.interrupted();
        }
        if (!owned) {
            // The timeout already failed this attempt and passed its slot on.
            timeouts.lateReturn(attempt, error);
            return;
        }
        if (attempt.abandoned() && error != null) {
            // A forced close interrupted this attempt: record nothing and let the lock lapse, so
            // the job is recovered and run again rather than charged a failed attempt. (A success
            // is still recorded below; the token check rejects it if the lock has gone.)
            log.info("job {} interrupted by a forced close; it will be recovered when its lock expires", job.id());
            rt.inFlight.remove(job.id(), attempt);
            rt.releaseSlot();
            return;
        }
        if (error instanceof Error fatal && !(error instanceof AssertionError)) {
            // Policy: the attempt fails (and is retried) like any other, and the worker goes on.
            log.error("processor of job {} threw {}; the attempt fails and the worker keeps running{}", job.id(),
                    fatal, fatal instanceof OutOfMemoryError ? " (this JVM is short of memory)" : "", fatal);
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
        finish(job.id(), attempt.lockToken, attempt, resultJson, error, unrecoverable, job.options(), job.attemptsMade(),
                result);
    }

    /** The timeout won over the processor: fail the attempt now, through the normal finish. */
    private void timedOut(ActiveJob<T> attempt, JobTimeoutException error) {
        Job<T> job = attempt.job;
        finish(job.id(), attempt.lockToken, attempt, null, error, false, job.options(), job.attemptsMade(), null);
    }

    private void finish(String id, String token, ActiveJob<T> attempt, String resultJson, Throwable error,
                        boolean unrecoverable, JobOptions options, int attemptsMadeBefore, R result) {
        Finish finish;
        if (error == null) {
            finish = new Finish(id, token, true, resultJson, null, rt.settings.stackTraceLimit(), options.attempts(), 0,
                    false, options.lifo(), options.removeOnComplete(), attemptsMadeBefore);
        } else {
            long backoffMs = options.backoff()
                    .map(b -> b.delay(attemptsMadeBefore + 1))
                    .map(d -> Math.min(d.toMillis(), MAX_BACKOFF.toMillis()))
                    .orElse(0L);
            finish = new Finish(id, token, false, reason(error), stacktrace(error), rt.settings.stackTraceLimit(),
                    options.attempts(), backoffMs, unrecoverable, options.lifo(), options.removeOnFail(), attemptsMadeBefore);
        }
        record(finish, attempt, error, result, 0);
    }

    private void record(Finish finish, ActiveJob<T> attempt, Throwable error, R result, int retry) {
        if (retry == 0) {
            // Batched with the results that finish meanwhile; the call also takes this slot's next job.
            finisher.submit(finish, rt.running(),
                    (state, next, failure) -> settled(finish, attempt, error, result, retry, state, next, failure));
            return;
        }
        rt.scripts.moveToFinished(rt.now(), rt.fetchArgsAfterFinish(0), finish).whenComplete((done, failure) -> {
            if (done != null) {
                rt.afterFetch(done.next());
            }
            settled(finish, attempt, error, result, retry, done == null ? null : done.state(), null, failure);
        });
    }

    private void settled(Finish finish, ActiveJob<T> attempt, Throwable error, R result, int retry, JobState state,
                         RawJob next, Throwable failure) {
        if (failure == null) {
            recorded(finish, attempt, error, result, state, next);
            return;
        }
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof LockLostException lost) {
            if (retry > 0 && lost.reason() == LockLostException.Reason.MISSING) {
                log.info("job {}: a retried result found the lock gone: the first call landed, or the job is "
                        + "being recovered and will run again", finish.jobId());
            } else {
                log.warn("result of job {} rejected: {} (another worker may run it)", finish.jobId(), cause.getMessage());
                if (attempt != null && attempt.markLockLost()) {
                    rt.listener.lockLost(attempt.job);
                }
            }
            release(finish.jobId(), attempt, next);
        } else if (cause instanceof JobNotFoundException) {
            // Deleted while active (drain, obliterate): there is nothing left to record.
            log.warn("result of job {} not recorded: {}", finish.jobId(), cause.getMessage());
            release(finish.jobId(), attempt, next);
        } else if (next != null) {
            // Not expected: a rejection of a kind we don't know; the slot passes on, the result is dropped.
            log.error("result of job {} rejected", finish.jobId(), cause);
            release(finish.jobId(), attempt, next);
        } else if (retry < 8 && scheduleRetry(finish, attempt, error, result, retry, cause)) {
            rt.listener.error(cause);
        } else {
            log.error("gave up recording the result of job {}; its lock will expire and it will be recovered",
                    finish.jobId(), cause);
            release(finish.jobId(), attempt, next);
        }
    }

    private boolean scheduleRetry(Finish finish, ActiveJob<T> attempt, Throwable error, R result, int retry, Throwable cause) {
        long delay = Math.min(5_000, 100L << retry);
        try {
            rt.scheduler.schedule(() -> record(finish, attempt, error, result, retry + 1), delay, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            return false;
        }
        log.warn("could not record the result of job {} (retry in {}ms): {}", finish.jobId(), delay, cause.toString());
        return true;
    }

    private void recorded(Finish finish, ActiveJob<T> attempt, Throwable error, R result, JobState state, RawJob next) {
        if (attempt != null) {
            if (error == null) {
                rt.listener.completed(attempt.job, result);
            } else {
                rt.listener.failed(attempt.job, error, state == JobState.FAILED);
            }
        }
        if (attempt != null) {
            rt.inFlight.remove(finish.jobId(), attempt);
        }
        if (next == null) {
            rt.releaseSlot();
            if (rt.running()) {
                rt.maybeDrained();
            }
        } else {
            start(next);
        }
    }

    /** The attempt is over without a recorded result; its slot passes to {@code next} if one was taken for it. */
    private void release(String jobId, ActiveJob<T> attempt, RawJob next) {
        if (attempt != null) {
            // Conditional: the same job may already run again in this worker as a new attempt.
            rt.inFlight.remove(jobId, attempt);
        }
        if (next == null) {
            rt.releaseSlot();
        } else {
            start(next);
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
