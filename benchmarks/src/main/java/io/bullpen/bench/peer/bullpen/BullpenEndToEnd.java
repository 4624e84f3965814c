package io.bullpen.bench.peer.bullpen;

import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.MetricsType;
import io.bullpen.Queue;
import io.bullpen.bench.peer.LatencyRun;
import io.bullpen.bench.peer.MixedPass;
import io.bullpen.worker.Worker;
import io.bullpen.worker.WorkerListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import org.redisson.api.RedissonClient;

/**
 * The end-to-end passes with Bullpen's public API, producers and worker in this JVM:
 * {@code mixed} (threads calling {@code queue.add} one job at a time while a {@link Worker}
 * processes) and {@code latency} (one thread calling {@code queue.addAsync} on a fixed schedule
 * to an idle worker; times from {@link System#nanoTime()}).
 */
final class BullpenEndToEnd {
    private static final Duration MAX_WAIT = Duration.ofMinutes(10);
    private static final Duration IDLE = Duration.ofSeconds(1);

    private BullpenEndToEnd() {
    }

    /** Jobs of the queue completed in the last 10 minutes, as its finish script counted them. */
    private static long completedSoFar(Queue<Payload> queue) {
        return queue.getMetrics(MetricsType.COMPLETED, 10).total();
    }

    static MixedPass startMixed(RedissonClient redisson, Queue<Payload> queue, int producers, int concurrency) {
        AtomicLong added = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        long completedBefore = completedSoFar(queue);
        // Completions are counted by the finish script itself (the queue's metrics), read at the
        // window's edges: a listener of every completion would add a hand-off to the worker's
        // events thread per job to what is measured. The failure listener costs nothing per job
        // while no job fails (a callback nobody implements is never queued).
        Worker<Payload, Object> worker = Worker.builder(redisson, queue.name(), Payload.class)
                .processor(ctx -> null)
                .concurrency(concurrency)
                .listener(new WorkerListener<>() {
                    @Override
                    public void onFailed(Job<Payload> job, Throwable error, boolean finalFailure) {
                        failures.add(error);
                    }
                })
                .build()
                .start();
        List<Thread> threads = new ArrayList<>(producers);
        for (int p = 0; p < producers; p++) {
            Thread t = new Thread(() -> {
                try {
                    for (int i = 0; !stop.get(); i++) {
                        queue.add("noop", new Payload(i));
                        added.incrementAndGet();
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "mixed-producer-" + p);
            threads.add(t);
            t.start();
        }
        return new MixedPass() {
            @Override
            public Progress progress() {
                if (!failures.isEmpty()) {
                    throw new IllegalStateException("a producer or the worker failed", failures.peek());
                }
                return new Progress(added.get(), completedSoFar(queue) - completedBefore);
            }

            @Override
            public List<Long> clientPids() {
                return List.of(ProcessHandle.current().pid());
            }

            @Override
            public void close() throws InterruptedException {
                stop.set(true);
                try {
                    for (Thread t : threads) {
                        t.join(MAX_WAIT.toMillis());
                    }
                } finally {
                    worker.close();
                }
            }
        };
    }

    static LatencyRun latency(RedissonClient redisson, Queue<Payload> queue, int rate, int jobs, int concurrency)
            throws Exception {
        AtomicLongArray sent = new AtomicLongArray(jobs);
        AtomicLongArray started = new AtomicLongArray(jobs);
        AtomicLongArray finished = new AtomicLongArray(jobs);
        long[] lag = new long[jobs];
        AtomicInteger completed = new AtomicInteger();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        CountDownLatch done = new CountDownLatch(1);
        Worker<Payload, Object> worker = Worker.builder(redisson, queue.name(), Payload.class)
                .processor(ctx -> {
                    started.set(ctx.job().data().n(), System.nanoTime());
                    return null;
                })
                .concurrency(concurrency)
                .listener(new WorkerListener<>() {
                    @Override
                    public void onCompleted(Job<Payload> job, Object result) {
                        finished.set(job.data().n(), System.nanoTime());
                        if (completed.incrementAndGet() == jobs) {
                            done.countDown();
                        }
                    }

                    @Override
                    public void onFailed(Job<Payload> job, Throwable error, boolean finalFailure) {
                        failures.add(error);
                        done.countDown();
                    }
                })
                .build()
                .start();
        try {
            Thread.sleep(IDLE.toMillis()); // an idle worker, waiting for jobs
            long periodNanos = 1_000_000_000L / rate;
            long start = System.nanoTime();
            List<CompletableFuture<Job<Payload>>> adds = new ArrayList<>(jobs);
            for (int i = 0; i < jobs; i++) {
                long due = start + i * periodNanos;
                long now;
                while ((now = System.nanoTime()) < due) {
                    LockSupport.parkNanos(due - now);
                }
                sent.set(i, now);
                lag[i] = (now - due) / 1_000;
                adds.add(queue.addAsync("noop", new Payload(i), JobOptions.defaults()));
            }
            CompletableFuture.allOf(adds.toArray(CompletableFuture[]::new)).get(MAX_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            if (!done.await(MAX_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new TimeoutException("completed " + completed.get() + " of " + jobs + " jobs in " + MAX_WAIT);
            }
        } finally {
            worker.close();
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException("a job failed", failures.peek());
        }
        long[] toStart = new long[jobs];
        long[] toCompleted = new long[jobs];
        for (int i = 0; i < jobs; i++) {
            toStart[i] = (started.get(i) - sent.get(i)) / 1_000;
            toCompleted[i] = (finished.get(i) - sent.get(i)) / 1_000;
        }
        return new LatencyRun(lag, toStart, toCompleted);
    }
}
