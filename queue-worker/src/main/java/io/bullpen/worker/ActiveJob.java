package io.bullpen.worker;

import io.bullpen.Job;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/** One attempt in flight: the job, its lock token and what may cancel it. */
final class ActiveJob<T> {
    final Job<T> job;
    final String lockToken;
    private final AtomicBoolean lockLost = new AtomicBoolean();
    private volatile boolean cancelled;
    private volatile boolean timedOut;
    private volatile boolean abandoned;
    private volatile boolean returned;
    private Thread thread;
    private ScheduledFuture<?> timeout;

    ActiveJob(Job<T> job, String lockToken) {
        this.job = job;
        this.lockToken = lockToken;
    }

    String id() {
        return job.id();
    }

    /** @return true the first time: the caller reports the loss */
    boolean markLockLost() {
        if (lockLost.compareAndSet(false, true)) {
            cancel();
            return true;
        }
        return false;
    }

    boolean lockLost() {
        return lockLost.get();
    }

    void timeOut() {
        timedOut = true;
        cancel();
    }

    boolean timedOut() {
        return timedOut;
    }

    /** A forced close gave up on this attempt: its outcome is not recorded, its lock lapses. */
    void abandon() {
        abandoned = true;
        cancel();
    }

    boolean abandoned() {
        return abandoned;
    }

    /** @return true once the processor has returned (the outcome is being recorded) */
    boolean returned() {
        return returned;
    }

    /** Flags the attempt and interrupts the processor thread, if it is still running. */
    synchronized void cancel() {
        cancelled = true;
        if (thread != null) {
            thread.interrupt();
        }
    }

    boolean cancelled() {
        return cancelled;
    }

    synchronized void running(Thread t) {
        thread = t;
    }

    synchronized void timeout(ScheduledFuture<?> future) {
        timeout = future;
    }

    /**
     * Called on the processor thread when the processor returned. After this no interrupt can
     * reach the thread for this job, so the caller can clear a pending one.
     */
    synchronized void done() {
        thread = null;
        returned = true;
        if (timeout != null) {
            timeout.cancel(false);
        }
    }
}
