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
    private final WorkerRuntime<T, R> rt;

    StalledJobChecker(WorkerRuntime<T, R> rt) {
        this.rt = rt;
    }

    @Override
    public void run() {
        long now = rt.now();
        if (now - rt.lastFetch() < rt.settings.stalledInterval().toMillis()) {
            return;
        }
        try {
            StalledResult r = Futures.join(rt.store.recoverStalled(now, rt.settings.maxStalledCount(),
                    WorkerSettings.STALLED_BATCH));
            r.recovered().forEach(rt.listener::stalled);
            r.failed().forEach(rt.listener::stalled);
        } catch (RuntimeException e) {
            log.warn("stalled-job check of queue {} failed: {}", rt.settings.queue(), e.toString());
            rt.listener.error(e);
        }
    }
}
