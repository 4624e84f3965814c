package io.bullpen.worker;

import io.bullpen.internal.Futures;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
    private final WorkerRuntime<T, R> rt;
    private volatile boolean failed;

    LockRenewer(WorkerRuntime<T, R> rt) {
        this.rt = rt;
    }

    /** The connection is back: a renewal that failed while it was away runs now (on the timer thread). */
    void afterReconnect() {
        if (failed && rt.running()) {
            try {
                rt.scheduler.execute(this);
            } catch (java.util.concurrent.RejectedExecutionException closing) {
                // the worker is closing
            }
        }
    }

    @Override
    public void run() {
        Map<String, String> tokens = new LinkedHashMap<>();
        rt.slots.inFlight().forEach((id, attempt) -> {
            // An attempt whose outcome is being recorded (returned or timed out): its lock ends with it.
            if (!attempt.lockLost() && !attempt.ended()) {
                tokens.put(id, attempt.lockToken);
            }
        });
        // Buffered jobs (take-ahead) are leased like running ones.
        Map<String, AheadBuffer.Held> buffered = new java.util.HashMap<>();
        for (AheadBuffer.Held held : rt.buffer.snapshot()) {
            tokens.putIfAbsent(held.raw().id(), held.raw().lockToken());
            buffered.put(held.raw().id(), held);
        }
        if (tokens.isEmpty()) {
            return;
        }
        try {
            long lockMs = rt.settings.lockDuration().toMillis();
            List<String> lost = Futures.join(rt.calls.call(() -> rt.store.extendLocks(rt.now(), lockMs, tokens)));
            failed = false;
            for (String id : lost) {
                AheadBuffer.Held held = buffered.get(id);
                if (held != null && held.raw().lockToken().equals(tokens.get(id)) && rt.buffer.remove(held)) {
                    held.life().move(AttemptLife.Stage.DROPPED);
                    // Never started: dropped here; whoever recovers it runs it.
                    log.warn("worker lost the lock of buffered job {} in queue {}; it is not run here", id,
                            rt.settings.queue());
                    continue;
                }
                ActiveJob<T> attempt = rt.slots.attempt(id);
                // The job may have finished and been taken again since: blame only the attempt
                // whose token was sent, and only while its processor still runs.
                if (attempt != null && attempt.lockToken.equals(tokens.get(id)) && !attempt.ended()
                        && attempt.markLockLost()) {
                    log.warn("worker lost the lock of job {} in queue {}; another worker may run it", id, rt.settings.queue());
                    rt.listener.lockLost(attempt.job);
                }
            }
        } catch (RuntimeException e) {
            failed = true;
            log.warn("could not renew {} lock(s) in queue {}: {}", tokens.size(), rt.settings.queue(), e.toString());
            rt.listener.error(e);
        }
    }
}
