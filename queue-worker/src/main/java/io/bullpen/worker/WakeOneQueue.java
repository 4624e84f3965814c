package io.bullpen.worker;

import java.util.AbstractQueue;
import java.util.Collection;
import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The task queue of the worker's own processor pool. A finish call hands a batch of jobs to the
 * pool at once; with a {@code LinkedBlockingQueue} every take that leaves work behind wakes
 * another idle thread, so a batch of n jobs woke about n threads, each a context switch, even
 * when the first thread could run them all (a short job ends before a woken thread gets going).
 * Here at most one idle thread is being woken at a time:
 * 1. adding a task wakes an idle thread unless one is already waking;
 * 2. the woken thread takes a task and, if more are queued, wakes the next one (unless one is
 *    already waking); so a processor that blocks never holds up the tasks queued behind it: they
 *    go to the other threads one wake-up after another, as before;
 * 3. a thread coming back from a job takes queued work before it waits.
 * Unbounded, like the pool's default queue.
 */
final class WakeOneQueue extends AbstractQueue<Runnable> implements BlockingQueue<Runnable> {
    private final ConcurrentLinkedQueue<Runnable> items = new ConcurrentLinkedQueue<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition available = lock.newCondition();
    /** Threads waiting for a task. Guarded by {@link #lock}. */
    private int idle;
    /** A waiting thread was signalled and has not yet looked at the queue. Guarded by {@link #lock}. */
    private boolean waking;

    @Override
    public boolean offer(Runnable task) {
        items.add(Objects.requireNonNull(task, "task"));
        wakeOne();
        return true;
    }

    @Override
    public void put(Runnable task) {
        offer(task);
    }

    @Override
    public boolean offer(Runnable task, long timeout, TimeUnit unit) {
        return offer(task);
    }

    @Override
    public Runnable take() throws InterruptedException {
        return await(false, 0);
    }

    @Override
    public Runnable poll(long timeout, TimeUnit unit) throws InterruptedException {
        return await(true, unit.toNanos(timeout));
    }

    /** A task, waiting as an idle thread until one comes (or {@code nanos} pass when timed: null). */
    private Runnable await(boolean timed, long nanos) throws InterruptedException {
        Runnable task = items.poll();
        if (task == null) {
            lock.lockInterruptibly();
            try {
                while ((task = items.poll()) == null) {
                    if (timed && nanos <= 0) {
                        return null;
                    }
                    idle++;
                    try {
                        if (timed) {
                            nanos = available.awaitNanos(nanos);
                        } else {
                            available.await();
                        }
                    } finally {
                        idle--;
                        waking = false;
                    }
                }
            } finally {
                lock.unlock();
            }
        }
        passOn();
        return task;
    }

    /** Work left behind after a take goes to the next idle thread (step 2). */
    private void passOn() {
        if (!items.isEmpty()) {
            wakeOne();
        }
    }

    private void wakeOne() {
        lock.lock();
        try {
            if (idle > 0 && !waking) {
                waking = true;
                available.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Runnable poll() {
        return items.poll();
    }

    @Override
    public Runnable peek() {
        return items.peek();
    }

    @Override
    public boolean remove(Object o) {
        return items.remove(o);
    }

    @Override
    public int size() {
        return items.size();
    }

    @Override
    public boolean isEmpty() {
        return items.isEmpty();
    }

    @Override
    public Iterator<Runnable> iterator() {
        return items.iterator();
    }

    @Override
    public int remainingCapacity() {
        return Integer.MAX_VALUE;
    }

    @Override
    public int drainTo(Collection<? super Runnable> c) {
        return drainTo(c, Integer.MAX_VALUE);
    }

    @Override
    public int drainTo(Collection<? super Runnable> c, int maxElements) {
        int n = 0;
        Runnable task;
        while (n < maxElements && (task = items.poll()) != null) {
            c.add(task);
            n++;
        }
        return n;
    }
}
