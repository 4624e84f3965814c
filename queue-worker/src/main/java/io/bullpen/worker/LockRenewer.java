package io.bullpen.worker;

import io.bullpen.internal.Futures;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renews the locks of every attempt in flight with one extendLocks call, every lockDuration / 2.
 * An attempt whose lock could not be renewed (it expired, or another worker holds it) is
 * cancelled and reported once: its result will be rejected by the token check. A renewal under
 * way when the connection drops is sent again once it is back ({@link InFlightCalls}); one that
 * failed meanwhile runs again then, not a whole period later.
 */
final class LockRenewer<T, R> implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(LockRenewer.class);
    private final WorkerSettings settings;
    private final Intake intake;
    private final Slots<T> slots;
    private final AheadBuffer buffer;
    private final WorkerStore store;
    private final InFlightCalls calls;
    private final SafeListener<T, R> listener;
    private final ScheduledExecutorService scheduler;
    private volatile boolean failed;

    LockRenewer(WorkerSettings settings, Intake intake, Slots<T> slots, AheadBuffer buffer, WorkerStore store,
                InFlightCalls calls, SafeListener<T, R> listener, ScheduledExecutorService scheduler) {
        this.settings = settings;
        this.intake = intake;
        this.slots = slots;
        this.buffer = buffer;
        this.store = store;
        this.calls = calls;
        this.listener = listener;
        this.scheduler = scheduler;
    }

    /** The connection is back: a renewal that failed while it was away runs now (on the timer thread). */
    void afterReconnect() {
        if (failed && intake.running()) {
            try {
                scheduler.execute(this);
            } catch (java.util.concurrent.RejectedExecutionException closing) {
                // the worker is closing
            }
        }
    }

    @Override
    public void run() {
        Map<String, String> tokens = new LinkedHashMap<>();
        slots.inFlight().forEach((id, attempt) -> {
            // An attempt whose outcome is being recorded (returned or timed out): its lock ends with it.
            if (!attempt.lockLost() && !attempt.ended()) {
                tokens.put(id, attempt.lockToken);
            }
        });
        // Buffered jobs (take-ahead) are leased like running ones.
        Map<String, AheadBuffer.Held> buffered = new java.util.HashMap<>();
        for (AheadBuffer.Held held : buffer.snapshot()) {
            tokens.putIfAbsent(held.raw().id(), held.raw().lockToken());
            buffered.put(held.raw().id(), held);
        }
        if (tokens.isEmpty()) {
            return;
        }
        try {
            long lockMs = settings.lockDuration().toMillis();
            List<String> lost = Futures.join(calls.call(() -> store.extendLocks(settings.clock().millis(), lockMs, tokens)));
            failed = false;
            for (String id : lost) {
                AheadBuffer.Held held = buffered.get(id);
                if (held != null && held.raw().lockToken().equals(tokens.get(id)) && buffer.remove(held)) {
                    held.life().move(AttemptLife.Stage.DROPPED);
                    // Never started: dropped here; whoever recovers it runs it.
                    log.warn("worker lost the lock of buffered job {} in queue {}; it is not run here", id,
                            settings.queue());
                    continue;
                }
                ActiveJob<T> attempt = slots.attempt(id);
                // The job may have finished and been taken again since: blame only the attempt
                // whose token was sent, and only while its processor still runs.
                if (attempt != null && attempt.lockToken.equals(tokens.get(id)) && !attempt.ended()
                        && attempt.markLockLost()) {
                    log.warn("worker lost the lock of job {} in queue {}; another worker may run it", id, settings.queue());
                    listener.lockLost(attempt.job);
                }
            }
        } catch (RuntimeException e) {
            failed = true;
            log.warn("could not renew {} lock(s) in queue {}: {}", tokens.size(), settings.queue(), e.toString());
            listener.error(e);
        }
    }
}
