package io.bullpen.bench.peer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;

/** What in-process consumers started, as latenesses in milliseconds, for waiting on a count. */
public final class Consumed {
    private final List<Long> lateness = new ArrayList<>();

    /** @param latenessMs a job's start time minus its due time */
    public synchronized void record(long latenessMs) {
        lateness.add(latenessMs);
        notifyAll();
    }

    /**
     * @param total jobs to wait for
     * @param timeout how long
     * @return the first {@code total} latenesses
     * @throws TimeoutException when fewer came in time
     * @throws InterruptedException when interrupted
     */
    public synchronized List<Long> await(int total, Duration timeout) throws TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (lateness.size() < total) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                throw new TimeoutException("consumed " + lateness.size() + " of " + total + " jobs in " + timeout);
            }
            wait(left);
        }
        return List.copyOf(lateness.subList(0, total));
    }
}
