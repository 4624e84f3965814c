package io.bullpen.worker;

import io.bullpen.internal.SmallClient;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's Redis calls (fetch, finish, lock renewal) across a dropped connection. A call
 * written to a connection that then dies gets no reply, and Redisson fails it only at its
 * response timeout (3 s by default), long after Redis is back:
 * 1. each call goes through {@link #call}: sent at once, remembered until it ends;
 * 2. when the shared small client loses its server (the worker's {@link MarkerWaiter} passes the
 *    event on), every call under way is marked, and so is each call sent while the server is away;
 * 3. when the server is back (the small client retries every 100 ms), each marked call still
 *    under way is sent again, and the first attempt is given up: a late reply to it goes to the
 *    call's orphan handler (a first attempt Redisson held back and sent once its own connection
 *    was back does run: the jobs such a fetch took are handed back, unstarted).
 *    The calls are safe to send twice: a finish whose first call landed is recognised by its lock
 *    token (moveToFinished answers the job's state), a renewal extends again, a fetch takes jobs
 *    again (jobs a lost fetch took are recovered when their leases expire, as after any lost reply);
 * 4. hooks registered with {@link #onReconnect} run then too: a call that failed while Redis was
 *    away and waits out a backoff goes at once;
 * 5. for {@link #SETTLE_MS} after a reconnect, a call (sent again, or new) without a reply after
 *    {@link #RESEND_AFTER_MS} is sent again: the application client reconnects its pooled
 *    connections one by one, and a call written to one that was still dead waited out the
 *    response timeout (1 run in 20). Sending twice is safe (step 3); the checks run on the JDK's
 *    one shared delay thread ({@link CompletableFuture#delayedExecutor}), never on a pool.
 * Events arrive on Redisson's I/O threads; a resend only builds and sends the call there.
 */
final class InFlightCalls implements SmallClient.Connections {
    private static final Logger log = LoggerFactory.getLogger(InFlightCalls.class);

    private final Set<Call<?>> live = ConcurrentHashMap.newKeySet();
    private final List<Runnable> hooks = new CopyOnWriteArrayList<>();
    private volatile boolean away;
    /** Until when (System.nanoTime) calls without a reply are sent again: the settle window. */
    private volatile long settleUntil = System.nanoTime() - 1;
    /** How long after a reconnect calls are watched. */
    static final long SETTLE_MS = 3_000;
    /** A call without a reply this long within the settle window is sent again. */
    static final long RESEND_AFTER_MS = 500;
    private final Executor checks = CompletableFuture.delayedExecutor(RESEND_AFTER_MS, TimeUnit.MILLISECONDS,
            Runnable::run);

    /**
     * Sends a call, and sends it again if the connection drops before its reply.
     *
     * @param send makes and sends the call; may be run again (keep it free of side effects that
     *     must happen once)
     * @return the reply of the attempt that answered
     */
    <V> CompletableFuture<V> call(Supplier<? extends CompletionStage<V>> send) {
        return call(send, late -> {
        });
    }

    /**
     * @param orphan gets the reply of an attempt given up that answered after all (on a Redisson I/O thread)
     */
    <V> CompletableFuture<V> call(Supplier<? extends CompletionStage<V>> send, Consumer<? super V> orphan) {
        Call<V> c = new Call<>(send, orphan);
        live.add(c);
        c.send();
        watchIfSettling(c);
        return c.result;
    }

    /** Runs {@code hook} each time the server is back after a loss (on a Redisson I/O thread: keep it short). */
    void onReconnect(Runnable hook) {
        hooks.add(hook);
    }

    /** @return whether the server is lost and not back yet */
    boolean away() {
        return away;
    }

    @Override
    public void lost(InetSocketAddress server) {
        away = true;
        for (Call<?> c : live) {
            c.crossedDrop = true;
        }
    }

    @Override
    public void reconnected(InetSocketAddress server) {
        away = false;
        settleUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SETTLE_MS);
        for (Call<?> c : live) {
            if (c.crossedDrop) {
                c.send();
                watchIfSettling(c);
            }
        }
        for (Runnable hook : hooks) {
            try {
                hook.run();
            } catch (RuntimeException e) {
                log.warn("a reconnect hook failed", e);
            }
        }
    }

    /** Within the settle window: sends {@code c} again if its current attempt has no reply in time. */
    private void watchIfSettling(Call<?> c) {
        if (c.result.isDone() || System.nanoTime() - settleUntil >= 0) {
            return;
        }
        Object watched = c.current();
        checks.execute(() -> {
            if (!c.result.isDone() && c.current() == watched && System.nanoTime() - settleUntil < 0 && !away) {
                c.send();
                watchIfSettling(c);
            }
        });
    }

    /** @return calls under way (tests) */
    int size() {
        return live.size();
    }

    private static <V> void handOrphan(Consumer<? super V> orphan, V value) {
        try {
            orphan.accept(value);
        } catch (RuntimeException e) {
            log.warn("handling a late reply failed", e);
        }
    }

    private final class Call<V> {
        final Supplier<? extends CompletionStage<V>> send;
        final Consumer<? super V> orphan;
        final CompletableFuture<V> result = new CompletableFuture<>();
        /** The attempt whose reply counts. Guarded by this. */
        private CompletableFuture<V> attempt;
        volatile boolean crossedDrop;

        Call(Supplier<? extends CompletionStage<V>> send, Consumer<? super V> orphan) {
            this.send = send;
            this.orphan = orphan;
        }

        synchronized Object current() {
            return attempt;
        }

        void orphanReply(V value) {
            handOrphan(orphan, value);
        }

        void send() {
            if (result.isDone()) {
                live.remove(this);
                return;
            }
            crossedDrop = away;
            CompletableFuture<V> a;
            try {
                a = send.get().toCompletableFuture();
            } catch (RuntimeException e) {
                a = CompletableFuture.failedFuture(e);
            }
            synchronized (this) {
                attempt = a;
            }
            CompletableFuture<V> mine = a;
            mine.whenComplete((value, error) -> {
                synchronized (this) {
                    if (attempt != mine) {
                        // Given up when the connection dropped, yet it ran: undo what must be.
                        if (error == null) {
                            orphanReply(value);
                        }
                        return;
                    }
                }
                live.remove(this);
                if (error != null) {
                    result.completeExceptionally(error);
                } else {
                    result.complete(value);
                }
            });
        }
    }
}
