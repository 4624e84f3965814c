package io.bullpen.worker;

import io.bullpen.internal.KeyScheme;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A started worker's parts and threads: wires them on start, and on close stops intake, waits for
 * the attempts in flight (see {@link Slots}), hands the rest back to the queue and shuts the threads
 * down.
 */
final class WorkerLifecycle<T, R> {
    private static final Logger log = LoggerFactory.getLogger(Worker.class);
    /** How long close() waits for listeners to take the callbacks queued by then. */
    private static final Duration LISTENERS_CLOSE_TIMEOUT = Duration.ofSeconds(5);
    /** How long close() waits for Redis to take back the jobs still running at its timeout. */
    private static final Duration HAND_BACK_TIMEOUT = Duration.ofSeconds(5);

    private final WorkerSettings settings;
    /** Whether the worker takes jobs (running, not paused). */
    final Intake intake;
    /** The slots and the attempts in flight. */
    final Slots<T> slots;
    /** The jobs taken ahead of the free slots. */
    final AheadBuffer buffer = new AheadBuffer();
    private final WorkerStore store;
    private final SafeListener<T, R> listeners;
    private final ScheduledExecutorService scheduler;
    private final Processing<T, R> processing;
    private final MarkerWaiter waiter;
    private final Thread fetchThread;
    private final JobRunner<T, R> runner;
    private final boolean ownExecutor;
    private final WorkerHeartbeat heartbeat;
    /** Cancels of this worker's jobs. */
    final CancelWatcher<T, R> cancels;
    /** The flow work's thread (see {@link FlowRunner}). */
    private final ExecutorService flowTimer;

    WorkerLifecycle(Worker.Builder<T, R> config, boolean startPaused) {
        WorkerSettings s = config.settings();
        KeyScheme keys = new KeyScheme(s.prefix(), s.queue());
        ExecutorService executor = config.executor;
        ownExecutor = executor == null;
        ThreadPoolExecutor pool = null;
        ExecutorService handoff = null;
        if (ownExecutor) {
            // A fixed pool (as Executors.newFixedThreadPool) whose queue wakes fewer threads per batch.
            executor = pool = new ThreadPoolExecutor(s.concurrency(), s.concurrency(), 0L, TimeUnit.MILLISECONDS,
                    new WakeOneQueue(), threads("bullpen-" + s.queue() + "-worker"));
        } else {
            handoff = Executors.newSingleThreadExecutor(threads("bullpen-" + s.queue() + "-handoff"));
        }
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(threads("bullpen-" + s.queue() + "-timer"));
        SafeListener<T, R> listeners = new SafeListener<>(config.listeners, config.instrumentations, s.queue(),
                "bullpen-" + s.queue() + "-events-1");
        WorkerStore store = config.store != null ? config.store : new RedisWorkerStore(config.redisson, keys, s.clock());
        this.settings = s;
        this.store = store;
        this.listeners = listeners;
        this.scheduler = scheduler;
        JobBatchOptions batch = config.batchOptions();
        this.processing = new Processing<>(config.dataType, config.processor, config.batchProcessor, batch, executor,
                handoff);
        // A batch worker's concurrency counts batches: it holds a slot per job of each (every job
        // keeps its own lock, renewal, cancel and finish), and takes nothing ahead.
        int jobSlots = batch == null ? s.concurrency() : Math.multiplyExact(s.concurrency(), batch.size());
        slots = new Slots<>(jobSlots);
        intake = new Intake(slots);
        TakeAhead takeAhead = new TakeAhead(jobSlots, batch == null ? config.takeAhead : 0);
        // Fetch, finish and renewal calls, sent again when the connection drops before their reply.
        InFlightCalls calls = new InFlightCalls();
        Takes takes = new Takes(s, UUID.randomUUID().toString().substring(0, 13), store, calls, listeners, intake, slots,
                buffer, takeAhead);
        waiter = new MarkerWaiter(store::openMarker, s.blockTimeout(), s.name(), calls);
        // Flows: a thread of its own, so a slow relay never delays lock renewals on the timer;
        // started when there is flow work and gone after 30 s without (a worker of a queue
        // without flows never has it).
        flowTimer = new ThreadPoolExecutor(0, 1, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                threads("bullpen-" + s.queue() + "-flows"));
        FlowRunner flows = new FlowRunner(s.queue(), store, flowTimer, s.clock());
        runner = new JobRunner<>(s, processing, intake, slots, buffer, takeAhead, takes, store, calls, listeners,
                scheduler, new AttemptTimeouts(scheduler, pool, s.concurrency()), flows);
        long renewMs = Math.max(1, s.lockDuration().toMillis() / 2);
        LockRenewer<T, R> renewer = new LockRenewer<>(s, intake, slots, buffer, store, calls, listeners, scheduler);
        scheduler.scheduleAtFixedRate(renewer, renewMs, renewMs, TimeUnit.MILLISECONDS);
        calls.onReconnect(renewer::afterReconnect);
        cancels = new CancelWatcher<>(s, slots, store);
        scheduler.scheduleWithFixedDelay(cancels, CancelWatcher.INTERVAL_MS, CancelWatcher.INTERVAL_MS, TimeUnit.MILLISECONDS);
        long stalledMs = s.stalledInterval().toMillis();
        scheduler.scheduleAtFixedRate(new StalledJobChecker<>(s, takes, store, listeners), stalledMs, stalledMs,
                TimeUnit.MILLISECONDS);
        intake.running(true);
        if (startPaused) {
            intake.pause.pause();
            waiter.pause();
        }
        heartbeat = new WorkerHeartbeat(s, intake, slots, store, scheduler, waiter::lookNow, flows);
        heartbeat.start();
        fetchThread = threads("bullpen-" + s.queue() + "-fetch").newThread(
                new FetchLoop<>(s, intake, slots, takes, listeners, runner, waiter));
        fetchThread.start();
        store.register();
        listeners.workerStarted(s.name());
        if (pool != null) {
            listeners.workerPool(s.name(), pool);
        }
        log.info("worker {} started on queue {} (concurrency {})", s.name(), s.queue(), s.concurrency());
    }

