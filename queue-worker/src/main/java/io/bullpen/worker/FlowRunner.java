package io.bullpen.worker;

import io.bullpen.internal.FlowReconciler;
import io.bullpen.internal.FlowRelay;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's share of carrying flows through, leader-free (every worker of a queue in a flow
 * does it; each step is idempotent):
 * <ol>
 * <li>relays this queue's outbox: ends of its jobs bound for parents in other slots (at once after
 *     such a job ends, and every {@link #INTERVAL_MS} in case a worker died before relaying);</li>
 * <li>carries on flows rooted in this queue whose producer stopped before creating all their jobs;</li>
 * <li>every {@link #RECONCILE_EVERY_MS}, reconciles this queue's waiting parents (see {@link FlowReconciler}).</li>
 * </ol>
 */
final class FlowRunner implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(FlowRunner.class);
    static final long INTERVAL_MS = 1_000;
    static final long RECONCILE_EVERY_MS = 30_000;
    /** A parent must have waited this long before the reconciler looks at it (its flow may still be being created). */
    static final long RECONCILE_GRACE_MS = 60_000;
    /** A committed flow this old and not fully created is carried on by workers. */
    static final long CARRY_ON_AFTER_MS = 5_000;
    private static final int BATCH = 100;

    private final String queue;
    private final FlowRelay relay;
    private final FlowReconciler reconciler;
    private final ScheduledExecutorService scheduler;
    private final java.time.Clock clock;
    private final AtomicBoolean relayQueued = new AtomicBoolean();
    private long lastReconcile;

    FlowRunner(String queue, FlowRelay relay, FlowReconciler reconciler, ScheduledExecutorService scheduler,
               java.time.Clock clock) {
        this.queue = queue;
        this.relay = relay;
        this.reconciler = reconciler;
        this.scheduler = scheduler;
        this.clock = clock;
        this.lastReconcile = clock.millis();
    }

    /** A job of this queue with a parent ended: relay its end soon (coalesced). */
    void relaySoon() {
        if (relayQueued.compareAndSet(false, true)) {
            try {
                scheduler.execute(() -> {
                    relayQueued.set(false);
                    relayOutbox();
                });
            } catch (java.util.concurrent.RejectedExecutionException closing) {
                relayQueued.set(false);
            }
        }
    }

    @Override
    public void run() {
        relayOutbox();
        try {
            relay.carryOnFlows(queue, CARRY_ON_AFTER_MS, 10);
        } catch (RuntimeException e) {
            log.warn("carrying on the flows of queue {} failed: {}", queue, e.toString());
        }
        long now = clock.millis();
        if (now - lastReconcile >= RECONCILE_EVERY_MS) {
            lastReconcile = now;
            try {
                reconciler.reconcile(queue, RECONCILE_GRACE_MS, BATCH);
            } catch (RuntimeException e) {
                log.warn("reconciling the waiting parents of queue {} failed: {}", queue, e.toString());
            }
        }
    }

    private void relayOutbox() {
        try {
            while (relay.relayOutbox(queue, BATCH) == BATCH) {
                // more entries: go on
            }
        } catch (RuntimeException e) {
            log.warn("relaying the child ends of queue {} to their parents failed (retried): {}", queue, e.toString());
        }
    }
}
