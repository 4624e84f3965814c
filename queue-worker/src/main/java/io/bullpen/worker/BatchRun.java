package io.bullpen.worker;

import io.bullpen.Job;
import io.bullpen.JobTimeoutException;
import io.bullpen.RateLimitedException;
import io.bullpen.UnrecoverableJobException;
import io.bullpen.internal.JsonCodec;
import io.bullpen.internal.ScriptTypes.Finish;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One batch on its processor thread, and the {@link JobBatch} its processor gets:
 * 1. every job's attempt starts (an {@code active} event and its instrumentations' start each);
 *    the batch's deadline is armed at the earliest timeout of its jobs;
 * 2. the processor runs, with the queue in the MDC; reports ({@link #complete}, {@link #fail})
 *    are kept until it returns;
 * 3. the outcome of each job is decided as its own processor's would be (a report, else the
 *    return value, else the exception thrown; a cancelled job fails as cancelled) and all are
 *    recorded in one finish call ({@link JobRunner#finishAll}), each job then settling alone;
 * 4. at the deadline, if the processor has not returned, its thread is interrupted and the jobs
 *    end at once: those reported as reported, the others failed with {@link JobTimeoutException};
 *    whatever the processor does later is discarded. Its batch slot frees when it returns.
 * Jobs hold no reference to this thread: a job's cancel flags it (its context says so) without
 * interrupting the batch.
 */
final class BatchRun<T, R> implements JobBatch<T, R>, Runnable {
    private static final Logger log = LoggerFactory.getLogger(BatchRun.class);

    /** One job's outcome, ready to record: the record, and what listeners hear of it. */
    record Ended<T, R>(ActiveJob<T> attempt, Finish outcome, Throwable error, R result) {
    }

    /** A report: a value ({@code error} null) or a failure. */
    private record Report<R>(R value, Throwable error) {
    }

    private final List<ActiveJob<T>> attempts;
    private final List<JobContext<T>> contexts;
    private final Map<JobContext<T>, Integer> index = new IdentityHashMap<>();
    private final WorkerSettings settings;
    private final BatchProcessor<T, R> processor;
    private final ScheduledExecutorService scheduler;
    private final SafeListener<T, R> listener;
    private final JobRunner<T, R> runner;
    private final BatchFormer<T, R> former;
    /** Guarded by this. */
    private final List<Report<R>> reports;
    /** Claimed once: by the processor's return or by the deadline. */
    private final AtomicBoolean ended = new AtomicBoolean();
    /** The processor's thread while it runs. Guarded by this. */
    private Thread thread;
    private volatile ScheduledFuture<?> deadline;
    /** Each job's outcome as its instrumentations hear it, set when the batch ends. */
    private volatile Throwable[] errors;

    BatchRun(List<ActiveJob<T>> attempts, WorkerSettings settings, BatchProcessor<T, R> processor,
             ScheduledExecutorService scheduler, SafeListener<T, R> listener, JobRunner<T, R> runner,
             BatchFormer<T, R> former) {
        this.attempts = attempts;
        this.settings = settings;
        this.processor = processor;
        this.scheduler = scheduler;
        this.listener = listener;
        this.runner = runner;
        this.former = former;
        List<JobContext<T>> ctx = new ArrayList<>(attempts.size());
        for (ActiveJob<T> attempt : attempts) {
            JobContext<T> c = new BatchJobContext<>(runner.contextOf(attempt));
            index.put(c, ctx.size());
            ctx.add(c);
        }
        this.contexts = Collections.unmodifiableList(ctx);
        this.reports = new ArrayList<>(Collections.nCopies(attempts.size(), null));
    }

    @Override
    public List<JobContext<T>> jobs() {
        return contexts;
    }

    @Override
    public void complete(JobContext<T> job, R value) {
        report(job, new Report<>(value, null));
    }

    @Override
    public void fail(JobContext<T> job, Throwable error) {
        report(job, new Report<>(null, Objects.requireNonNull(error, "error")));
    }

    private synchronized void report(JobContext<T> job, Report<R> report) {
        Integer i = index.get(Objects.requireNonNull(job, "job"));
        if (i == null) {
            throw new IllegalArgumentException("job " + job.job().id() + " is not in this batch");
        }
        Report<R> before = reports.get(i);
        if (before != null) {
            throw new IllegalStateException("job " + job.job().id() + " was already reported as "
                    + (before.error() == null ? "completed" : "failed (" + before.error() + ")"));
        }
        reports.set(i, report);
    }

    @Override
    public void run() {
        synchronized (this) {
            thread = Thread.currentThread();
        }
        List<AttemptObservers> observers = new ArrayList<>(attempts.size());
        long deadlineMs = Long.MAX_VALUE;
        for (ActiveJob<T> attempt : attempts) {
            // No thread: a job's cancel or timeout must not interrupt the whole batch.
            attempt.running(null);
            Job<T> job = attempt.job;
            listener.active(job);
            observers.add(AttemptObservers.open(listener.instruments(), settings.queue(), job));
            Duration timeout = job.options().timeout().orElse(null);
            if (timeout != null) {
                deadlineMs = Math.min(deadlineMs, timeout.toMillis());
            }
        }
        if (deadlineMs != Long.MAX_VALUE) {
            long ms = deadlineMs;
            try {
                deadline = scheduler.schedule(() -> timedOut(ms), ms, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException closing) {
                // The worker is closing: its close timeout bounds this batch instead.
            }
        }
        R result = null;
        Throwable error = null;
        boolean owned;
        String outerQueue = MDC.get(JobRunner.MDC_QUEUE);
        MDC.put(JobRunner.MDC_QUEUE, settings.queue());
        try {
            result = processor.process(this);
        } catch (Throwable t) {
            error = t;
        } finally {
            owned = ended.compareAndSet(false, true);
            synchronized (this) {
                thread = null;
            }
            Thread.interrupted();
            ScheduledFuture<?> d = deadline;
            if (d != null) {
                d.cancel(false);
            }
            if (outerQueue == null) {
                MDC.remove(JobRunner.MDC_QUEUE);
            } else {
                MDC.put(JobRunner.MDC_QUEUE, outerQueue);
            }
        }
        try {
            if (owned) {
                List<Ended<T, R>> outcomes = decide(result, error, null);
                endObservers(observers);
                runner.finishAll(outcomes);
            } else {
                endObservers(observers);
                log.debug("batch processor of queue {} {} after its deadline; its jobs had already ended: outcome "
                        + "discarded", settings.queue(), error == null ? "returned" : "threw " + error);
            }
        } finally {
            former.ended(this);
        }
    }

    /** The batch's deadline: the jobs end now, whether the processor stops or not. */
    private void timedOut(long ms) {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        interrupt();
        JobTimeoutException e = new JobTimeoutException("timed out after " + ms + "ms (the earliest timeout of the "
                + attempts.size() + " job(s) of its batch)");
        runner.finishAll(decide(null, null, e));
    }

    /** Interrupts the processor's thread while it runs (a forced close, or the deadline). */
    synchronized void interrupt() {
        if (thread != null) {
            thread.interrupt();
        }
    }

    private void endObservers(List<AttemptObservers> observers) {
        Throwable[] e = errors;
        // Ended in reverse order of their starts, on the thread that started them.
        for (int i = observers.size() - 1; i >= 0; i--) {
            observers.get(i).ended(e == null ? null : e[i]);
        }
    }

    /**
     * Each job's outcome, as its own processor's would be.
     *
     * @param timeout set when the deadline ends the batch: the jobs not reported fail with it
     */
    private List<Ended<T, R>> decide(R result, Throwable error, JobTimeoutException timeout) {
        List<Report<R>> reported;
        synchronized (this) {
            reported = new ArrayList<>(reports);
        }
        Throwable[] outcomeErrors = new Throwable[attempts.size()];
        List<Ended<T, R>> out = new ArrayList<>(attempts.size());
        for (int i = 0; i < attempts.size(); i++) {
            ActiveJob<T> attempt = attempts.get(i);
            Report<R> r = reported.get(i);
            Throwable err;
            R value = null;
            if (r != null) {
                err = r.error();
                value = r.value();
            } else if (timeout != null) {
                err = timeout;
            } else {
                err = error;
                value = result;
            }
            String cancel = attempt.cancelReason();
            if (cancel != null && err == null) {
                // A cancelled job leaves its batch: it fails as cancelled, whatever was reported.
                err = new CancellationException("cancelled: " + cancel);
            }
            outcomeErrors[i] = err;
            Ended<T, R> ended = end(attempt, err, value);
            if (ended != null) {
                out.add(ended);
            }
        }
        errors = outcomeErrors;
        return out;
    }

    /** @return the job's outcome to record, or null when there is nothing to record */
    private Ended<T, R> end(ActiveJob<T> attempt, Throwable error, R value) {
        Job<T> job = attempt.job;
        if (!attempt.returned()) {
            return null;
        }
        if (attempt.abandoned()) {
            if (error != null) {
                // A forced close: record nothing (close handed the job back, or its lock lapses).
                log.info("job {} interrupted by a forced close; it runs again", job.id());
                runner.dropAbandoned(attempt);
                return null;
            }
            attempt.life.move(AttemptLife.Stage.FINISHING);
        }
        if (error instanceof RateLimitedException limited && attempt.cancelReason() == null) {
            // Not a failure: the job goes back to the front of its line, unused attempt and all.
            return new Ended<>(attempt, Finish.limited(job.id(), attempt.lockToken, limited.delay().toMillis(),
                    limited.isGroup()), error, null);
        }
        String children = null;
        if (error == null) {
            try {
                children = runner.planChildren(attempt);
            } catch (IllegalArgumentException e) {
                error = e;
            }
        }
        boolean unrecoverable = error instanceof UnrecoverableJobException;
        String resultJson = null;
        if (error == null) {
            try {
                resultJson = JsonCodec.encodeValue(value, "the return value of job " + job.id());
            } catch (IllegalArgumentException e) {
                // Running the job again would only produce another value that cannot be stored.
                error = e;
                unrecoverable = true;
            }
        }
        if (error != null) {
            runner.attemptFailed(attempt, error, unrecoverable);
        }
        Finish finish = error == null
                ? Finish.completed(job.id(), attempt.lockToken, job.attemptsMade(), resultJson, job.options(),
                        settings.stackTraceLimit())
                : runner.failed(job.id(), attempt.lockToken, job.attemptsMade(), error, unrecoverable, job.options());
        return new Ended<>(attempt, finish.withStagedData(attempt.stagedData()).withChildren(children), error,
                error == null ? value : null);
    }
}
