package io.bullpen.internal;

import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the futures Bullpen hands out complete: the work that follows a Redis reply moves off
 * Redisson's I/O threads here, so that callers' dependent stages never run on them.
 *
 * <p>The pool is Bullpen's own, not the common {@code ForkJoinPool} (one thread on a 2-core
 * machine, shared with everything else in the JVM), and of a fixed size, not one per core: its
 * tasks are short (building the added jobs, calling the instrumentations, completing a future).
 * It is a {@code ForkJoinPool} so that a dependent stage that blocks in {@code join()} or
 * {@code get()} on another Bullpen future gets a spare thread rather than stalling the pool.
 * Daemon threads named {@code bullpen-completion-N}, ended after a minute idle. Not API.
 */
public final class Completions {
    /** Threads the pool keeps busy at most (plus spares for tasks blocked in join/get). */
    static final int THREADS = 4;
    private static final Logger log = LoggerFactory.getLogger(Completions.class);

    private Completions() {
    }

    private static final class Pool {
        private static final AtomicInteger COUNT = new AtomicInteger();
        static final ForkJoinPool POOL = new ForkJoinPool(THREADS, pool -> {
            ForkJoinWorkerThread t = new ForkJoinWorkerThread(pool) {
            };
            t.setName("bullpen-completion-" + COUNT.incrementAndGet());
            return t;
        }, (thread, error) -> log.error("uncaught in {}", thread.getName(), error), true);
    }

    /** @return the shared completion pool */
    public static Executor executor() {
        return Pool.POOL;
    }

    /**
     * @param executor where dependents of the returned stage run
     * @param stage a stage that may complete on a Redisson I/O thread
     * @return a stage with the same outcome, completed by a task on {@code executor}
     */
    public static <R> CompletionStage<R> on(Executor executor, CompletionStage<R> stage) {
        return stage.whenCompleteAsync((result, error) -> {
        }, executor);
    }
}
