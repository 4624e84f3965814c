package io.bullpen.worker;

import io.bullpen.Job;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs each failed attempt of a worker's jobs once, on the logger
 * {@code io.bullpen.worker.JobFailures} (users turn it down by that name):
 * 1. an attempt that will be retried: one WARN line naming the queue, the job's id and name,
 *    "attempt n of m" and the exception's class and message, without its stack trace;
 * 2. the last attempt, or one that fails the job for good (unrecoverable, a return value that
 *    cannot be stored, data that cannot be read): ERROR with the stack trace; so is an
 *    {@link Error} thrown by a processor (the JVM may be in trouble), retried or not;
 * 3. at most {@link #LINES_PER_SECOND} lines per second per worker: the failures past that are
 *    counted, and {@link #SUMMARY_AFTER_MS} after the first of them one line says
 *    "N failures not logged in the last 10 s" (at ERROR when one of them was final).
 * A {@code RateLimitedException}, a step and a cancelled job are not failures: the caller does
 * not report them. A level switched off costs one check and counts nothing.
 */
final class JobFailures {
    private static final Logger log = LoggerFactory.getLogger(JobFailures.class);
    static final int LINES_PER_SECOND = 10;
    static final long SUMMARY_AFTER_MS = 10_000;
    private static final long SECOND_NANOS = 1_000_000_000L;

    /** The time the rate limit counts seconds by; a fake in tests. */
    interface Ticker {
        long nanoTime();
    }

    /** Runs the summary later (the worker's timer); a capture in tests. */
    interface Timer {
        void schedule(Runnable task, long delayMs);
    }

    private final String queue;
    private final Ticker ticker;
    private final Timer timer;
    /** Guarded by this: the current one-second window and the lines logged in it. */
    private long windowStart;
    private int linesInWindow;
    private boolean windowOpen;
    /** Guarded by this: failures not logged since the last summary. */
    private int notLogged;
    private boolean notLoggedFinal;
    private boolean summaryDue;

    JobFailures(String queue, Ticker ticker, Timer timer) {
        this.queue = queue;
        this.ticker = ticker;
        this.timer = timer;
    }

    /**
     * A processor's attempt failed (it threw, timed out, or returned a value that cannot be stored).
     *
     * @param job the job as it was taken (its attemptsMade does not count this attempt)
     * @param last no attempt follows: the job fails for good
     */
    void attemptFailed(Job<?> job, Throwable error, boolean last) {
        boolean fatal = error instanceof Error && !(error instanceof AssertionError);
        boolean atError = last || fatal;
        if (!(atError ? log.isErrorEnabled() : log.isWarnEnabled()) || !permit(atError)) {
            return;
        }
        int attempt = job.attemptsMade() + 1;
        int attempts = Math.max(attempt, job.options().attempts());
        if (!atError) {
            log.warn("queue {}: job {} ({}) failed attempt {} of {} and will be retried: {}", queue, job.id(),
                    job.name(), attempt, attempts, describe(error));
            return;
        }
        String outcome = !last ? "will be retried; the worker keeps running"
                + (error instanceof OutOfMemoryError ? " (this JVM is short of memory)" : "")
                : attempt < attempts ? "the job failed for good (no retry for this failure)"
                : "the job failed for good";
        log.error("queue {}: job {} ({}) failed attempt {} of {}, {}: {}", queue, job.id(), job.name(), attempt,
                attempts, outcome, describe(error), error);
    }

    /** A job's data or options could not be read: it fails for good without running. */
    void unreadable(String jobId, Throwable error) {
        if (log.isErrorEnabled() && permit(true)) {
            log.error("queue {}: job {} cannot be read, the job failed for good without running: {}", queue, jobId,
                    describe(error), error);
        }
    }

    /** @return true when the line may be logged; false: counted for the summary */
    private boolean permit(boolean last) {
        boolean scheduleSummary = false;
        synchronized (this) {
            long now = ticker.nanoTime();
            if (!windowOpen || now - windowStart >= SECOND_NANOS) {
                windowOpen = true;
                windowStart = now;
                linesInWindow = 0;
            }
            if (linesInWindow < LINES_PER_SECOND) {
                linesInWindow++;
                return true;
            }
            notLogged++;
            notLoggedFinal |= last;
            if (!summaryDue) {
                summaryDue = true;
                scheduleSummary = true;
            }
        }
        if (scheduleSummary) {
            try {
                timer.schedule(this::summary, SUMMARY_AFTER_MS);
            } catch (RuntimeException closing) {
                // The worker's timer has stopped (close): say it now.
                summary();
            }
        }
        return false;
    }

    /** Logs how many failures went unlogged since the first of them, and starts counting anew. */
    void summary() {
        int count;
        boolean anyFinal;
        synchronized (this) {
            count = notLogged;
            anyFinal = notLoggedFinal;
            notLogged = 0;
            notLoggedFinal = false;
            summaryDue = false;
        }
        if (count == 0) {
            return;
        }
        String format = "queue {}: {} failures not logged in the last 10 s (at most " + LINES_PER_SECOND
                + " lines per second per worker; each failed job keeps its failedReason and stack trace)";
        if (anyFinal) {
            log.error(format, queue, count);
        } else {
            log.warn(format, queue, count);
        }
    }

    /** The exception's class and message, as one line. */
    static String describe(Throwable error) {
        String message = error.getMessage();
        return message == null || message.isBlank() ? error.getClass().getName()
                : error.getClass().getName() + ": " + message.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
