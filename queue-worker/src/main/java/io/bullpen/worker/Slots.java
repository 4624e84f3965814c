package io.bullpen.worker;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The worker's {@code concurrency} slots and the attempts that hold them.
 *
 * <p>A slot is <em>free</em> (a permit) or <em>held</em>. It is held from the moment the fetch
 * loop takes it ({@link #takeFree}) until it is {@link #release released}; while held it goes
 * through: a fetch under way, a job taken (read, handed to the executor), an attempt
 * <em>in flight</em> (its processor runs, or its result is being recorded), a finish under way
 * (whose call may take the next job: the slot then passes to that job without being released),
 * or a job given back on close. Invariant:
 *
 * <pre>
 *   free + held == concurrency            (always, between two calls of this class)
 *   inFlight &lt;= held                      (an attempt in flight holds its slot)
 *   inFlight == held                       (at quiescence: no fetch, finish or give-back under way)
 * </pre>
 *
 * Take-ahead: an attempt whose processor returned may pass its slot to a buffered job before its
 * result is recorded ({@link #passOn}); it stays in flight but holds no slot, so "in flight" in
 * the invariant counts the attempts that hold one ({@link #inFlightCount}).
 *
 * "In flight" means one thing here: an attempt between {@link #begin} (its processor is about
 * to be handed out) and {@link #end} (its result recorded, rejected or given up, or the attempt
 * abandoned). {@link Worker#activeCount()} counts them and close waits for them.
 *
 * @param <T> the type of the jobs' data
 */
final class Slots<T> {
    private final int concurrency;
    private final AtomicInteger free;
    private final AtomicInteger held = new AtomicInteger();
    private final Map<String, ActiveJob<T>> inFlight = new ConcurrentHashMap<>();
    /**
     * Attempts in flight whose slot already passed to a buffered job (take-ahead: the thread that
     * ran them starts the next buffered job while their result is recorded); they hold no slot.
     */
    private final AtomicInteger passedOn = new AtomicInteger();
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when a slot frees, the last attempt ends, or the worker stops. */
    private final Condition changed = lock.newCondition();

    Slots(int concurrency) {
        this.concurrency = concurrency;
        this.free = new AtomicInteger(concurrency);
    }

    /** Takes every free slot (the fetch loop asks for that many jobs). */
    int takeFree() {
        int n = free.getAndSet(0);
        held.addAndGet(n);
        return n;
    }

    /** Takes one free slot (for a buffered job), or none. */
    boolean tryTakeOne() {
        while (true) {
            int n = free.get();
            if (n <= 0) {
                return false;
            }
            if (free.compareAndSet(n, n - 1)) {
                held.incrementAndGet();
                return true;
            }
        }
    }

    /**
     * The attempt's slot passes to a buffered job now, while its result is still recorded: it
     * stays in flight (close waits for it) but holds no slot.
     */
    void passOn(ActiveJob<T> attempt) {
        if (attempt.passSlot()) {
            passedOn.incrementAndGet();
        }
    }

    /** Returns {@code n} slots taken by {@link #takeFree} that got no job. */
    void returnUnused(int n) {
        if (n > 0) {
            held.addAndGet(-n);
            free.addAndGet(n);
        }
    }

    /** The slot of an attempt or finish is free again. */
    void release() {
        held.decrementAndGet();
        free.incrementAndGet();
        signal();
    }

    /** An attempt holding a slot is in flight. */
    void begin(ActiveJob<T> attempt) {
        inFlight.put(attempt.id(), attempt);
    }

    /**
     * The attempt is over (its slot is released or passed on separately). Conditional: the same
     * job may already run again in this worker as a new attempt.
     */
    void end(ActiveJob<T> attempt) {
        if (inFlight.remove(attempt.id(), attempt)) {
            if (attempt.slotPassed()) {
                passedOn.decrementAndGet();
            }
            if (inFlight.isEmpty()) {
                signal();
            }
        }
    }

    ActiveJob<T> attempt(String jobId) {
        return inFlight.get(jobId);
    }

    /** @return no attempt at all is in flight (also none whose slot passed on) */
    boolean noneInFlight() {
        return inFlight.isEmpty();
    }

    /** The attempts in flight, by job id (a live view, for renewing their locks). */
    Map<String, ActiveJob<T>> inFlight() {
        return inFlight;
    }

    /** @return the attempts in flight that hold a slot (at most concurrency) */
    int inFlightCount() {
        return Math.max(0, inFlight.size() - passedOn.get());
    }

    /** Wakes whoever waits here (the worker stops). */
    void signal() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Blocks until a slot is free, the worker stops ({@link #signal}), or {@code maxMillis} pass. */
    void awaitFree(long maxMillis, java.util.function.BooleanSupplier running) throws InterruptedException {
        lock.lock();
        try {
            if (running.getAsBoolean() && free.get() == 0) {
                changed.await(maxMillis, TimeUnit.MILLISECONDS);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Blocks until no attempt is in flight or the deadline passes.
     *
     * @return true when none is in flight
     */
    boolean awaitNoneInFlight(long deadlineNanos) throws InterruptedException {
        lock.lock();
        try {
            while (!inFlight.isEmpty()) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                changed.awaitNanos(left);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Checks the invariant (for tests).
     *
     * @param quiescent no fetch, finish or give-back is under way
     * @throws IllegalStateException naming the counts when it does not hold
     */
    void checkInvariant(boolean quiescent) {
        int f = free.get();
        int h = held.get();
        int a = inFlightCount();
        if (f + h != concurrency || a > h || (quiescent && a != h) || f < 0 || h < 0) {
            throw new IllegalStateException("slots out of balance: free " + f + ", held " + h + ", in flight " + a
                    + ", concurrency " + concurrency);
        }
    }

    int free() {
        return free.get();
    }

    int held() {
        return held.get();
    }
}
