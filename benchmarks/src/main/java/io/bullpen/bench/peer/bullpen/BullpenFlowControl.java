package io.bullpen.bench.peer.bullpen;

import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobSpec;
import io.bullpen.Queue;
import io.bullpen.RateLimit;
import io.bullpen.bench.peer.FlowControl;
import io.bullpen.worker.JobProcessor;
import io.bullpen.worker.Worker;
import io.bullpen.worker.WorkerListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.redisson.api.RBucket;
import org.redisson.api.RedissonClient;

/**
 * Bullpen's flow-control operations for the workloads (see {@link FlowControl}), through the
 * public API only. Each operation uses a queue of its own and obliterates it when done.
 */
final class BullpenFlowControl implements FlowControl {
    /** One start per hour: after the first start, the limit holds every other job back. */
    private static final RateLimit HOLD_BACK = RateLimit.of(1, Duration.ofHours(1));
    /** Long enough for a worker that just finished a job to be back in its blocking wait. */
    private static final Duration SETTLE = Duration.ofMillis(50);
    private static final Duration MAX_WAIT = Duration.ofMinutes(10);

    private final RedissonClient redisson;

    BullpenFlowControl(RedissonClient redisson) {
        this.redisson = redisson;
    }

    @Override
    public List<long[]> wakeUpAfterLimitRemoved(int trials) throws Exception {
        Queue<Payload> queue = queue("wake-limit");
        BlockingQueue<Long> starts = new LinkedBlockingQueue<>();
        Worker<Payload, Object> worker = worker(queue, 1, ctx -> starts.add(System.nanoTime()));
        List<long[]> latencies = new ArrayList<>();
        List<long[]> callUs = new ArrayList<>();
        try {
            int added = 0;
            int started = 0;
            for (int i = 0; i < trials; i++) {
                queue.setRateLimit(HOLD_BACK);
                queue.add("noop", new Payload(added++));
                // The hour's one start, unless the previous trial's start still counts: then it waits too.
                if (starts.poll(300, TimeUnit.MILLISECONDS) != null) {
                    started++;
                }
                queue.add("noop", new Payload(added++));
                Thread.sleep(SETTLE.toMillis());
                if (!starts.isEmpty()) {
                    throw new IllegalStateException("trial " + i + ": a job started although the rate limit held it back");
                }
                long removed = System.nanoTime();
                queue.removeRateLimit();
                long returned = System.nanoTime();
                long start = take(starts, "the held-back job");
                long latency = (start - removed) / 1_000;
                latencies.add(new long[] {latency, Math.max(0, start - returned) / 1_000});
                callUs.add(new long[] {latency, (returned - removed) / 1_000});
                started++;
                for (; started < added; started++) {
                    take(starts, "the other held-back job");
                }
            }
            callUs.sort((a, b) -> Long.compare(b[0], a[0]));
            org.slf4j.LoggerFactory.getLogger(BullpenFlowControl.class).info(
                    "limit removed: slowest wake-ups with the removing call's own time (us): {}",
                    callUs.stream().limit(8).map(a -> a[0] + "/" + a[1]).toList());
            return latencies;
        } finally {
            worker.close();
            queue.obliterate(true);
        }
    }

    @Override
    public List<Long> wakeUpAfterSlotFreed(int trials) throws Exception {
        Queue<Payload> queue = queue("wake-slot");
        queue.setGlobalConcurrency(1);
        BlockingQueue<Long> starts = new LinkedBlockingQueue<>();
        BlockingQueue<Long> blockerStarted = new LinkedBlockingQueue<>();
        AtomicReference<CountDownLatch> release = new AtomicReference<>();
        // Even jobs hold the one slot until released; odd jobs note their start.
        JobProcessor<Payload, Object> processor = ctx -> {
            if (ctx.job().data().n() % 2 == 0) {
                blockerStarted.add(System.nanoTime());
                release.get().await();
            } else {
                starts.add(System.nanoTime());
            }
            return null;
        };
        Worker<Payload, Object> first = worker(queue, 1, processor);
        Worker<Payload, Object> second = worker(queue, 1, processor);
        List<Long> latencies = new ArrayList<>();
        try {
            for (int i = 0; i < trials; i++) {
                CountDownLatch latch = new CountDownLatch(1);
                release.set(latch);
                queue.add("hold", new Payload(2 * i));
                take(blockerStarted, "the job holding the slot");
                queue.add("noop", new Payload(2 * i + 1));
                Thread.sleep(SETTLE.toMillis());
                if (!starts.isEmpty()) {
                    throw new IllegalStateException("trial " + i + ": a job started beyond the global concurrency of 1");
                }
                long freed = System.nanoTime();
                latch.countDown();
                latencies.add((take(starts, "the job waiting for the slot") - freed) / 1_000);
            }
            return latencies;
        } finally {
            CountDownLatch latch = release.get();
            if (latch != null) {
                latch.countDown();
            }
            first.close();
            second.close();
            queue.obliterate(true);
        }
    }

