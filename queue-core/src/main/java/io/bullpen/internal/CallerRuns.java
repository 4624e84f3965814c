package io.bullpen.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

/**
 * The executor of one blocking call, whose tasks run on the thread that waits for the call: a
 * synchronous add hands the work that follows Redis's reply (building the jobs, the
 * instrumentations) to its own caller, which runs it while it waits. So concurrent callers never
 * queue behind a shared thread, and nothing of theirs runs on Redisson's I/O threads. A task
 * handed over after the caller stopped waiting goes to {@link Completions#executor()}. Not API.
 */
public final class CallerRuns implements Executor {
    private final Thread owner;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private volatile boolean done;

    private CallerRuns(Thread owner) {
        this.owner = owner;
    }

    /**
     * Makes a call whose continuations run on this thread, and waits for its result.
     *
     * @param call makes the call, given the executor to hand its continuations to
     * @return the result
     * @throws RuntimeException the call's failure, unwrapped (as {@link Futures#join})
     */
    public static <R> R join(Function<Executor, CompletionStage<R>> call) {
        CallerRuns here = new CallerRuns(Thread.currentThread());
        CompletableFuture<R> result;
        try {
            result = call.apply(here).toCompletableFuture();
            here.runUntilDone(result);
        } finally {
            here.finish();
        }
        return Futures.join(result);
    }

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
        if (!done) {
            LockSupport.unpark(owner);
        } else if (tasks.remove(task)) {
            // The caller stopped waiting (and draining) before this task came.
            Completions.executor().execute(task);
        }
    }

    private void runUntilDone(CompletableFuture<?> result) {
        // Wakes the caller also when the result completes without a task of ours.
        result.whenComplete((r, e) -> LockSupport.unpark(owner));
        boolean interrupted = false;
        try {
            while (true) {
                drain();
                if (result.isDone()) {
                    return;
                }
                LockSupport.park(this);
                // Uninterruptible, as CompletableFuture.join: the flag is kept for the caller.
                interrupted |= Thread.interrupted();
            }
        } finally {
            if (interrupted) {
                owner.interrupt();
            }
        }
    }

    private void finish() {
        done = true;
        drain();
    }

    private void drain() {
        for (Runnable task = tasks.poll(); task != null; task = tasks.poll()) {
            task.run();
        }
    }
}
