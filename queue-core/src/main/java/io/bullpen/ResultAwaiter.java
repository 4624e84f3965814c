package io.bullpen;

import com.fasterxml.jackson.databind.JavaType;
import io.bullpen.internal.AwaitScripts;
import io.bullpen.internal.AwaitScripts.Answer;
import io.bullpen.internal.Completions;
import io.bullpen.internal.JsonCodec;
import io.bullpen.internal.RedisCalls;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Awaits of job results ({@link Queue#awaitResult}, {@link Queue#addAndAwait}), one per
 * {@link RedissonClient}, shared by every queue of that client:
 * 1. an await goes into one map of pending futures first, then the {@code awaitJob} script marks
 *    the job awaited (its finish keeps the result in {@code result:<id>}) and answers at once
 *    for a job that already finished; otherwise it names the events stream's newest id;
 * 2. one thread ({@link AwaiterLoop}) on one small client reads the events streams of the queues
 *    with pending awaits from those ids and completes futures from completed/failed events;
 * 3. after a read error or reconnect, and every {@link AwaiterLoop#RECHECK_MS} while awaits are
 *    pending, it re-reads the pending jobs with awaitJob, one call per queue: a dropped connection
 *    or a trimmed stream loses nothing;
 * 4. futures are completed on the completion executor ({@link Completions#executor()}), never on
 *    Redisson's I/O threads, the reading thread or the common {@code ForkJoinPool}; a timeout
 *    completes with {@link TimeoutException}.
 * The thread ends when nothing has been pending for a while and starts again on demand.
 */
final class ResultAwaiter {
    private static final Logger log = LoggerFactory.getLogger(ResultAwaiter.class);
    private static final Map<RedissonClient, ResultAwaiter> BY_CLIENT = Collections.synchronizedMap(new WeakHashMap<>());
    /** How long a result is kept for its awaiters at least (longer awaits keep it longer). */
    static final long DEFAULT_KEEP_MS = Duration.ofHours(1).toMillis();
    private static final int REGISTER_BATCH = 2_000;

    final RedissonClient app;
    final Executor completer;
    final ConcurrentHashMap<String, Tracked> queues = new ConcurrentHashMap<>();
    final ConcurrentLinkedQueue<Start> starts = new ConcurrentLinkedQueue<>();
    final AtomicInteger pending = new AtomicInteger();
    private final Object lock = new Object();
    private AwaiterLoop loop;

    /** A queue with awaits: its pending waiters by job id; the read position belongs to the loop. */
    static final class Tracked {
        final String queue;
        final String stream;
        final AwaitScripts scripts;
        final ConcurrentHashMap<String, List<Waiter<?>>> waiters = new ConcurrentHashMap<>();
        /** Awaits whose awaitJob call has not been sent: sent together, one call in flight. */
        final ConcurrentLinkedQueue<String> toRegister = new ConcurrentLinkedQueue<>();
        final AtomicBoolean registering = new AtomicBoolean();
        volatile long keepMs = DEFAULT_KEEP_MS;
        String cursor;

        Tracked(String queue, AwaitScripts scripts) {
            this.queue = queue;
            this.stream = scripts.keys().events();
            this.scripts = scripts;
        }
    }

    /** An await whose awaitJob reply said "pending": read the stream after {@code newestId}. */
    record Start(Tracked queue, String newestId) {
    }

    /** One caller's await of one job. */
    static final class Waiter<R> {
        final String jobId;
        final JavaType type;
        final CompletableFuture<R> future = new CompletableFuture<>();

        Waiter(String jobId, JavaType type) {
            this.jobId = jobId;
            this.type = type;
        }

        void settle(String queue, String status, String value, boolean cancelled) {
            try {
                switch (status) {
                    case "completed" -> future.complete(JsonCodec.decode(value, type));
                    case "failed" -> future.completeExceptionally(new JobFailedException(jobId, value,
                            cancelled || value.startsWith(JobFailedException.CANCELLED_PREFIX)));
                    default -> future.completeExceptionally(new JobNotFoundException(queue, jobId));
                }
            } catch (RuntimeException e) {
                // A return value that does not decode to the asked type.
                future.completeExceptionally(e);
            }
        }
    }

    ResultAwaiter(RedissonClient app, Executor completer) {
        this.app = app;
        this.completer = completer;
    }

    /** @return the awaiter of this client (one per client, made on first use) */
    static ResultAwaiter of(RedissonClient redisson) {
        synchronized (BY_CLIENT) {
            return BY_CLIENT.computeIfAbsent(redisson, c -> new ResultAwaiter(c, Completions.executor()));
        }
    }

    /**
     * Awaits one job's result.
     *
     * @param queue the queue name (for exceptions)
     * @param scripts the queue's awaitJob
     * @param jobId the job
     * @param type the result's type
     * @param timeout how long to wait, > 0
     * @return the future; see {@link Queue#awaitResult}
     */
    <R> CompletableFuture<R> await(String queue, AwaitScripts scripts, String jobId, JavaType type, Duration timeout) {
        Tracked t = queues.computeIfAbsent(scripts.keys().events(), s -> new Tracked(queue, scripts));
        long keepMs = QueueAwaits.keepMs(timeout);
        if (keepMs > t.keepMs) {
            t.keepMs = keepMs;
        }
        Waiter<R> w = new Waiter<>(jobId, type);
        // In the map before the script runs: every event after the script's newest id finds it.
        t.waiters.compute(jobId, (id, list) -> {
            List<Waiter<?>> l = list == null ? new ArrayList<>(1) : list;
            l.add(w);
            return l;
        });
        pending.incrementAndGet();
        w.future.whenComplete((r, e) -> forget(t, w));
        CompletableFuture.delayedExecutor(timeout.toMillis(), TimeUnit.MILLISECONDS, completer).execute(() ->
                w.future.completeExceptionally(new TimeoutException(
                        "job " + jobId + " of queue " + queue + " did not finish within " + timeout)));
        t.toRegister.add(jobId);
        register(t);
        return w.future;
    }

    /**
     * Sends the awaits not yet registered in one awaitJob call (at most {@link #REGISTER_BATCH}
     * ids), one call per queue in flight: 10,000 awaits at once make a few calls, not 10,000. A
     * call that fails leaves its awaits to the loop's periodic re-read (they are in the map).
     */
    private void register(Tracked t) {
        if (t.toRegister.isEmpty() || !t.registering.compareAndSet(false, true)) {
            return;
        }
        Set<String> ids = new LinkedHashSet<>();
        String id;
        while (ids.size() < REGISTER_BATCH && (id = t.toRegister.poll()) != null) {
            ids.add(id);
        }
        if (ids.isEmpty()) {
            t.registering.set(false);
            register(t);
            return;
        }
        t.scripts.awaitJob(t.keepMs, ids).whenComplete((reply, error) -> {
            // On Redisson's I/O thread: only hand on.
            try {
                if (error != null) {
                    log.warn("registering {} awaits of queue {} failed ({}); the awaiter re-reads them", ids.size(),
                            t.queue, RedisCalls.translate(t.queue, "awaitResult", error).toString());
                    wake();
                    return;
                }
                boolean pendingOnes = false;
                for (Answer a : reply.answers()) {
                    if ("pending".equals(a.status())) {
                        pendingOnes = true;
                    } else {
                        resolve(t, a.jobId(), a.status(), a.value(), false);
                    }
                }
                if (pendingOnes) {
                    starts.add(new Start(t, reply.newestEventId()));
                    wake();
                }
            } finally {
                t.registering.set(false);
                register(t);
            }
        });
    }

    /** Completes every await of the job (on the completion executor); later calls find none. */
    void resolve(Tracked t, String jobId, String status, String value, boolean cancelled) {
        List<Waiter<?>> ws = t.waiters.remove(jobId);
        if (ws == null) {
            return;
        }
        pending.addAndGet(-ws.size());
        for (Waiter<?> w : ws) {
            completer.execute(() -> w.settle(t.queue, status, value, cancelled));
        }
    }

    /** Drops a waiter that ended otherwise (timeout, cancelled by its caller). */
    private void forget(Tracked t, Waiter<?> w) {
        boolean[] removed = {false};
        t.waiters.computeIfPresent(w.jobId, (id, list) -> {
            removed[0] = list.remove(w);
            return list.isEmpty() ? null : list;
        });
        if (removed[0]) {
            pending.decrementAndGet();
        }
    }

    /** Starts the loop, or wakes it to take new starts. */
    private void wake() {
        synchronized (lock) {
            if (loop == null) {
                loop = new AwaiterLoop(this);
                loop.start();
            } else {
                loop.wake();
            }
        }
    }

    /** Called by the loop before it ends: true (and forgotten) only when nothing is pending. */
    boolean mayStop(AwaiterLoop l) {
        synchronized (lock) {
            if (pending.get() > 0 || !starts.isEmpty()) {
                return false;
            }
            if (loop == l) {
                loop = null;
            }
            return true;
        }
    }

    /** Called by a loop that failed to start its client: the next await starts another. */
    void stopped(AwaiterLoop l) {
        synchronized (lock) {
            if (loop == l) {
                loop = null;
            }
        }
        log.debug("result awaiter loop stopped");
    }
}
