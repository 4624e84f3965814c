package io.bullpen.micrometer;

import io.bullpen.JobCounts;
import io.bullpen.JobState;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One queue's job counts for its gauges: a scrape reads every state's gauge one after another, so
 * the first read fetches the counts (one Redis call) and the rest reuse them until they are
 * {@code ttlMillis} old. A failed read is remembered for as long, so a scrape while Redis is down
 * costs one timeout, not one per gauge; the gauges then report NaN.
 */
final class CachedCounts {
    private static final Logger log = LoggerFactory.getLogger(CachedCounts.class);

    private final String queue;
    private final Supplier<JobCounts> source;
    private final LongSupplier clockMillis;
    private final long ttlMillis;
    private JobCounts counts;
    private long readAt;
    private boolean read;

    CachedCounts(String queue, Supplier<JobCounts> source, LongSupplier clockMillis, long ttlMillis) {
        this.queue = queue;
        this.source = source;
        this.clockMillis = clockMillis;
        this.ttlMillis = ttlMillis;
    }

    /** @return the number of jobs in {@code state}, or NaN when the counts cannot be read */
    synchronized double count(JobState state) {
        long now = clockMillis.getAsLong();
        if (!read || now - readAt >= ttlMillis) {
            read = true;
            readAt = now;
            try {
                counts = source.get();
            } catch (RuntimeException e) {
                counts = null;
                log.warn("could not read the job counts of queue {} for its gauges: {}", queue, e.toString());
            }
        }
        return counts == null ? Double.NaN : counts.count(state);
    }
}
