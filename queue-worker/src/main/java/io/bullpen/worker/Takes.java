package io.bullpen.worker;

import io.bullpen.internal.ScriptTypes.FetchArgs;
import io.bullpen.internal.ScriptTypes.FetchResult;
import io.bullpen.internal.ScriptTypes.RawJob;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's takes (the fetch loop's moveToActive and each finish's take): their arguments (the
 * worker's token; a janitor pass and a stalled scan when due), how many jobs each asks for ahead,
 * what follows each reply (stalled jobs reported, scheduler work handed on, a late reply's jobs
 * given back), and the "drained" announcement once per busy period.
 */
final class Takes {
    private static final Logger log = LoggerFactory.getLogger(Worker.class);
    private static final long STALLED_SCAN_EVERY_MS = 500;

    private final WorkerSettings settings;
    /** This worker's token: each lock token is {@code token + ":" + fence}. */
    private final String token;
    private final WorkerStore store;
    private final InFlightCalls calls;
    private final SafeListener<?, ?> listener;
    private final Intake intake;
    private final Slots<?> slots;
    private final AheadBuffer buffer;
    private final TakeAhead takeAhead;
    private final AtomicLong lastFetch = new AtomicLong();
    private final AtomicLong lastClean = new AtomicLong();
    private final AtomicLong lastStalledScan = new AtomicLong();
    private final AtomicBoolean drained = new AtomicBoolean(true);

    Takes(WorkerSettings settings, String token, WorkerStore store, InFlightCalls calls, SafeListener<?, ?> listener,
          Intake intake, Slots<?> slots, AheadBuffer buffer, TakeAhead takeAhead) {
        this.settings = settings;
        this.token = token;
        this.store = store;
        this.calls = calls;
        this.listener = listener;
        this.intake = intake;
        this.slots = slots;
        this.buffer = buffer;
        this.takeAhead = takeAhead;
    }

    long now() {
        return settings.clock().millis();
    }

    /**
     * Takes {@code count} jobs and {@code ahead} more (moveToActive), sent again if the connection
     * drops before the reply ({@link InFlightCalls}); a janitor pass when one is due.
     */
    CompletableFuture<FetchResult> take(int count, int ahead) {
        FetchArgs args = fetchArgs(count, true).withAhead(ahead);
        return calls.call(() -> store.take(now(), args), this::giveBackLate);
    }

    /**
     * Arguments for the take inside a finish. A busy worker finishes jobs back to back, so its
     * scan for expired leases is rate-limited there (the fetch loop and idle timers still scan).
     */
    FetchArgs fetchArgsAfterFinish(int count) {
        long now = now();
        long last = lastStalledScan.get();
        boolean scan = now - last >= STALLED_SCAN_EVERY_MS && lastStalledScan.compareAndSet(last, now);
        return fetchArgs(count, scan);
    }

    private FetchArgs fetchArgs(int count, boolean scanStalled) {
        long now = now();
        lastFetch.set(now);
        if (scanStalled) {
            lastStalledScan.set(now);
        }
        int clean = 0;
        long last = lastClean.get();
        if (now - last >= settings.janitorInterval().toMillis() && lastClean.compareAndSet(last, now)) {
            clean = WorkerSettings.JANITOR_BATCH;
        }
        return new FetchArgs(count, token, settings.lockDuration().toMillis(), settings.named() ? settings.name() : "",
                WorkerSettings.PROMOTE_BATCH, scanStalled ? WorkerSettings.STALLED_BATCH : 0, settings.maxStalledCount(), clean);
    }

    long lastFetch() {
        return lastFetch.get();
    }

    /**
     * What follows every fetch: tell the listener about stalled jobs it recovered, and hand its
     * scheduler work (next runs computed in Java) to the store.
     */
    void afterFetch(FetchResult result) {
        result.recoveredStalled().forEach(listener::stalled);
        result.failedStalled().forEach(listener::stalled);
        if (!result.schedulerUpdates().isEmpty()) {
            store.advanceSchedulers(result.schedulerUpdates());
        }
    }

    /**
     * Reserves the jobs a call about to go out takes ahead (0 when take-ahead is off, the worker
     * closes or is paused); the caller hands the count back with {@link #received}.
     */
    int reserveAhead() {
        if (!takeAhead.enabled() || !intake.taking()) {
            return 0;
        }
        return buffer.reserve(takeAhead.target());
    }

    /** The call that reserved {@code ahead} has answered (its jobs are buffered by now). */
    void received(int ahead) {
        buffer.received(ahead);
    }

    /** A take (or a finish's take) sent at {@code sentAtNanos} answered: one more round trip measured. */
    void answered(long sentAtNanos) {
        takeAhead.roundTrip(System.nanoTime() - sentAtNanos);
    }

    /**
     * The reply of a fetch given up when the connection dropped, which ran after all (Redisson
     * sent it once its connection was back): its jobs go back to their line unstarted (no stall,
     * no attempt), since the fetch sent again in its place took the slots.
     */
    void giveBackLate(FetchResult late) {
        for (RawJob job : late.jobs()) {
            store.handBack(job.id(), job.lockToken(), false).whenComplete((ok, error) -> {
                if (error != null) {
                    log.info("job {} of queue {}, taken by a fetch given up, not handed back ({}): it is recovered "
                            + "when its lock expires", job.id(), settings.queue(), error.toString());
                }
            });
        }
    }

    /** Jobs were taken: the next time the queue runs dry is worth announcing. */
    void markBusy() {
        drained.set(false);
    }

    /** The queue had nothing ready: announce "drained" once per busy period, when nothing runs. */
    void maybeDrained() {
        if (slots.inFlightCount() == 0 && buffer.isEmpty() && drained.compareAndSet(false, true)) {
            listener.drained();
        }
    }
}
