package io.bullpen.worker;

import io.bullpen.internal.ScriptTypes.RawJob;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The jobs a worker took ahead of its free slots: active and leased in Redis (their
 * locks renewed by {@link LockRenewer}), waiting here in take order until a processor thread
 * frees. They hold no slot; {@link JobRunner} pairs them with slots as they free. Also counts
 * the jobs asked for by calls still under way, so two overlapping calls do not both fill the
 * buffer. Each job waits with its {@link AttemptLife} in stage BUFFERED; whoever takes it out moves it on.
 */
final class AheadBuffer {
    /** A buffered job and its life (stage BUFFERED while here). */
    record Held(RawJob raw, AttemptLife life) {
    }

    private final Queue<Held> jobs = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();
    private final AtomicInteger requested = new AtomicInteger();

    void add(RawJob job) {
        jobs.add(new Held(job, AttemptLife.buffered(job.id())));
        size.incrementAndGet();
    }

    /** @return the oldest buffered job, or null */
    Held poll() {
        Held job = jobs.poll();
        if (job != null) {
            size.decrementAndGet();
        }
        return job;
    }

    /** Takes out a job whose lock could not be renewed; false when it already left. */
    boolean remove(Held job) {
        if (jobs.remove(job)) {
            size.decrementAndGet();
            return true;
        }
        return false;
    }

    boolean isEmpty() {
        return size.get() <= 0;
    }

    int size() {
        return Math.max(0, size.get());
    }

    /** The buffered jobs now (for lock renewal). */
    List<Held> snapshot() {
        return new ArrayList<>(jobs);
    }

    /** Empties the buffer (close): the jobs it held. */
    List<Held> drain() {
        List<Held> out = new ArrayList<>();
        Held job;
        while ((job = poll()) != null) {
            out.add(job);
        }
        return out;
    }

    /**
     * Reserves how many jobs a call about to go out asks for ahead: the target less what is
     * buffered and what calls under way may bring. Pair with {@link #received}.
     */
    int reserve(int target) {
        while (true) {
            int asked = requested.get();
            int n = target - size() - asked;
            if (n <= 0) {
                return 0;
            }
            if (requested.compareAndSet(asked, asked + n)) {
                return n;
            }
        }
    }

    /** The call that reserved {@code n} has answered (its jobs are buffered by now). */
    void received(int n) {
        if (n > 0) {
            requested.addAndGet(-n);
        }
    }
}
