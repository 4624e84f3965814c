package io.bullpen.worker;

import io.bullpen.internal.Futures;
import io.bullpen.internal.ScriptTypes.FetchResult;
import io.bullpen.internal.ScriptTypes.RawJob;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's intake, on a thread of its own:
 * 1. takes all free slots and asks for that many jobs in one moveToActive call;
 * 2. hands each job to the runner (finishing a job takes the next one itself, so while the
 *    queue has work this loop mostly waits for a slot);
 * 3. with free slots and nothing ready, waits on the marker until a job is added, the next
 *    delayed job is due or a lease expires (a crashed worker's job), or the block times out;
 * 4. on any error: reports it, backs off (up to 2 s) and tries again, so a Redis restart or a
 *    dropped connection never ends consumption.
 */
final class FetchLoop<T, R> implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(FetchLoop.class);

    private final WorkerRuntime<T, R> rt;
    private final JobRunner<T, R> runner;
    private final MarkerWaiter waiter;

    FetchLoop(WorkerRuntime<T, R> rt, JobRunner<T, R> runner, MarkerWaiter waiter) {
        this.rt = rt;
        this.runner = runner;
        this.waiter = waiter;
    }

    @Override
    public void run() {
        long backoff = 0;
        while (rt.running()) {
            try {
                fetchOnce();
                backoff = 0;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                if (!rt.running()) {
                    return;
                }
                backoff = backoff == 0 ? 100 : Math.min(2_000, backoff * 2);
                log.warn("worker of queue {} could not fetch jobs (retry in {}ms): {}", rt.settings.queue(), backoff, e.toString());
                rt.listener.error(e);
                try {
                    waiter.await(rt.now(), rt.now() + backoff);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void fetchOnce() throws InterruptedException {
        int free = rt.slots.takeFree();
        if (free == 0) {
            // All slots busy: finishing jobs take the next ones; wake up now and then in case a
            // slot frees while the queue still has work.
            rt.slots.awaitFree(1_000, rt::running);
            return;
        }
        FetchResult result;
        try {
            result = Futures.join(rt.scripts.moveToActive(rt.now(), rt.fetchArgs(free)));
        } catch (RuntimeException e) {
            rt.slots.returnUnused(free);
            throw e;
        }
        rt.afterFetch(result);
        int taken = result.jobs().size();
        rt.slots.returnUnused(free - taken);
        for (RawJob job : result.jobs()) {
            runner.start(job);
        }
        if (taken == free) {
            return;
        }
        if (taken == 0) {
            rt.maybeDrained();
        }
        waiter.await(rt.now(), nextWake(result));
    }

    private static long nextWake(FetchResult r) {
        long due = r.nextDelayedDue();
        long lease = r.nextLeaseExpiry();
        if (due < 0) {
            return lease;
        }
        return lease < 0 ? due : Math.min(due, lease);
    }
}
