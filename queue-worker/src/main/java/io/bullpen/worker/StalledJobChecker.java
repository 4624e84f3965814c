package io.bullpen.worker;

import io.bullpen.internal.Futures;
import io.bullpen.internal.ScriptTypes.StalledResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recovers jobs whose lock expired (their worker crashed or hung) when this worker has not
 * fetched for a stalledInterval, i.e. when all its slots are busy with long jobs. A worker that
 * fetches does this inside every fetch already, and an idle one wakes at the next lease expiry.
 */
final class StalledJobChecker<T, R> implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(StalledJobChecker.class);
    private final WorkerSettings settings;
    private final Takes takes;
    private final WorkerStore store;
    private final SafeListener<T, R> listener;

    StalledJobChecker(WorkerSettings settings, Takes takes, WorkerStore store, SafeListener<T, R> listener) {
        this.settings = settings;
        this.takes = takes;
        this.store = store;
        this.listener = listener;
    }

    @Override
    public void run() {
        long now = takes.now();
        if (now - takes.lastFetch() < settings.stalledInterval().toMillis()) {
            return;
        }
        try {
            StalledResult r = Futures.join(store.recoverStalled(now, settings.maxStalledCount(),
                    WorkerSettings.STALLED_BATCH));
            r.recovered().forEach(listener::stalled);
            r.failed().forEach(listener::stalled);
        } catch (RuntimeException e) {
            log.warn("stalled-job check of queue {} failed: {}", settings.queue(), e.toString());
            listener.error(e);
        }
    }
}
