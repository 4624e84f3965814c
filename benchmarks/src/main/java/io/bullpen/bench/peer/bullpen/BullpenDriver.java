package io.bullpen.bench.peer.bullpen;

import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobSpec;
import io.bullpen.Queue;
import io.bullpen.RateLimit;
import io.bullpen.bench.peer.ChildJvm;
import io.bullpen.instrument.Instrumentation;
import io.bullpen.bench.peer.Consumed;
import io.bullpen.bench.peer.DelayedProducerMain;
import io.bullpen.bench.peer.FlowControl;
import io.bullpen.bench.peer.LatencyRun;
import io.bullpen.bench.peer.MixedPass;
import io.bullpen.bench.peer.ParentChildRun;
import io.bullpen.bench.peer.PeerDriver;
import io.bullpen.bench.peer.Spread;
import io.bullpen.bench.peer.Starts;
import io.bullpen.worker.Worker;
import io.bullpen.worker.WorkerListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.redisson.api.RBucket;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * The workloads' operations done with Bullpen's public API: {@code Queue.add}/{@code addBulk}
 * with default options (or a delay), and {@code Worker}s with a no-op processor.
 */
final class BullpenDriver implements PeerDriver {
    private static final Duration MAX_WAIT = Duration.ofMinutes(10);
    private static final JobOptions IN_AN_HOUR = JobOptions.builder().delay(Duration.ofHours(1)).build();

    private final String url;
    private final RedissonClient redisson;
    private final Map<String, Queue<Payload>> queues = new HashMap<>();
    private Worker<Payload, Object> consumer;
    private Consumed consumed;

    private BullpenDriver(String url, RedissonClient redisson) {
        this.url = url;
        this.redisson = redisson;
    }

    /** Connects and warms up: the JIT, the script cache and the pool on the measured paths. */
    static BullpenDriver open(String url, int warmUpJobs) throws Exception {
        BullpenDriver driver = new BullpenDriver(url, BullpenClients.connect(url));
        try {
            driver.prefill("warm", warmUpJobs);
            driver.process("warm", warmUpJobs, 10);
            driver.addOneAtATime("warm", warmUpJobs / 4);
            driver.queue("warm").obliterate(true);
            return driver;
        } catch (Exception | Error e) {
            driver.close();
            throw e;
        }
    }

    @Override
    public long clientPid() {
        return ProcessHandle.current().pid();
    }

    @Override
    public void prefill(String queue, int jobs) {
        addBulk(queue, jobs, 1_000);
    }

