package io.bullpen.worker;

import io.bullpen.internal.CancelScripts;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.RedisChecks;
import io.bullpen.internal.SchedulerAdvancer;
import io.bullpen.internal.SchedulerScripts;
import io.bullpen.internal.Scripts;
import io.bullpen.internal.WorkerScripts;
import io.bullpen.internal.FlowReads;
import io.bullpen.internal.FlowReconciler;
import io.bullpen.internal.FlowRelay;
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
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.redisson.client.codec.StringCodec;
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

    final WorkerRuntime<T, R> rt;
    private final MarkerWaiter waiter;
    private final Thread fetchThread;
    private final JobRunner<T, R> runner;
    private final boolean ownExecutor;
    private final WorkerHeartbeat heartbeat;
    /** Cancels of this worker's jobs. */
    final CancelWatcher<T, R> cancels;
    private final java.util.concurrent.ExecutorService flowTimer;

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
        rt = new WorkerRuntime<>(s, new Scripts(config.redisson, keys), config.dataType,
                config.processor, listeners, executor, handoff, scheduler,
                UUID.randomUUID().toString().substring(0, 13),
                new SchedulerAdvancer(new SchedulerScripts(config.redisson, keys), s.clock()), config.takeAhead);
        waiter = new MarkerWaiter(config.redisson, keys.marker(), s.blockTimeout(), s.name(), rt.calls);
        runner = new JobRunner<>(rt, new AttemptTimeouts(scheduler, pool, s.concurrency()));
        long renewMs = Math.max(1, s.lockDuration().toMillis() / 2);
        LockRenewer<T, R> renewer = new LockRenewer<>(rt);
        scheduler.scheduleAtFixedRate(renewer, renewMs, renewMs, TimeUnit.MILLISECONDS);
        rt.calls.onReconnect(renewer::afterReconnect);
        cancels = new CancelWatcher<>(rt, new CancelScripts(config.redisson, keys));
        scheduler.scheduleWithFixedDelay(cancels, CancelWatcher.INTERVAL_MS, CancelWatcher.INTERVAL_MS, TimeUnit.MILLISECONDS);
        // Flows: a thread of its own, so a slow relay never delays lock renewals on the timer;
        // started when there is flow work and gone after 30 s without (a worker of a queue
        // without flows never has it).
        flowTimer = new java.util.concurrent.ThreadPoolExecutor(0, 1, 30, TimeUnit.SECONDS,
                new java.util.concurrent.LinkedBlockingQueue<>(), threads("bullpen-" + s.queue() + "-flows"));
        rt.flows = new FlowRunner(s.queue(), new FlowRelay(config.redisson, s.prefix(), s.clock()),
                new FlowReconciler(config.redisson, s.prefix(), s.clock()), flowTimer, s.clock());
        rt.flowReads = new FlowReads(config.redisson, s.prefix());
        long stalledMs = s.stalledInterval().toMillis();
        scheduler.scheduleAtFixedRate(new StalledJobChecker<>(rt), stalledMs, stalledMs, TimeUnit.MILLISECONDS);
        rt.running(true);
        if (startPaused) {
            rt.pause.pause();
            waiter.pause();
        }
        heartbeat = new WorkerHeartbeat(rt, new WorkerScripts(config.redisson, keys), waiter::lookNow);
        heartbeat.start();
        fetchThread = threads("bullpen-" + s.queue() + "-fetch").newThread(new FetchLoop<>(rt, runner, waiter));
        fetchThread.start();
        config.redisson.getSet(keys.registry(), StringCodec.INSTANCE).addAsync(s.queue());
        RedisChecks.warnIfEvictingInBackground(config.redisson);
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
        String name = rt.settings.name();
        if (!handBack) {
            runner.ahead.crash();
        }
        rt.running(false);
        waiter.wakeForClose();
        runner.giveBackBooked();
        runner.ahead.handBackBuffered(true);
        try {
            fetchThread.join(5_000);
            // A fetch or finish under way at close may have booked or buffered more since.
            runner.giveBackBooked();
            runner.ahead.handBackBuffered(true);
            rt.slots.awaitNoneInFlight(System.nanoTime() + timeout.toNanos());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        int left = rt.slots.inFlightCount();
        if (left > 0 && handBack) {
            log.warn("worker {} closed with {} job(s) still running; they are interrupted and handed back to the queue",
                    name, left);
            handBack();
        } else if (left > 0) {
            log.warn("worker {} closed with {} job(s) still running; their locks will expire and another worker will "
                    + "recover them", name, left);
            rt.slots.inFlight().values().forEach(ActiveJob::abandon);
        }
        heartbeat.leave();
        rt.scheduler.shutdownNow();
        flowTimer.shutdownNow();
        // A summary of unlogged failures that was still due is said now.
        runner.failureSummary();
        if (ownExecutor) {
            rt.executor.shutdownNow();
        } else {
            rt.handoff.shutdownNow();
        }
        waiter.close(handBack);
        rt.listener.workerStopped(name);
        rt.listener.flush(LISTENERS_CLOSE_TIMEOUT);
        log.info("worker {} closed", name);
    }

    /** Worker#pause / #resume: the fetch loop parks or wakes at once; the heartbeat says so. */
    void paused(boolean paused) {
        boolean changed;
        if (paused) {
            changed = rt.pause.pause();
            waiter.pause();
        } else {
            waiter.resume();
            changed = rt.pause.resume();
        }
        if (changed) {
            log.info("worker {} {}", rt.settings.name(), paused ? "paused" : "resumed");
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
        for (ActiveJob<T> attempt : rt.slots.inFlight().values()) {
            attempt.abandon();
            calls.add(rt.scripts.moveToWait(attempt.id(), attempt.lockToken, true).toCompletableFuture()
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
