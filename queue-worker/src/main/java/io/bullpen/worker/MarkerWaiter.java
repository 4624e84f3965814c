package io.bullpen.worker;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.redisson.api.RScoredSortedSet;
import org.redisson.api.RedissonClient;
import io.bullpen.internal.SmallClient;
import org.redisson.client.codec.StringCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How an idle worker waits without polling:
 * 1. one BZPOPMIN on the queue's marker, on a small client of its own, so a long wait never
 *    holds a connection of the application's pool;
 * 2. bounded to whole seconds (Redisson sends a timeout under 1 s as "block forever");
 * 3. at most one pop is outstanding: a pop still pending when a timer woke the worker is reused,
 *    and a pop that ended while the worker was busy counts as a wake-up (it may have consumed
 *    the signal of a job added meanwhile);
 * 4. a client-side deadline (next delayed job, next lease expiry) ends the wait to the
 *    millisecond, since Redis times out blocking commands only at its hz granularity;
 * 5. a watchdog abandons a pop that outlived its timeout by 2 s (a lost wait after a reconnect),
 *    so the worker always looks at the queue again within timeout + 2 s.
 * Whatever ends the wait, the caller then asks the queue itself: a pop's result is only a hint.
 */
final class MarkerWaiter implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MarkerWaiter.class);
    private static final long WATCHDOG_MS = 2_000;

    private final RedissonClient client;
    private final RScoredSortedSet<String> marker;
    private final long blockSeconds;
    private final CompletableFuture<Void> closed = new CompletableFuture<>();
    private volatile CompletableFuture<String> pending;
    private long pendingSince;

    MarkerWaiter(RedissonClient app, String markerKey, Duration blockTimeout) {
        this.client = SmallClient.create(app);
        this.marker = client.getScoredSortedSet(markerKey, StringCodec.INSTANCE);
        this.blockSeconds = Math.max(1, blockTimeout.toSeconds());
    }

    /**
     * Waits for a signal, until {@code deadlineMillis} (epoch ms per {@code nowMillis}; <= 0 for
     * none) or until the block timeout, whichever comes first.
     */
    void await(long nowMillis, long deadlineMillis) throws InterruptedException {
        if (closed.isDone()) {
            return;
        }
        long now = System.currentTimeMillis();
        if (pending != null && pending.isDone()) {
            // The pop ended while the worker was busy (it may have taken a signal meant for a job
            // added meanwhile): count it as a wake-up and let the caller look at the queue first.
            pending = null;
            return;
        }
        if (pending == null) {
            pending = marker.pollFirstAsync(Duration.ofSeconds(blockSeconds)).toCompletableFuture();
            pendingSince = now;
        }
        long waitMs = pendingSince + blockSeconds * 1000 + WATCHDOG_MS - now;
        if (deadlineMillis > 0) {
            waitMs = Math.min(waitMs, deadlineMillis - nowMillis);
        }
        if (waitMs <= 0) {
            abandonIfStuck(now);
            return;
        }
        try {
            CompletableFuture.anyOf(pending, closed).get(waitMs, TimeUnit.MILLISECONDS);
            if (pending != null && pending.isDone()) {
                pending = null;
            }
        } catch (TimeoutException e) {
            abandonIfStuck(System.currentTimeMillis());
        } catch (ExecutionException e) {
            log.debug("marker wait failed; looking at the queue anyway", e.getCause());
            pending = null;
        }
    }

    private void abandonIfStuck(long now) {
        if (pending != null && !pending.isDone() && now - pendingSince >= blockSeconds * 1000 + WATCHDOG_MS) {
            log.debug("marker wait outlived its timeout; starting a new one");
            pending = null;
        }
    }

    /** Ends the current and every later wait at once. */
    void wakeForClose() {
        closed.complete(null);
    }

    @Override
    public void close() {
        wakeForClose();
        if (pending != null) {
            pending.cancel(true);
        }
        // A pending BZPOPMIN would hold a graceful shutdown for its whole timeout; nothing on
        // this client needs draining.
        client.shutdown(0, 100, TimeUnit.MILLISECONDS);
    }
}
