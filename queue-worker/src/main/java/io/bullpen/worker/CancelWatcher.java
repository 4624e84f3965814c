package io.bullpen.worker;

import io.bullpen.CancelResult;
import io.bullpen.internal.Futures;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the attempts in flight that their job was cancelled:
 * 1. every {@link #INTERVAL_MS} on the timer thread, while the worker runs jobs, one read-only
 *    checkCancels call with the ids of all its running attempts (none when it runs nothing);
 * 2. for each job whose hash has {@code cancel} (set by {@code Queue.cancel}), the attempt is
 *    flagged with the reason and its processor thread interrupted ({@link ActiveJob#requestCancel});
 * 3. the attempt's outcome then goes the usual way: moveToFinished reads the flag on the failure
 *    path and fails the job as cancelled.
 * {@link #cancel(String)} is {@code Worker.cancel}: the same cancelJob for a job this worker runs,
 * applied locally at once.
 */
final class CancelWatcher<T, R> implements Runnable {
    /** How often the running jobs are checked: a cancel reaches the processor within about this. */
    static final long INTERVAL_MS = 500;
    private static final Logger log = LoggerFactory.getLogger(CancelWatcher.class);

    private final WorkerSettings settings;
    private final Slots<T> slots;
    private final WorkerStore store;

    CancelWatcher(WorkerSettings settings, Slots<T> slots, WorkerStore store) {
        this.settings = settings;
        this.slots = slots;
        this.store = store;
    }

    @Override
    public void run() {
        List<String> ids = new ArrayList<>();
        slots.inFlight().forEach((id, attempt) -> {
            if (!attempt.ended() && attempt.cancelReason() == null) {
                ids.add(id);
            }
        });
        if (ids.isEmpty()) {
            return;
        }
        try {
            Map<String, String> cancelled = Futures.join(store.checkCancels(ids));
            cancelled.forEach(this::apply);
        } catch (RuntimeException e) {
            // The next round asks again; a lasting outage shows in the lock renewal's errors.
            log.warn("could not check {} job(s) of queue {} for cancels: {}", ids.size(), settings.queue(), e.toString());
        }
    }

    boolean cancel(String jobId) {
        if (slots.attempt(jobId) == null) {
            return false;
        }
        String reason = "cancelled by worker " + settings.name();
        CancelResult result = Futures.join(store.cancel(settings.clock().millis(), jobId, reason));
        if (result != CancelResult.CANCEL_REQUESTED) {
            return false;
        }
        apply(jobId, reason);
        return true;
    }

    private void apply(String jobId, String reason) {
        ActiveJob<T> attempt = slots.attempt(jobId);
        if (attempt != null && attempt.requestCancel(reason)) {
            log.info("job {} of queue {} was cancelled ({}); interrupting its processor", jobId, settings.queue(), reason);
        }
    }
}
