package io.bullpen.chaos;

import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.Queue;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adds jobs one at a time at a steady rate until {@code total} adds were acknowledged, whatever
 * happens to Redis meanwhile: an add that throws is counted as a failure (Redis may or may not
 * have kept it) and the producer goes on with the next tick. Job data is the producer's sequence
 * number; with groups, job n goes to group {@code g<n mod groups>}.
 */
final class SteadyProducer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SteadyProducer.class);

    private final Queue<Long> queue;
    private final ChaosLedger ledger;
    private final long total;
    private final int groups;
    private final AtomicLong seq = new AtomicLong();
    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "chaos-producer"));
    private volatile long doneAtMillis = -1;

    SteadyProducer(Queue<Long> queue, ChaosLedger ledger, long total) {
        this(queue, ledger, total, 0);
    }

    SteadyProducer(Queue<Long> queue, ChaosLedger ledger, long total, int groups) {
        this.queue = queue;
        this.ledger = ledger;
        this.total = total;
        this.groups = groups;
    }

    /** Starts adding: {@code total} jobs spread over about {@code over}. */
    SteadyProducer start(Duration over) {
        long periodMicros = Math.max(50, over.toNanos() / 1_000 / total);
        timer.scheduleAtFixedRate(this::tick, 0, periodMicros, TimeUnit.MICROSECONDS);
        return this;
    }

    private void tick() {
        if (ledger.acked.size() >= total) {
            if (doneAtMillis < 0) {
                doneAtMillis = System.currentTimeMillis();
                timer.shutdown();
            }
            return;
        }
        long n = seq.incrementAndGet();
        try {
            Job<Long> job = groups > 0
                    ? queue.add("chaos", n, JobOptions.builder().group("g" + n % groups).build())
                    : queue.add("chaos", n);
            ledger.added(job.id(), n);
        } catch (RuntimeException e) {
            ledger.addFailures.increment();
            log.debug("add #{} failed: {}", n, e.toString());
        }
    }

    boolean done() {
        return doneAtMillis >= 0;
    }

    long acked() {
        return ledger.acked.size();
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
