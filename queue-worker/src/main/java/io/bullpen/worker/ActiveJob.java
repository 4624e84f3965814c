package io.bullpen.worker;

import io.bullpen.Job;
import io.bullpen.flow.FlowJob;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One attempt in flight: the job, its lock token, its stage ({@link AttemptLife}) and what may
 * cancel it. Its outcome is claimed once ({@code RUNNING -> FINISHING}), by whichever comes first:
 * the processor returning, or the job's timeout (which fails the attempt while the processor may
 * still run).
 */
final class ActiveJob<T> {
    final Job<T> job;
    final String lockToken;
    /** The job's group as the take's reply gave it (null = none): passed back with the result. */
    final String group;
    private final AtomicBoolean lockLost = new AtomicBoolean();
    private volatile boolean cancelled;
    /** Why a producer cancelled the job (Queue.cancel, Worker.cancel); null while it was not. */
    private volatile String cancelReason;
    /** Where the attempt is: every move of it goes through here. */
    final AttemptLife life;
    private boolean timedOut;
    private boolean stuck;
    private StackTraceElement[] timeoutTrace = new StackTraceElement[0];
    private Thread thread;
    private ScheduledFuture<?> timeout;
    /** A step job's staged data (JSON), written with the outcome; null = none. */
    private volatile String stagedData;
    /** When a step job asked to be due again (epoch ms); -1 = it did not ask for a delay. */
    private volatile long stepDueMs = -1;
    /** Children the processor added ({@code JobContext.addChildren}), recorded with the outcome. */
    private final List<FlowJob.Edge> stagedChildren = new ArrayList<>();
    /** The processor asked to wait for its children ({@code JobContext.waitForChildren}). */
    private volatile boolean waitForChildren;
    /** Take-ahead: when a buffered job's processor started (epoch ms); 0 = not taken ahead. */
    volatile long startedOn;
    /** Take-ahead: this attempt's slot passed to a buffered job while its result is recorded. */
    private final AtomicBoolean slotPassed = new AtomicBoolean();

    ActiveJob(Job<T> job, String lockToken, String group, AttemptLife life) {
        this.life = life;
        this.job = job;
        this.lockToken = lockToken;
        this.group = group;
    }

    String id() {
        return job.id();
    }

    /** @return whether the job has a parent in a flow (its par field, in the hash the take read) */
    boolean hasParent() {
        return io.bullpen.internal.WireFormat.fields(job).containsKey(io.bullpen.internal.JobFields.PARENTS);
    }

    /** @return true the first time: the slot passes on (see {@link Slots#passOn}) */
    boolean passSlot() {
        return slotPassed.compareAndSet(false, true);
    }

    boolean slotPassed() {
        return slotPassed.get();
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

    /**
     * The timeout fired: claims the outcome, notes where the processor was and interrupts it.
     *
     * @return the processor's thread when the attempt was still running (the caller fails it),
     *     null when it had already returned or was abandoned
     */
    synchronized Thread timeOut() {
        if (thread == null || !life.claim(AttemptLife.Stage.RUNNING, AttemptLife.Stage.FINISHING)) {
            return null;
        }
        timedOut = true;
        cancelled = true;
        timeoutTrace = thread.getStackTrace();
        thread.interrupt();
        return thread;
    }

    /** @return the processor's stack when its attempt timed out (empty when it did not) */
    synchronized StackTraceElement[] timeoutTrace() {
        return timeoutTrace;
    }

    /** @return true (once) when the processor of a timed-out attempt still runs: it is reported */
    synchronized boolean markStuck() {
        if (timedOut && thread != null && !stuck) {
            stuck = true;
            return true;
        }
        return false;
    }

    synchronized boolean stuckReported() {
        return stuck;
    }

    /**
     * A forced close gave up on this attempt (not yet started, or running): a failure it ends with
     * is not recorded, its lock lapses or close hands it back. Its stage stays once its outcome is
     * claimed; the processor is interrupted either way.
     */
    void abandon() {
        if (!life.claim(AttemptLife.Stage.RUNNING, AttemptLife.Stage.ABANDONED)) {
            life.claim(AttemptLife.Stage.TAKEN, AttemptLife.Stage.ABANDONED);
        }
        cancel();
    }

    boolean abandoned() {
        return life.is(AttemptLife.Stage.ABANDONED);
    }

    /** @return true once the outcome is being recorded (the lock ends with it: no renewal) */
    boolean ended() {
        return life.outcomeClaimed();
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

    /**
     * The job was cancelled: remembers why, flags the attempt and interrupts the
     * processor thread, if it is still running.
     *
     * @return true the first time
     */
    synchronized boolean requestCancel(String reason) {
        if (cancelReason != null) {
            return false;
        }
        cancelReason = reason;
        cancel();
        return true;
    }

    /** @return why the job was cancelled, null when it was not */
    String cancelReason() {
        return cancelReason;
    }

    void stageData(String json) {
        stagedData = json;
    }

    String stagedData() {
        return stagedData;
    }

    /** A delay: the last of delay and {@link #waitForChildren()} wins. */
    void stepDue(long dueMs) {
        stepDueMs = Math.max(0, dueMs);
        waitForChildren = false;
    }

    /** A wait for children: the last of it and {@link #stepDue} wins. */
    void waitForChildren() {
        waitForChildren = true;
        stepDueMs = -1;
    }

    boolean waitsForChildren() {
        return waitForChildren;
    }

    /** @return the children staged so far with {@code more} appended (not staged: the caller checks it first) */
    synchronized List<FlowJob.Edge> childrenWith(List<FlowJob.Edge> more) {
        List<FlowJob.Edge> all = new ArrayList<>(stagedChildren);
        all.addAll(more);
        return all;
    }

    /** The children planned when the processor returned; {@link RuntimeChildren#NONE} before or without. */
    private volatile RuntimeChildren plannedChildren = RuntimeChildren.NONE;

    void plannedChildren(RuntimeChildren children) {
        this.plannedChildren = children;
    }

    RuntimeChildren plannedChildren() {
        return plannedChildren;
    }

    synchronized void stageChildren(List<FlowJob.Edge> more) {
        stagedChildren.addAll(more);
    }

    /** @return the children staged, in order */
    synchronized List<FlowJob.Edge> stagedChildren() {
        return List.copyOf(stagedChildren);
    }

    long stepDueMs() {
        return stepDueMs;
    }

    /** The processor starts on {@code t} ({@code TAKEN -> RUNNING}; an abandoned attempt stays abandoned). */
    synchronized void running(Thread t) {
        life.claim(AttemptLife.Stage.TAKEN, AttemptLife.Stage.RUNNING);
        thread = t;
    }

    synchronized void timeout(ScheduledFuture<?> future) {
        timeout = future;
    }

    /**
     * Called on the processor thread when the processor returned. After this no interrupt can
     * reach the thread for this job, so the caller can clear a pending one.
     *
     * @return true when this return owns the outcome ({@code RUNNING -> FINISHING}, or still
     *     {@code ABANDONED}: the caller decides); false when the timeout already failed the attempt
     *     (the result is discarded)
     */
    synchronized boolean returned() {
        thread = null;
        if (timeout != null) {
            timeout.cancel(false);
        }
        return life.claim(AttemptLife.Stage.RUNNING, AttemptLife.Stage.FINISHING)
                || life.is(AttemptLife.Stage.ABANDONED);
    }
}
