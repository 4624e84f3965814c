package io.bullpen.worker;

import io.bullpen.internal.SmallClient;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How an idle worker waits without polling:
 * 1. one BZPOPMIN on the queue's marker, on the small client the workers of one application
 *    client share ({@link SmallClient}), so a long wait never holds a connection of the
 *    application's pool and no worker starts a Redisson client (threads) of its own;
 * 2. bounded to whole seconds (Redisson sends a timeout under 1 s as "block forever");
 * 3. at most one pop is outstanding for the worker: a pop still pending when a timer woke the
 *    worker is reused;
 * 4. wake-ups are sticky, and every pop that takes a signal is one, even a pop given up or one
 *    that ended while the worker was busy: it consumed the signal of a job added meanwhile;
 * 5. a client-side deadline (next delayed job, next lease expiry) ends the wait to the
 *    millisecond, since Redis times out blocking commands only at its hz granularity;
 * 6. a watchdog gives up a pop that outlived its timeout by 2 s (a wait lost in Redisson), so
 *    the worker always looks at the queue again within timeout + 2 s;
 * 7. when the small client loses its connection, the pops are cancelled. Redisson would send a
 *    pending pop again on the new connection with its whole timeout while it ends it
 *    client-side at the first deadline, and that stray pop took the signal meant for the next
 *    one (a job added 4.5 s after a restart waited 4.7 s). When the connection is back (the
 *    shared client retries every 100 ms) the worker is woken (it looks at the queue and sends a
 *    fresh pop) and logs it once. The events also go to the worker's {@link InFlightCalls}.
 *    For {@link #SETTLE_MS} after a reconnect a wait ends every {@link #LOOK_EVERY_MS} as if
 *    signalled: the shared pool reconnects its connections one by one, and a pop sent on one
 *    not back yet was seen to take seconds (Redisson retries its write), while a job added
 *    meanwhile must start at once.
 * 8. a worker that cannot take a job now hands the marker back (score 0, "look now") so another
 *    worker of the queue wakes for it: a paused one (see {@link #pause}), and one whose slots are
 *    all busy (see {@link #busy}), whatever its last pop still takes; so does a
 *    closed one, whose last pop is left to end by itself (cancelling a pop makes Redisson reset
 *    its connection, which the other users of the shared client would see as a lost server).
 *    Redis hands a marker to the pop that has waited longest, and a pop the worker sent while it was idle is still out when
 *    the worker takes a job at a deadline; kept, the signal waited for that worker's slot while
 *    another worker sat idle.
 * 9. pausing and closing hand the look over too: this worker may be the only one that knew when
 *    to look next (a delayed job's due time, a limit's end, from its own fetch); the worker
 *    woken instead asks the queue and learns it.
 * Whatever ends the wait, the caller then asks the queue itself: a pop's result is only a hint.
 * {@link #await} says whether a signal ended it (a pop that took the marker, the connection back,
 * close) or only time (the deadline, a pop's block timeout, the watchdog), so a worker that knows
 * when to look next can block again without asking the queue.
 */
final class MarkerWaiter implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MarkerWaiter.class);
    private static final long WATCHDOG_MS = 2_000;
    /** How long after a reconnect the waiter does not trust a pop alone. */
    static final long SETTLE_MS = 3_000;
    /** How often the worker looks at the queue meanwhile. */
    static final long LOOK_EVERY_MS = 200;
    /** How long close waits for the marker it hands over. */
    private static final long HAND_OVER_MS = 500;

    private final String workerName;
    private final long blockSeconds;
    /** Pops sent and not yet ended (the current one and any given up). */
    private final Set<CompletableFuture<String>> live = ConcurrentHashMap.newKeySet();
    /** Servers the small client lost and has not reconnected to (for the log lines). */
    private final Set<InetSocketAddress> lost = ConcurrentHashMap.newKeySet();
    private final Object wake = new Object();
    private boolean woken; // guarded by wake
    private boolean signalled; // guarded by wake: woken by a signal, not by time
    private volatile boolean closed;
    private volatile boolean paused;
    private volatile boolean busy;
    private volatile CompletableFuture<String> pending; // replaced by the fetch thread only
    private long pendingSince;
    private volatile long reconnectedAt = Long.MIN_VALUE / 2;
    private final SmallClient.Connections also;
    /** The queue's marker, on the waiting connection (and the application's, for the hand-over at close). */
    private final WorkerStore.Marker marker;

    MarkerWaiter(RedissonClient app, String markerKey, Duration blockTimeout, String workerName) {
        this(app, markerKey, blockTimeout, workerName, new SmallClient.Connections() {
        });
    }

    /** @param also told of the shared client's connection events after this waiter */
    MarkerWaiter(RedissonClient app, String markerKey, Duration blockTimeout, String workerName,
                 SmallClient.Connections also) {
        this(events -> new RedisWorkerStore.RedisMarker(app, markerKey, events), blockTimeout, workerName, also);
    }

    /**
     * @param open opens the marker ({@link WorkerStore#openMarker}), given this waiter's connection events
     * @param also told of the waiting connection's events after this waiter
     */
    MarkerWaiter(Function<SmallClient.Connections, WorkerStore.Marker> open, Duration blockTimeout, String workerName,
                 SmallClient.Connections also) {
        this.workerName = workerName;
        this.blockSeconds = Math.max(1, blockTimeout.toSeconds());
        this.also = also;
        this.marker = open.apply(new Reconnects());
    }

    /**
     * Waits for a signal, until {@code deadlineMillis} (epoch ms per {@code nowMillis}; <= 0 for
     * none) or until the block timeout, whichever comes first.
     *
     * @return true when a signal ended the wait (or one came while the worker was busy), false
     *     when only time did
     */
    boolean await(long nowMillis, long deadlineMillis) throws InterruptedException {
        if (closed) {
            return true;
        }
        if (pending != null && pending.isDone()) {
            pending = null;
        }
        if (takeSignal()) {
            // A signal came while the worker was busy (or the connection came back): look first.
            return true;
        }
        long now = System.currentTimeMillis();
        if (pending == null) {
            pop(now);
        }
        long waitMs = pendingSince + blockSeconds * 1000 + WATCHDOG_MS - now;
        if (deadlineMillis > 0) {
            waitMs = Math.min(waitMs, deadlineMillis - nowMillis);
        }
        // Just after a reconnect the pop may sit on a pooled connection still reconnecting: look
        // at the queue every LOOK_EVERY_MS meanwhile, as if signalled.
        boolean settling = now - reconnectedAt < SETTLE_MS;
        boolean capped = settling && waitMs > LOOK_EVERY_MS;
        boolean bySignal = waitMs > 0 && awaitWake(capped ? LOOK_EVERY_MS : waitMs);
        if (!bySignal) {
            abandonIfStuck(System.currentTimeMillis());
        }
        if (pending != null && pending.isDone()) {
            pending = null;
        }
        return bySignal || capped;
    }

    private void pop(long now) {
        CompletableFuture<String> pop = marker.pop(Duration.ofSeconds(blockSeconds));
        pending = pop;
        pendingSince = now;
        live.add(pop);
        // Runs on a Redisson I/O thread: only flags and notifies.
        pop.whenComplete((value, error) -> {
            live.remove(pop);
            if (closed && value != null) {
                putBack(); // the pop outlived the worker: the signal is another worker's
                return;
            }
            if (error instanceof CancellationException || closed) {
                return; // cancelled here: the connection dropped, or the worker is closing
            }
            if (error != null) {
                log.debug("marker wait failed; looking at the queue anyway", error);
            }
            // A null (timed out) or failed pop ends the current wait only; a signal always counts.
            if (value != null && (paused || busy)) {
                handBack();
            } else if (value != null) {
                signal();
            } else if (pop == pending) {
                endWait();
            }
        });
    }

    private void abandonIfStuck(long now) {
        CompletableFuture<String> p = pending;
        if (p != null && !p.isDone() && now - pendingSince >= blockSeconds * 1000 + WATCHDOG_MS) {
            // Not cancelled (Redisson would reset the connection for it); if it ever takes a
            // signal, that still wakes the worker.
            log.debug("marker wait outlived its timeout; starting a new one");
            pending = null;
        }
    }

    private void signal() {
        synchronized (wake) {
            woken = true;
            signalled = true;
            wake.notifyAll();
        }
    }

    /** Ends the current wait without a signal: the pop timed out or failed. */
    private void endWait() {
        synchronized (wake) {
            woken = true;
            wake.notifyAll();
        }
    }

    /** @return whether a signal came since the last wait; forgets any end of wait by time */
    private boolean takeSignal() {
        synchronized (wake) {
            boolean was = signalled;
            woken = false;
            signalled = false;
            return was;
        }
    }

    /**
     * @return true when woken by a signal (a pop that took the marker, connection back, close),
     *     false when the time ran out or the pop timed out
     */
    private boolean awaitWake(long millis) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        synchronized (wake) {
            while (!woken && !closed) {
                long left = end - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(wake, left);
            }
            boolean bySignal = signalled || closed;
            woken = false;
            signalled = false;
            return bySignal;
        }
    }

    /**
     * The worker pauses: ends the current wait at once (not as a signal) and hands back whatever
     * the pop still outstanding takes.
     */
    void pause() {
        paused = true;
        endWait();
        handBack();
    }

    /**
     * Whether the worker's slots are all busy: while they are, a signal goes back to the marker
     * for an idle worker (a slot that frees makes this worker look at the queue anyway).
     */
    void busy(boolean value) {
        busy = value;
        if (value) {
            handBackSignal();
        }
    }

    /**
     * Wakes the worker to look at the queue, as a signal would: something may be runnable that
     * no signal announces (a lease nobody renews expired, see {@code WorkerHeartbeat}).
     */
    void lookNow() {
        if (!closed && !paused) {
            signal();
        }
    }

    /** Passes a look this worker cannot make (its slots are busy) to another worker: marker back. */
    void passLook() {
        handBack();
    }

    /** The worker resumes: its pops count as signals again. */
    void resume() {
        paused = false;
    }

    /** Paused: a signal taken before the pause (or raced with it) goes back to the marker. */
    void handBackSignal() {
        if (takeSignal()) {
            handBack();
        }
    }

    /** Puts the marker back (score 0: "look now"), on the shared small client, not awaited. */
    private void handBack() {
        if (closed) {
            return;
        }
        putBack();
    }

    private void putBack() {
        marker.putBack().whenComplete((added, error) -> {
            if (error != null) {
                log.debug("could not hand back the marker; other workers look at their next timeout", error);
            }
        });
    }

    /** Ends the current and every later wait at once. */
    void wakeForClose() {
        closed = true;
        signal();
    }

    /**
     * Ends every wait and releases the shared client (the last user shuts it down, which ends a
     * pop still outstanding; otherwise it ends at its block timeout and hands back what it takes).
     */
    @Override
    public void close() {
        close(true);
    }

    /** @param handOver false only for a worker closed as if it crashed (tests): no hand-over */
    void close(boolean handOver) {
        wakeForClose();
        marker.close();
        if (handOver) {
            handOver();
        }
    }

    /**
     * Puts the marker back on the application's client after close, so another worker looks and
     * learns what this one knew (see 9); a pop of this worker still out hands back what it takes (see 8).
     */
    private void handOver() {
        try {
            marker.handOver().toCompletableFuture().get(HAND_OVER_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.debug("could not hand the marker over at close; other workers look at their next timeout", e);
        }
    }

    /** The shared client's connection events, on Redisson's I/O threads: flags, logs and notifies only. */
    private final class Reconnects implements SmallClient.Connections {
        @Override
        public void reconnected(InetSocketAddress addr) {
            if (lost.remove(addr) && !closed) {
                log.info("worker {} reconnected to Redis at {}", workerName, address(addr));
                reconnectedAt = System.currentTimeMillis();
                signal();
            }
            also.reconnected(addr);
        }

        @Override
        public void lost(InetSocketAddress addr) {
            if (closed) {
                return;
            }
            if (lost.add(addr)) {
                log.warn("worker {} lost its connection to Redis at {}; waiting for it to come back", workerName,
                        address(addr));
            }
            // Cancelled while the connection is down, a pop is not sent again on the new one.
            live.forEach(pop -> pop.cancel(false));
            also.lost(addr);
        }

        private static String address(InetSocketAddress addr) {
            return addr.getHostString() + ":" + addr.getPort();
        }
    }
}
