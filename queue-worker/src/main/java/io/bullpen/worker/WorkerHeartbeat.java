package io.bullpen.worker;

import io.bullpen.internal.Futures;
import io.bullpen.internal.WorkerScripts.Beat;
import io.bullpen.internal.WorkerScripts.Pulse;
import java.net.InetAddress;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the worker in its queue's list of live workers ({@code Queue.getWorkers()}):
 * 1. a heartbeat (workerHeartbeat: name, host, pid, concurrency, running, paused) at start, every
 *    min(lockDuration / 2, 5 s) and on pause and resume, alive for 3 lock durations, so a worker
 *    that dies drops off after that long;
 * 2. all of it on the worker's timer thread, one call at a time, never a Redis client thread; a
 *    Redis error is logged (at most once a minute at WARN) and the next tick tries again;
 * 3. on close, workerLeft on the same thread, after any heartbeat under way, so the worker
 *    leaves the list at once and no late heartbeat puts it back;
 * 4. each heartbeat also reads the queue's earliest lease expiry: one that comes before the next
 *    heartbeat is a dead worker's, and the worker looks at the queue when it expires (see
 *    {@link #watchLeases}).
 */
final class WorkerHeartbeat implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(WorkerHeartbeat.class);
    static final long MAX_INTERVAL_MS = 5_000;
    private static final long WARN_EVERY_MS = 60_000;
    private static final long LEAVE_TIMEOUT_MS = 5_000;

    private final WorkerSettings settings;
    private final Intake intake;
    private final Slots<?> slots;
    private final WorkerStore store;
    private final ScheduledExecutorService scheduler;
    private final long ttlMs;
    private volatile boolean left;
    private long lastWarn; // timer thread only

    /** Makes the fetch loop look at the queue (see {@link #watchLeases}). */
    private final Runnable look;
    /** Told when a heartbeat finds flow work (see {@link Pulse#flowWork()}). */
    private final FlowRunner flows;
    private long watchedExpiry = -1; // timer thread only

    WorkerHeartbeat(WorkerSettings settings, Intake intake, Slots<?> slots, WorkerStore store,
                    ScheduledExecutorService scheduler, Runnable look, FlowRunner flows) {
        this.settings = settings;
        this.flows = flows;
        this.intake = intake;
        this.slots = slots;
        this.store = store;
        this.scheduler = scheduler;
        this.look = look;
        this.ttlMs = 3 * settings.lockDuration().toMillis();
    }

    /** @return how often a worker with this lock duration sends a heartbeat, in ms */
    static long intervalMillis(long lockMillis) {
        return Math.max(1, Math.min(lockMillis / 2, MAX_INTERVAL_MS));
    }

    /** Sends the first heartbeat now and the next ones every interval. */
    void start() {
        long every = intervalMillis(settings.lockDuration().toMillis());
        scheduler.scheduleWithFixedDelay(this, 0, every, TimeUnit.MILLISECONDS);
    }

    /** Sends a heartbeat as soon as the timer thread is free (the worker paused or resumed). */
    void beatSoon() {
        try {
            scheduler.execute(this);
        } catch (RejectedExecutionException closed) {
            // Closing: workerLeft follows.
        }
    }

    @Override
    public void run() {
        if (left) {
            return;
        }
        Beat beat = new Beat(settings.name(), Host.NAME, Host.PID, settings.concurrency(), slots.inFlightCount(),
                intake.paused());
        try {
            Pulse pulse = Futures.join(store.heartbeat(beat, ttlMs));
            watchLeases(pulse);
            if (pulse.flowWork() != 0) {
                flows.work(pulse.flowWork());
            }
        } catch (RuntimeException e) {
            long now = System.currentTimeMillis();
            if (now - lastWarn >= WARN_EVERY_MS) {
                lastWarn = now;
                log.warn("worker {} could not send its heartbeat to queue {} (retrying every tick; logged once a "
                        + "minute): {}", settings.name(), settings.queue(), e.toString());
            } else {
                log.debug("worker {} could not send its heartbeat: {}", settings.name(), e.toString());
            }
        }
    }

    /**
     * A lease that expires before the next heartbeat is one nobody renews (a live one is renewed
     * every lockDuration / 2, at least as often as heartbeats go): its worker died. This worker
     * may never have fetched since that job was taken (an idle worker knows the leases of its
     * last fetch only, and nothing signals a death), so it looks at the queue when the lease
     * expires, and that fetch recovers the job. A paused worker leaves it to the others.
     */
    private void watchLeases(Pulse pulse) {
        long expiry = pulse.nextLeaseExpiry();
        if (expiry < 0 || expiry == watchedExpiry || !intake.running() || intake.paused()) {
            return;
        }
        long in = expiry - pulse.redisNow();
        if (in >= intervalMillis(settings.lockDuration().toMillis())) {
            return;
        }
        watchedExpiry = expiry;
        try {
            scheduler.schedule(look, Math.max(0, in) + 1, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            // Closing.
        }
    }

    /**
     * Leaves the list (workerLeft) on the timer thread, after any heartbeat under way; waits up
     * to 5 s. Call before the timer shuts down.
     */
    void leave() {
        Future<?> done;
        try {
            done = scheduler.submit(this::sendLeft);
        } catch (RejectedExecutionException e) {
            sendLeft();
            return;
        }
        try {
            done.get(LEAVE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.warn("worker {} could not leave the workers list of queue {} (it drops off when its heartbeat "
                    + "expires): {}", settings.name(), settings.queue(), e.toString());
        }
    }

    private void sendLeft() {
        left = true;
        try {
            Futures.join(store.workerLeft(settings.name()));
        } catch (RuntimeException e) {
            log.warn("worker {} could not leave the workers list of queue {} (it drops off when its heartbeat "
                    + "expires): {}", settings.name(), settings.queue(), e.toString());
        }
    }

    /** This process's host name and pid, looked up once (the host name may need DNS). */
    private static final class Host {
        static final long PID = ProcessHandle.current().pid();
        static final String NAME = hostName();

        private static String hostName() {
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (Exception e) {
                String env = System.getenv("HOSTNAME");
                return env == null || env.isBlank() ? "unknown" : env;
            }
        }
    }
}
