package io.bullpen.worker;

import io.bullpen.internal.WorkerScripts.Pulse;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's share of carrying flows through, leader-free (every worker of a queue in a flow
 * does it; each step is idempotent), on its own thread, and without polling: an idle worker sends
 * nothing for flows.
 * <ol>
 * <li>relays this queue's outbox (ends of its jobs bound for parents in other slots): at once
 *     after such a job of this worker ended, and whenever the heartbeat finds entries left (a
 *     worker died before relaying);</li>
 * <li>carries on flows rooted in this queue whose producer stopped before creating all their jobs,
 *     when the heartbeat finds one committed {@link #CARRY_ON_AFTER_MS} ago;</li>
 * <li>reconciles this queue's waiting parents (see {@code FlowReconciler}) when the heartbeat finds
 *     one waiting for {@link #RECONCILE_GRACE_MS}, at most every {@link #RECONCILE_EVERY_MS}.</li>
 * </ol>
 */
final class FlowRunner {
    private static final Logger log = LoggerFactory.getLogger(FlowRunner.class);
    static final long RECONCILE_EVERY_MS = 30_000;
    /** A parent must have waited this long before the reconciler looks at it (its flow may still be being created). */
    static final long RECONCILE_GRACE_MS = 60_000;
    /** A committed flow this old and not fully created is carried on by workers. */
    static final long CARRY_ON_AFTER_MS = 5_000;
    private static final int BATCH = 100;

    private final String queue;
    private final WorkerStore store;
    private final ExecutorService thread;
    private final Clock clock;
    private final AtomicBoolean relayQueued = new AtomicBoolean();
    private final AtomicBoolean workQueued = new AtomicBoolean();
    private long lastReconcile = Long.MIN_VALUE / 2;

    FlowRunner(String queue, WorkerStore store, ExecutorService thread, Clock clock) {
        this.queue = queue;
        this.store = store;
        this.thread = thread;
        this.clock = clock;
    }

    /** A job of this queue with a parent ended: relay its end soon (coalesced). */
    void relaySoon() {
        if (relayQueued.compareAndSet(false, true)) {
            submit(() -> {
                relayQueued.set(false);
                relayOutbox();
            }, relayQueued);
        }
    }

    /**
     * A job of this queue added children at runtime (staged under {@code flowId} with its finish):
     * create them now. A failure is left to the heartbeat's carry-on.
     */
    void materializeSoon(String flowId) {
        try {
            thread.execute(() -> {
                try {
                    store.materializeFlow(flowId);
                } catch (RuntimeException e) {
                    log.warn("creating the children staged in queue {} (flow {}) failed; workers carry them on: {}",
                            queue, flowId, e.toString());
                }
            });
        } catch (RejectedExecutionException closing) {
            // Closing: the heartbeat of a worker of this queue carries the flow on.
        }
    }

    /** The heartbeat found flow work ({@link Pulse#flowWork()} bits). */
    void work(int flowWork) {
        if (workQueued.compareAndSet(false, true)) {
            submit(() -> {
                workQueued.set(false);
                if ((flowWork & Pulse.RELAY) != 0) {
                    relayOutbox();
                }
                if ((flowWork & Pulse.CARRY_ON) != 0) {
                    carryOn();
                }
                if ((flowWork & Pulse.RECONCILE) != 0) {
                    reconcile();
                }
            }, workQueued);
        }
    }

    private void submit(Runnable task, AtomicBoolean queued) {
        try {
            thread.execute(task);
        } catch (RejectedExecutionException closing) {
            queued.set(false);
        }
    }

    private void relayOutbox() {
        try {
            while (store.relayOutbox(BATCH) == BATCH) {
                // more entries: go on
            }
        } catch (RuntimeException e) {
            log.warn("relaying the child ends of queue {} to their parents failed (retried): {}", queue, e.toString());
        }
    }

    private void carryOn() {
        try {
            store.carryOnFlows(CARRY_ON_AFTER_MS, 10);
        } catch (RuntimeException e) {
            log.warn("carrying on the flows of queue {} failed (retried): {}", queue, e.toString());
        }
    }

    private void reconcile() {
        long now = clock.millis();
        if (now - lastReconcile < RECONCILE_EVERY_MS) {
            return;
        }
        lastReconcile = now;
        try {
            store.reconcileFlows(RECONCILE_GRACE_MS, BATCH);
        } catch (RuntimeException e) {
            log.warn("reconciling the waiting parents of queue {} failed (retried): {}", queue, e.toString());
        }
    }
}
