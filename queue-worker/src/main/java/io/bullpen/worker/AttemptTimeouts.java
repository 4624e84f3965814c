package io.bullpen.worker;

import io.bullpen.JobTimeoutException;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends attempts at their job's timeout. Java cannot stop a thread, only interrupt it: so the
 * processor is interrupted and, whether it stops or not, the attempt is failed at once (through
 * the normal finish: lock released, slot passed on). A processor that ignores the interrupt
 * keeps its thread until it returns, and its late result is discarded. The worker's own pool
 * grows by one thread per such processor, so its slot can run the next job, and shrinks back
 * when it returns; an executor supplied by the application is left as it is.
 */
final class AttemptTimeouts {
    private static final Logger log = LoggerFactory.getLogger(AttemptTimeouts.class);
    /** How long an interrupted processor may take to stop before it is reported as stuck. */
    static final long STUCK_AFTER_MS = 200;

    private final ScheduledExecutorService scheduler;
    private final ThreadPoolExecutor ownPool;
    private final int concurrency;
    /** Threads added for processors that outlived their attempt. Guarded by this. */
    private int extra;

    /**
     * @param ownPool the worker's own processor pool, or null when the application supplied one
     */
    AttemptTimeouts(ScheduledExecutorService scheduler, ThreadPoolExecutor ownPool, int concurrency) {
        this.scheduler = scheduler;
        this.ownPool = ownPool;
        this.concurrency = concurrency;
    }

    /**
     * Arms the timeout of an attempt whose processor is about to run on the current thread.
     *
     * @param fail records the failed attempt; called on the timer thread when the timeout wins
     */
    <T> void arm(ActiveJob<T> attempt, Duration timeout, BiConsumer<ActiveJob<T>, JobTimeoutException> fail) {
        try {
            attempt.timeout(scheduler.schedule(() -> fire(attempt, timeout.toMillis(), fail),
                    timeout.toMillis(), TimeUnit.MILLISECONDS));
        } catch (RejectedExecutionException closing) {
            // The worker is closing: its close timeout bounds this attempt instead.
        }
    }

    private <T> void fire(ActiveJob<T> attempt, long ms, BiConsumer<ActiveJob<T>, JobTimeoutException> fail) {
        Thread thread;
        // Grown under the attempt's lock, which its processor's return takes first: the pool
        // shrinks only after it grew.
        synchronized (attempt) {
            thread = attempt.timeOut();
            if (thread == null) {
                return;
            }
            resize(1);
        }
        JobTimeoutException e = new JobTimeoutException("timed out after " + ms + "ms");
        // Where the processor was when time ran out: more use than the timer's own stack.
        e.setStackTrace(attempt.timeoutTrace());
        fail.accept(attempt, e);
        try {
            scheduler.schedule(() -> reportStuck(attempt, thread, ms), STUCK_AFTER_MS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            // Closing: nothing more to report.
        }
    }

    private void reportStuck(ActiveJob<?> attempt, Thread thread, long ms) {
        if (attempt.markStuck()) {
            log.warn("job {} timed out after {}ms and its processor ignores the interrupt: the attempt failed and its "
                    + "slot moved on, but thread {} still runs it; {}", attempt.id(), ms, thread.getName(),
                    ownPool != null ? "the worker's pool has an extra thread until it returns"
                            : "it holds a thread of the executor supplied to the worker until it returns");
        }
    }

    /**
     * The processor of an attempt that timed out returned, on the current thread: its result is
     * discarded and the pool shrinks back.
     */
    void lateReturn(ActiveJob<?> attempt, Throwable error) {
        resize(-1);
        if (attempt.stuckReported()) {
            log.warn("processor of job {} {} on thread {} after its timeout; its attempt had already failed: outcome "
                    + "discarded{}", attempt.id(), error == null ? "returned" : "threw " + error,
                    Thread.currentThread().getName(), ownPool != null ? ", the pool's extra thread goes" : "");
        } else {
            log.debug("processor of job {} stopped after its timeout; outcome discarded", attempt.id());
        }
    }

    private synchronized void resize(int delta) {
        if (ownPool == null) {
            return;
        }
        extra += delta;
        int size = concurrency + extra;
        // The maximum may never be below the core size: raise it first, lower it last.
        if (delta > 0) {
            ownPool.setMaximumPoolSize(size);
            ownPool.setCorePoolSize(size);
        } else {
            ownPool.setCorePoolSize(size);
            ownPool.setMaximumPoolSize(size);
        }
    }
}
