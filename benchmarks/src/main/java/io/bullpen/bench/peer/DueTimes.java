package io.bullpen.bench.peer;

/**
 * Due times spread uniformly: job {@code i} of {@code n} is due at
 * {@code start + leadMs + i * spreadMs / n}.
 */
public final class DueTimes {
    private final long base;
    private final int jobs;
    private final long spreadMs;

    /**
     * @param jobs how many jobs
     * @param leadMs from now to the first due time
     * @param spreadMs the span of the due times
     */
    public DueTimes(int jobs, long leadMs, long spreadMs) {
        this.base = System.currentTimeMillis() + leadMs;
        this.jobs = jobs;
        this.spreadMs = spreadMs;
    }

    /**
     * @param i the job's index
     * @return its due time, epoch milliseconds
     */
    public long due(int i) {
        return base + i * spreadMs / jobs;
    }

    /**
     * @param i the job's index
     * @return its delay from now, never negative
     */
    public long delayFromNow(int i) {
        return Math.max(0, due(i) - System.currentTimeMillis());
    }
}