    void close(Duration timeout) {
        close(timeout, true);
    }

    /**
     * @param handBack true: jobs still running at the timeout are interrupted and handed back to
     *     wait at once (lock checked); false (tests simulating a crash): their locks are left to lapse
     */
    void close(Duration timeout, boolean handBack) {
        String name = settings.name();
        if (!handBack) {
            runner.ahead.crash();
        }
        intake.running(false);
        waiter.wakeForClose();
        runner.giveBackBooked();
        runner.ahead.handBackBuffered(true);
        try {
            fetchThread.join(5_000);
            // A fetch or finish under way at close may have booked or buffered more since.
            runner.giveBackBooked();
            runner.ahead.handBackBuffered(true);
            slots.awaitNoneInFlight(System.nanoTime() + timeout.toNanos());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        int left = slots.inFlightCount();
        if (left > 0 && handBack) {
            log.warn("worker {} closed with {} job(s) still running; they are interrupted and handed back to the queue",
                    name, left);
            handBack();
        } else if (left > 0) {
            log.warn("worker {} closed with {} job(s) still running; their locks will expire and another worker will "
                    + "recover them", name, left);
            slots.inFlight().values().forEach(ActiveJob::abandon);
        }
        if (left > 0) {
            // Their jobs are abandoned now; a batch processor's thread, which no job's cancel
            // interrupts, is interrupted here.
            runner.interruptBatches();
        }
        heartbeat.leave();
        scheduler.shutdownNow();
        flowTimer.shutdownNow();
        // A summary of unlogged failures that was still due is said now.
        runner.failureSummary();
        if (ownExecutor) {
            processing.executor().shutdownNow();
        } else {
            processing.handoff().shutdownNow();
        }
        waiter.close(handBack);
        listeners.workerStopped(name);
        listeners.flush(LISTENERS_CLOSE_TIMEOUT);
        log.info("worker {} closed", name);
    }

    /** Worker#pause / #resume: the fetch loop parks or wakes at once; the heartbeat says so. */
    void paused(boolean paused) {
        boolean changed;
        if (paused) {
            changed = intake.pause.pause();
            waiter.pause();
        } else {
            waiter.resume();
            changed = intake.pause.resume();
        }
        if (changed) {
            log.info("worker {} {}", settings.name(), paused ? "paused" : "resumed");
            heartbeat.beatSoon();
        }
    }

    /**
     * Interrupts the attempts still running and returns their jobs to wait through moveToWait: the
     * lock token is checked (a job whose result landed meanwhile, or that another worker holds, is
     * left alone), no stall and no attempt made is counted (the start is: the processor ran), and
     * nobody waits for the lock to lapse. A result the processor returns later is rejected by the
     * token check.
     */
    private void handBack() {
        List<CompletableFuture<Void>> calls = new ArrayList<>();
        for (ActiveJob<T> attempt : slots.inFlight().values()) {
            attempt.abandon();
            calls.add(store.handBack(attempt.id(), attempt.lockToken, true).toCompletableFuture()
                    .whenComplete((ok, error) -> {
                        if (error != null) {
                            log.info("job {} not handed back ({}): it finished meanwhile, or it is recovered when its "
                                    + "lock expires", attempt.id(), error.toString());
                        }
                    }));
        }
        try {
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(HAND_BACK_TIMEOUT.toMillis(),
                    TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // Logged per job above; a job not handed back is recovered when its lock expires.
        }
    }

    private static ThreadFactory threads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
