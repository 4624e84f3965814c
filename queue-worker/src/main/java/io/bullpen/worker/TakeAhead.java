package io.bullpen.worker;

/**
 * How many jobs a worker takes ahead of its free slots (docs/adr/0003-take-ahead.md).
 * Two moving averages decide: the processing time per job and the round trip of the worker's
 * fetch and finish calls. While jobs take at least a round trip, nothing is taken ahead (long
 * jobs are never hoarded: other workers get them); below that, enough to keep every processor
 * thread fed for one round trip ({@code concurrency * roundTrip / processing}), never above the
 * cap. A new worker starts at 0 and learns from its first jobs and calls.
 *
 * <p>The averages are updated without a lock: a lost update between two threads only nudges an
 * average, and the take-ahead is a hint, not a guarantee.
 */
final class TakeAhead {
    /** The builder's "adaptive with the default cap". */
    static final int DEFAULT = -1;
    /** Weight of a new sample in the moving averages. */
    private static final double WEIGHT = 0.1;
    /** A processing time below this (ns) counts as this: no division by ~0. */
    private static final double MIN_PROCESSING_NANOS = 1_000;

    private final int concurrency;
    private final int cap;
    private volatile double processingNanos = -1;
    private volatile double roundTripNanos = -1;

    /**
     * @param concurrency the worker's processor threads
     * @param max the most jobs held beyond the running ones; {@link #DEFAULT} for
     *     {@link #DEFAULT_CAP}; 0 = off
     */
    TakeAhead(int concurrency, int max) {
        this.concurrency = concurrency;
        this.cap = max == DEFAULT ? DEFAULT_CAP : max;
    }

    /**
     * The default cap, the same at every concurrency: the formula above already keeps the buffer
     * at about one round trip of work, so the cap binds only for jobs of a few microseconds, where
     * a bigger batch per call is the whole gain (measured with {@code ProfileMain}, no-op jobs, 50,000 after a 50,000-job
     * warm-up: concurrency 1 at cap 16 / 64 / 200: 9.4-10.1k / 12.3-14.3k / 16.2-19.2k jobs/s;
     * concurrency 10 at cap 40 / 100 / 200: 13.4-14.8k / 16.1-16.5k / 15.3-19.0k). A call then
     * takes at most about as many jobs as a concurrency-100 worker's did with the earlier
     * {@code min(200, max(4 * concurrency, 16))}.
     */
    static final int DEFAULT_CAP = 200;

    boolean enabled() {
        return cap > 0;
    }

    int cap() {
        return cap;
    }

    /** A processor ran for {@code nanos}. */
    void processed(long nanos) {
        if (cap > 0) {
            processingNanos = average(processingNanos, nanos);
        }
    }

    /** A fetch or finish call took {@code nanos} from send to reply. */
    void roundTrip(long nanos) {
        if (cap > 0) {
            roundTripNanos = average(roundTripNanos, nanos);
        }
    }

    /** @return how many jobs the worker should hold beyond its running ones now */
    int target() {
        double p = processingNanos;
        double r = roundTripNanos;
        if (cap == 0 || p < 0 || r < 0 || p >= r) {
            return 0;
        }
        double perRoundTrip = concurrency * r / Math.max(p, MIN_PROCESSING_NANOS);
        return (int) Math.min(cap, Math.ceil(perRoundTrip));
    }

    private static double average(double old, long sample) {
        return old < 0 ? sample : old + WEIGHT * (sample - old);
    }
}
