package io.bullpen.worker;

import io.bullpen.internal.Futures;
import io.bullpen.internal.ScriptTypes.FetchResult;
import io.bullpen.internal.ScriptTypes.RawJob;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's intake, on a thread of its own:
 * 1. takes all free slots, starts buffered jobs on them (take-ahead: no call), and asks for as many
 *    jobs as slots are left, plus the jobs to take ahead, in one moveToActive call;
 * 2. hands each job to the runner (finishing a job takes the next one itself, so while the
 *    queue has work this loop mostly waits for a slot);
 * 3. with free slots and nothing ready, waits on the marker until a job is added, the next
 *    delayed job is due, a lease expires (a crashed worker's job) or a limit lets the next job
 *    start; with no such time known, until the block times out; when its slots fill before it
 *    could look (a signal it took, a wake time only it knew), it passes the look to another
 *    worker (the marker, see {@link MarkerWaiter});
 * 4. while the worker is paused: parks without calling Redis (see {@link #parkWhilePaused});
 * 5. on any error: reports it, backs off (up to 2 s) and tries again, so a Redis restart or a
 *    dropped connection never ends consumption.
 */
final class FetchLoop<T, R> implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(FetchLoop.class);

    private static final long QUIET_MAX_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final WorkerSettings settings;
    private final Intake intake;
    private final Slots<T> slots;
    private final Takes takes;
    private final SafeListener<T, R> listener;
    private final JobRunner<T, R> runner;
    private final MarkerWaiter waiter;
    /**
     * This worker is to look at the queue and has not yet: a signal woke it, or its last fetch
     * that came up short said when to look again (a delayed job, a limit's end, a lease). Fetch
     * thread only. Nobody else may know: when its slots fill first, it passes the look on.
     */
    private boolean owesLook;

    FetchLoop(WorkerSettings settings, Intake intake, Slots<T> slots, Takes takes, SafeListener<T, R> listener,
              JobRunner<T, R> runner, MarkerWaiter waiter) {
        this.settings = settings;
        this.intake = intake;
        this.slots = slots;
        this.takes = takes;
        this.listener = listener;
        this.runner = runner;
        this.waiter = waiter;
    }

    @Override
    public void run() {
        long backoff = 0;
        while (intake.running()) {
            try {
                fetchOnce();
                backoff = 0;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                if (!intake.running()) {
                    return;
                }
                backoff = backoff == 0 ? 100 : Math.min(2_000, backoff * 2);
                log.warn("worker of queue {} could not fetch jobs (retry in {}ms): {}", settings.queue(), backoff, e.toString());
                listener.error(e);
                try {
                    waiter.await(takes.now(), takes.now() + backoff);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void fetchOnce() throws InterruptedException {
        if (intake.paused()) {
            parkWhilePaused();
            return;
        }
        int free = slots.takeFree();
        if (free == 0) {
            // All slots busy: finishing jobs take the next ones; wake up now and then in case a
            // slot frees while the queue still has work. A signal meanwhile goes to an idle
            // worker, and so does a look this worker owed: the worker woken asks the queue and
            // learns what this one knew (a job due while the slots are busy waited for them).
            if (owesLook) {
                owesLook = false;
                waiter.passLook();
            }
            waiter.busy(true);
            try {
                slots.awaitFree(1_000, intake::running);
            } finally {
                waiter.busy(false);
            }
            return;
        }
        free -= runner.ahead.startBuffered(free);
        if (free == 0) {
            return;
        }
        int slotsToFill = free;
        int ahead = takes.reserveAhead();
        long sentAt = System.nanoTime();
        FetchResult result;
        try {
            // The jobs start on the Redis client thread, as a finish's next job does: waking this
            // thread first would put one more thread hand-off between a wake-up and the start.
            // Sent again on the new connection if the connection drops before the reply (InFlightCalls).
            result = Futures.join(takes.take(free, ahead).thenApply(fetched -> {
                List<RawJob> jobs = fetched.jobs();
                int forSlots = Math.min(slotsToFill, jobs.size());
                for (int i = 0; i < forSlots; i++) {
                    runner.start(jobs.get(i));
                }
                if (jobs.size() > forSlots) {
                    runner.ahead.takenAhead(jobs.subList(forSlots, jobs.size()));
                }
                runner.delivered();
                return fetched;
            }));
        } catch (RuntimeException e) {
            slots.returnUnused(free);
            throw e;
        } finally {
            takes.received(ahead);
            takes.answered(sentAt);
        }
        takes.afterFetch(result);
        int taken = Math.min(free, result.jobs().size());
        slots.returnUnused(free - taken);
        if (taken == free) {
            // A full take reports no wake time: any look owed from before is still owed.
            return;
        }
        if (taken == 0) {
            takes.maybeDrained();
        }
        long wake = nextWake(result);
        owesLook = wake > 0;
        awaitWork(wake);
    }

    /**
     * Paused: no call to Redis until resumed. A wake-up the marker gave this worker meanwhile
     * (a job was added) is handed back, so an unpaused worker of the queue takes the job. The
     * 1 s bound only re-checks local flags.
     */
    private void parkWhilePaused() throws InterruptedException {
        while (intake.running() && intake.paused()) {
            waiter.handBackSignal();
            intake.pause.awaitResumed(1_000);
        }
    }

    /**
     * Waits until a signal or the time the fetch said to look again (next delayed job, lease
     * expiry, a limit's next start). A pop that times out before that time means nothing was
     * signalled, so the worker blocks again without asking the queue: waiting out a limit costs
     * only the blocking wait. At most {@link #QUIET_MAX_NANOS} pass without a look, a safety net
     * for a signal lost with a worker that died holding it.
     */
    private void awaitWork(long wake) throws InterruptedException {
        long quietSince = System.nanoTime();
        while (intake.running() && !intake.paused()) {
            if (waiter.await(takes.now(), wake)) {
                owesLook = true;
                return;
            }
            if (wake <= 0 || takes.now() >= wake || System.nanoTime() - quietSince >= QUIET_MAX_NANOS) {
                return;
            }
        }
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