    @Override
    public double process(String queue, int jobs, int concurrency) throws Exception {
        AtomicLong first = new AtomicLong();
        AtomicLong last = new AtomicLong();
        AtomicInteger completed = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(1);
        Worker.Builder<Payload, Object> builder = Worker.builder(redisson, queue, Payload.class)
                .processor(ctx -> {
                    first.compareAndSet(0, System.nanoTime());
                    return null;
                })
                .concurrency(concurrency)
                .listener(new WorkerListener<>() {
                    @Override
                    public void onCompleted(Job<Payload> job, Object result) {
                        if (completed.incrementAndGet() == jobs) {
                            last.set(System.nanoTime());
                            done.countDown();
                        }
                    }
                });
        TakeAhead.apply(builder, TakeAhead.fromProperty());
        Worker<Payload, Object> worker = builder.build().start();
        try {
            if (!done.await(MAX_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new TimeoutException("completed " + completed.get() + " of " + jobs + " jobs in " + MAX_WAIT);
            }
        } finally {
            worker.close();
        }
        return (last.get() - first.get()) / 1e9;
    }

    @Override
    public double addOneAtATime(String queue, int jobs) {
        Queue<Payload> q = queue(queue);
        // -Dbench.groups=N puts job i in group "g<i mod N>": the cost of the group path.
        int groups = Integer.getInteger("bench.groups", 0);
        long start = System.nanoTime();
        for (int i = 0; i < jobs; i++) {
            if (groups > 0) {
                q.add("noop", new Payload(i), JobOptions.builder().group("g" + (i % groups)).build());
            } else {
                q.add("noop", new Payload(i));
            }
        }
        return (System.nanoTime() - start) / 1e9;
    }

    @Override
    public double addConcurrently(String queue, int jobs, int producers) throws Exception {
        Queue<Payload> q = queue(queue);
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>(producers);
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        for (int p = 0; p < producers; p++) {
            int from = (int) ((long) jobs * p / producers);
            int to = (int) ((long) jobs * (p + 1) / producers);
            Thread t = new Thread(() -> {
                try {
                    go.await();
                    for (int i = from; i < to; i++) {
                        q.add("noop", new Payload(i));
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "producer-" + p);
            threads.add(t);
            t.start();
        }
        long start = System.nanoTime();
        go.countDown();
        for (Thread t : threads) {
            t.join(MAX_WAIT.toMillis());
        }
        long end = System.nanoTime();
        if (!failures.isEmpty()) {
            throw new IllegalStateException("a producer failed", failures.peek());
        }
        return (end - start) / 1e9;
    }

    @Override
    public double roundTrips(String queue, int calls) {
        // A key of the queue's hash tag that is never written: on a cluster, the adds' node.
        RBucket<String> missing = redisson.getBucket("{bull:" + queue + "}:round-trip", StringCodec.INSTANCE);
        long start = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            if (missing.get() != null) {
                throw new IllegalStateException("the round-trip key exists");
            }
        }
        return (System.nanoTime() - start) / 1e9;
    }

    @Override
    public double addBulk(String queue, int jobs, int chunk) {
        return addInChunks(queue, jobs, chunk, JobOptions.defaults());
    }

    @Override
    public boolean saturateEvents(String queue) {
        addBulk(queue, 12_000, 1_000);
        queue(queue).drain(true);
        return true;
    }

    @Override
    public boolean retainsCompleted() {
        return true;
    }

    @Override
    public void startConsumers(String queue, int concurrency) {
        Consumed record = new Consumed();
        consumed = record;
        consumer = Worker.builder(redisson, queue, Payload.class)
                .processor(ctx -> {
                    Job<Payload> job = ctx.job();
                    record.record(System.currentTimeMillis() - job.timestamp().toEpochMilli() - job.delay().toMillis());
                    return null;
                })
                .concurrency(concurrency)
                .build()
                .start();
    }

    @Override
    public List<Long> awaitConsumed(int total, Duration timeout) throws Exception {
        return consumed.await(total, timeout);
    }

    @Override
    public void stopConsumers() {
        if (consumer != null) {
            consumer.close();
            consumer = null;
        }
    }

    @Override
    public void produceDelayedElsewhere(String queue, int jobs, long leadMs, long spreadMs) throws Exception {
        ChildJvm.run(DelayedProducerMain.class, Duration.ofMinutes(2), "bullpen", url, queue, Integer.toString(jobs),
                Long.toString(leadMs), Long.toString(spreadMs));
    }

    @Override
    public double addFar(String queue, int jobs, int chunk) {
        return addInChunks(queue, jobs, chunk, IN_AN_HOUR);
    }

    @Override
    public void addNear(String queue, int jobs, long leadMs, long spreadMs) {
        BullpenProducer.addDueUniformly(queue(queue), jobs, leadMs, spreadMs);
    }

    @Override
    public Starts processRateLimited(String queue, int jobs, int workers, int concurrency, int max, long perMs)
            throws Exception {
        queue(queue).setRateLimit(RateLimit.of(max, Duration.ofMillis(perMs)));
        ConcurrentLinkedQueue<Long> processedOn = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Long> processor = new ConcurrentLinkedQueue<>();
        AtomicInteger completed = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(1);
        List<Worker<Payload, Object>> running = new ArrayList<>();
        try {
            for (int w = 0; w < workers; w++) {
                running.add(Worker.builder(redisson, queue, Payload.class)
                        .processor(ctx -> {
                            processor.add(System.nanoTime() / 1_000);
                            processedOn.add(ctx.job().processedOn().map(java.time.Instant::toEpochMilli).orElse(-1L));
                            return null;
                        })
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
                        .start());
            }
            if (!done.await(MAX_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new TimeoutException("completed " + completed.get() + " of " + jobs + " jobs in " + MAX_WAIT);
            }
        } finally {
            running.forEach(Worker::close);
            queue(queue).removeRateLimit();
        }
        return new Starts(List.copyOf(processedOn), List.copyOf(processor));
    }

    @Override
    public Spread processSpread(String queue, int jobs, int workers, int concurrency, long jobMillis, Integer takeAhead)
            throws Exception {
        Integer ahead = takeAhead != null ? takeAhead : TakeAhead.fromProperty();
        AtomicLong first = new AtomicLong();
        AtomicLong last = new AtomicLong();
        AtomicInteger completed = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(1);
        List<AtomicInteger> ran = new ArrayList<>();
        List<Worker<Payload, Object>> built = new ArrayList<>();
        try {
            for (int w = 0; w < workers; w++) {
                AtomicInteger mine = new AtomicInteger();
                ran.add(mine);
                Worker.Builder<Payload, Object> builder = Worker.builder(redisson, queue, Payload.class)
                        .processor(ctx -> {
                            first.compareAndSet(0, System.nanoTime());
                            Thread.sleep(jobMillis);
                            return null;
                        })
                        .concurrency(concurrency)
                        .listener(new WorkerListener<>() {
                            @Override
                            public void onCompleted(Job<Payload> job, Object result) {
                                mine.incrementAndGet();
                                if (completed.incrementAndGet() == jobs) {
                                    last.set(System.nanoTime());
                                    done.countDown();
                                }
                            }
                        });
                TakeAhead.apply(builder, ahead);
                built.add(builder.build());
            }
            // Built first, then started back to back: neither worker gets a head start of a build.
            built.forEach(Worker::start);
            if (!done.await(MAX_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new TimeoutException("completed " + completed.get() + " of " + jobs + " jobs in " + MAX_WAIT);
            }
        } finally {
            built.forEach(Worker::close);
        }
        return new Spread(ran.stream().map(AtomicInteger::get).toList(), (last.get() - first.get()) / 1e9);
    }

    @Override
    public ParentChildRun parentChild(String parentQueue, String childQueue, int flows, int children, int concurrency)
            throws Exception {
        return BullpenParentChild.run(redisson, parentQueue, childQueue, flows, children, concurrency);
    }

    @Override
    public MixedPass startMixed(String queue, int producers, int concurrency) {
        return BullpenEndToEnd.startMixed(redisson, queue(queue), producers, concurrency);
    }

    @Override
    public LatencyRun latency(String queue, int rate, int jobs, int concurrency) throws Exception {
        return BullpenEndToEnd.latency(redisson, queue(queue), rate, jobs, concurrency);
    }

    @Override
    public FlowControl flowControl() {
        return new BullpenFlowControl(redisson);
    }

    private double addInChunks(String queue, int jobs, int chunk, JobOptions options) {
        Queue<Payload> q = queue(queue);
        long start = System.nanoTime();
        for (int i = 0; i < jobs; i += chunk) {
            List<JobSpec<Payload>> specs = new ArrayList<>(chunk);
            for (int j = i; j < Math.min(jobs, i + chunk); j++) {
                specs.add(JobSpec.of("noop", new Payload(j), options));
            }
            q.addBulk(specs);
        }
        return (System.nanoTime() - start) / 1e9;
    }

    private Queue<Payload> queue(String name) {
        // -Dbench.instrumented=true gives every queue a no-op Instrumentation: the add path an
        // application with metrics or tracing runs.
        return queues.computeIfAbsent(name, n -> {
            Queue.Builder<Payload> builder = Queue.builder(redisson, n, Payload.class);
            if (Boolean.getBoolean("bench.instrumented")) {
                builder.instrumentation(new Instrumentation() { });
            }
            return builder.build();
        });
    }

    @Override
    public void close() {
        try {
            stopConsumers();
        } finally {
            redisson.shutdown();
        }
    }
}