    @Override
    public List<Long> roundTripsAfterIdle(int trials) throws Exception {
        RBucket<String> bucket = redisson.getBucket("bench:round-trip");
        bucket.set("x");
        List<Long> latencies = new ArrayList<>();
        try {
            for (int i = 0; i < trials; i++) {
                Thread.sleep(SETTLE.toMillis()); // the idle time a wake-up trial has before its trigger
                long sent = System.nanoTime();
                bucket.get();
                latencies.add((System.nanoTime() - sent) / 1_000);
            }
        } finally {
            bucket.delete();
        }
        return latencies;
    }

    @Override
    public void whileWaitingOutALongLimit(Measurement during) throws Exception {
        Queue<Payload> queue = queue("wait-limit");
        queue.setRateLimit(HOLD_BACK);
        BlockingQueue<Long> starts = new LinkedBlockingQueue<>();
        Worker<Payload, Object> worker = worker(queue, 1, ctx -> starts.add(System.nanoTime()));
        try {
            queue.add("noop", new Payload(0));
            take(starts, "the hour's one start");
            queue.add("noop", new Payload(1));
            Thread.sleep(1_000);   // the first job's finish and the worker's limited fetch are done
            during.run();
            if (!starts.isEmpty()) {
                throw new IllegalStateException("a job started although the rate limit held it back");
            }
        } finally {
            worker.close();
            queue.obliterate(true);
        }
    }

    @Override
    public Map<String, Long> fairness(int bigJobs, int smallGroups, int smallJobs, int concurrency, Duration work,
            boolean grouped) throws Exception {
        Queue<Payload> queue = queue(grouped ? "fair-groups" : "fair-fifo");
        List<JobSpec<Payload>> big = new ArrayList<>();
        for (int i = 0; i < bigJobs; i++) {
            big.add(JobSpec.of("big", new Payload(i), options(grouped ? "big" : null)));
            if (big.size() == 1_000 || i == bigJobs - 1) {
                queue.addBulk(big);
                big.clear();
            }
        }
        int total = bigJobs + smallGroups * smallJobs;
        Map<String, Long> lastFinish = new ConcurrentHashMap<>();
        AtomicInteger completed = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(1);
        long start = System.nanoTime();
        // The job's name is its group's, so the listener needs no group accessor.
        Worker<Payload, Object> worker = Worker.builder(redisson, queue.name(), Payload.class)
                .processor(ctx -> {
                    Thread.sleep(work.toMillis());
                    return null;
                })
                .concurrency(concurrency)
                .listener(new WorkerListener<>() {
                    @Override
                    public void onCompleted(Job<Payload> job, Object result) {
                        lastFinish.merge(job.name(), (System.nanoTime() - start) / 1_000_000, Math::max);
                        if (completed.incrementAndGet() == total) {
                            done.countDown();
                        }
                    }
                })
                .build()
                .start();
        try {
            for (int g = 1; g <= smallGroups; g++) {
                List<JobSpec<Payload>> small = new ArrayList<>();
                for (int j = 0; j < smallJobs; j++) {
                    small.add(JobSpec.of("small-" + g, new Payload(j), options(grouped ? "small-" + g : null)));
                }
                queue.addBulk(small);
            }
            if (!done.await(MAX_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new TimeoutException("completed " + completed.get() + " of " + total + " jobs in " + MAX_WAIT);
            }
        } finally {
            worker.close();
            queue.obliterate(true);
        }
        return new TreeMap<>(lastFinish);
    }

    @Override
    public void addOneAtATime(String queueName, int jobs, int groups) {
        Queue<Payload> queue = queue(queueName);
        for (int i = 0; i < jobs; i++) {
            queue.add("noop", new Payload(i), options(groups == 0 ? null : "g-" + (i % groups)));
        }
    }

    @Override
    public void process(String queueName, int jobs, int concurrency) throws Exception {
        AtomicInteger completed = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(1);
        Worker<Payload, Object> worker = Worker.builder(redisson, queueName, Payload.class)
                .processor(ctx -> null)
                .concurrency(concurrency)
                .listener(new WorkerListener<>() {
                    @Override
                    public void onCompleted(Job<Payload> job, Object result) {
                        if (completed.incrementAndGet() == jobs) {
                            done.countDown();
                        }
                    }
                })
                .build()
                .start();
        try {
            if (!done.await(MAX_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new TimeoutException("completed " + completed.get() + " of " + jobs + " jobs in " + MAX_WAIT);
            }
        } finally {
            worker.close();
        }
    }

    private static JobOptions options(String group) {
        return group == null ? JobOptions.defaults() : JobOptions.builder().group(group).build();
    }

    private Queue<Payload> queue(String name) {
        return Queue.builder(redisson, name, Payload.class).build();
    }

    /** A worker whose processor is {@code onStart}; it returns null. */
    private Worker<Payload, Object> worker(Queue<Payload> queue, int concurrency, JobProcessor<Payload, Object> onStart) {
        return Worker.builder(redisson, queue.name(), Payload.class)
                .processor(onStart)
                .concurrency(concurrency)
                .build()
                .start();
    }

    private static long take(BlockingQueue<Long> starts, String what) throws InterruptedException, TimeoutException {
        Long t = starts.poll(10, TimeUnit.SECONDS);
        if (t == null) {
            throw new TimeoutException(what + " did not start within 10 s");
        }
        return t;
    }
}
