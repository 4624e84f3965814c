package io.bullpen.worker;

import io.bullpen.JobOptions;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * The validated configuration of one worker. {@code named}: the user chose the name, so it is
 * stored as each job's processedBy (BullMQ does the same; the default name is not stored).
 * Settings of the queue itself (the events cap) are not here: the scripts read them from the
 * queue's meta hash. {@code defaultJobOptions}: per queue, the options filled in for the
 * children a processor adds at runtime where their own options do not set them.
 */
record WorkerSettings(String queue, String prefix, String name, boolean named, int concurrency, Duration lockDuration,
                      Duration stalledInterval, int maxStalledCount, Duration closeTimeout, Duration blockTimeout,
                      Duration janitorInterval, int stackTraceLimit, int keepLogs, Clock clock,
                      Map<String, JobOptions> defaultJobOptions) {
    /** Bounded batches keep every script call short, however large the backlog. */
    static final int PROMOTE_BATCH = 1000;
    static final int STALLED_BATCH = 100;
    static final int JANITOR_BATCH = 100;
}
