package io.bullpen.worker;

import com.fasterxml.jackson.databind.JavaType;
import io.bullpen.internal.ScriptTypes.FetchArgs;
import io.bullpen.internal.ScriptTypes.FetchResult;
import io.bullpen.internal.Scripts;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The state the worker's parts share: settings, scripts, the slots (with the attempts in flight,
 * see {@link Slots}), and the running flag.
 */
final class WorkerRuntime<T, R> {
    final WorkerSettings settings;
    final Scripts scripts;
    final JavaType dataType;
    final JobProcessor<T, R> processor;
    final SafeListener<T, R> listener;
    final ExecutorService executor;
    /** Hands jobs to an executor the application supplied (see JobRunner#hand); null for the worker's own pool. */
    final ExecutorService handoff;
    final ScheduledExecutorService scheduler;
    final String token;
    final io.bullpen.internal.SchedulerAdvancer schedulers;
    final Slots<T> slots;
    /** Closed by Worker#pause: the fetch loop parks and finishes take no next job. */
    final PauseGate pause = new PauseGate();
    /** Take-ahead: how many jobs to hold beyond the running ones, and where they wait. */
    final TakeAhead takeAhead;
    final AheadBuffer buffer = new AheadBuffer();
    /** Fetch, finish and renewal calls, sent again when the connection drops before their reply. */
    final InFlightCalls calls = new InFlightCalls();
    private final AtomicLong lastFetch = new AtomicLong();
    private final AtomicLong lastClean = new AtomicLong();
    private final AtomicLong lastStalledScan = new AtomicLong();
    private static final long STALLED_SCAN_EVERY_MS = 500;
    private final java.util.concurrent.atomic.AtomicBoolean drained = new java.util.concurrent.atomic.AtomicBoolean(true);
    private volatile boolean running;
    /** Relays this queue's flow ends and reconciles its waiting parents (set once at start). */
    volatile FlowRunner flows;
    /** Reads a parent's children for its processor (set once at start). */
    volatile io.bullpen.internal.FlowReads flowReads;

    WorkerRuntime(WorkerSettings settings, Scripts scripts, JavaType dataType, JobProcessor<T, R> processor,
                  SafeListener<T, R> listener, ExecutorService executor, ExecutorService handoff,
                  ScheduledExecutorService scheduler, String token, io.bullpen.internal.SchedulerAdvancer schedulers,
                  int takeAheadMax) {
        this.settings = settings;
        this.scripts = scripts;
        this.dataType = dataType;
        this.processor = processor;
        this.listener = listener;
        this.executor = executor;
        this.handoff = handoff;
        this.scheduler = scheduler;
        this.token = token;
        this.schedulers = schedulers;
        this.slots = new Slots<>(settings.concurrency());
        this.takeAhead = new TakeAhead(settings.concurrency(), takeAheadMax);
    }

    long now() {
        return settings.clock().millis();
    }

    boolean running() {
        return running;
    }

    void running(boolean value) {
        running = value;
        slots.signal();
        pause.wake();
    }

    /** Arguments to take {@code count} jobs; includes a janitor pass when one is due. */
    FetchArgs fetchArgs(int count) {
        return fetchArgs(count, true);
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
     * scheduler work (next runs computed in Java) to the advancer.
     */
    void afterFetch(FetchResult result) {
        result.recoveredStalled().forEach(listener::stalled);
        result.failedStalled().forEach(listener::stalled);
        if (!result.schedulerUpdates().isEmpty()) {
            schedulers.advance(result.schedulerUpdates());
        }
    }

    /**
     * Reserves the jobs a call about to go out takes ahead (0 when take-ahead is off, the worker
     * closes or is paused); the caller hands the count back with {@code buffer.received}.
     */
    int reserveAhead() {
        if (!takeAhead.enabled() || !running || pause.isPaused()) {
            return 0;
        }
        return buffer.reserve(takeAhead.target());
    }

    /**
     * The reply of a fetch given up when the connection dropped, which ran after all (Redisson
     * sent it once its connection was back): its jobs go back to their line unstarted (no stall,
     * no attempt), since the fetch sent again in its place took the slots.
     */
    void giveBackLate(FetchResult late) {
        for (io.bullpen.internal.ScriptTypes.RawJob job : late.jobs()) {
            scripts.moveToWait(job.id(), job.lockToken()).whenComplete((ok, error) -> {
                if (error != null) {
                    org.slf4j.LoggerFactory.getLogger(Worker.class).info("job {} of queue {}, taken by a fetch "
                            + "given up, not handed back ({}): it is recovered when its lock expires", job.id(),
                            settings.queue(), error.toString());
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
