package io.bullpen.worker;

import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.Queue;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What a trickle liveness test works with: a queue, a {@link StartLedger}, a {@link Trickle}
 * and workers whose processors report their starts. Workers use a lock duration of
 * {@link #LOCK} and otherwise the defaults (a 5 s blocking wait, a 30 s stalled interval), so no
 * short timer hides a wake-up that never came: a job that may run must start within
 * {@link #BOUND} (stall recovery: within {@link #BOUND} of its lease's expiry). The queue holds
 * a job due in an hour: an idle worker that knows of nothing sooner looks at the queue by itself
 * only once a minute, so every wake-up must come from a signal or a wake time it was given.
 */
final class LivenessFixture implements AutoCloseable {
    static final Duration LOCK = Duration.ofSeconds(5);
    static final Duration BOUND = Duration.ofMillis(1_500);

    /** A processor behind the ledger's bookkeeping. */
    @FunctionalInterface
    interface Body {
        Object run(JobContext<String> ctx) throws Exception;
    }

    final BullpenTestContext ctx;
    final Queue<String> queue;
    final StartLedger ledger = new StartLedger();
    final Trickle trickle;
    private final List<Worker<String, Object>> workers = new CopyOnWriteArrayList<>();

    LivenessFixture(BullpenTestContext ctx, String test) {
        this.ctx = ctx;
        this.queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        this.trickle = new Trickle(test);
        queue.add("far", "far", JobOptions.builder().jobId("far").delay(Duration.ofHours(1)).build());
    }

    /** A worker (concurrency 3) whose processor reports its start, works 5-40 ms, then runs {@code body}. */
    Worker.Builder<String, Object> worker(Body body) {
        return Worker.builder(ctx.redisson(), queue.name(), String.class).concurrency(3).lockDuration(LOCK)
                .processor(c -> {
                    ledger.started(c.job().id());
                    work(5 + ThreadLocalRandom.current().nextInt(35));
                    return body.run(c);
                });
    }

    Worker<String, Object> start(Worker.Builder<String, Object> builder) {
        Worker<String, Object> w = builder.build();
        workers.add(w);
        return w.start();
    }

    /** Starts two workers running {@code body}. */
    void startTwo(Body body) {
        start(worker(body));
        start(worker(body));
    }

    /** Adds job {@code id}, runnable {@code delay} after now. */
    Job<String> add(String id, String what, JobOptions.Builder options, Duration delay) {
        ledger.ready(id, what, System.currentTimeMillis() + delay.toMillis());
        return queue.add(what, id, options.jobId(id).delay(delay).build());
    }

    Job<String> add(String id) {
        return add(id, "add", JobOptions.builder(), Duration.ZERO);
    }

    /** A processor's work: time passing on its thread. */
    static void work(long millis) throws InterruptedException {
        Thread.sleep(millis);
    }

    /** Waits for every runnable job to start, then checks each started within {@link #BOUND}. */
    void assertLive() {
        ledger.awaitAllStarted(Duration.ofSeconds(30));
        ledger.assertStartedWithin(BOUND);
    }

    List<Worker<String, Object>> workers() {
        return workers;
    }

    @Override
    public void close() {
        workers.forEach(w -> w.close(Duration.ofSeconds(5)));
    }
}
