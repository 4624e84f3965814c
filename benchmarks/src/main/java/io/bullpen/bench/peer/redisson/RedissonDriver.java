package io.bullpen.bench.peer.redisson;

import io.bullpen.bench.peer.ChildJvm;
import io.bullpen.bench.peer.Consumed;
import io.bullpen.bench.peer.DelayedProducerMain;
import io.bullpen.bench.peer.PeerDriver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.redisson.api.RBlockingQueue;
import org.redisson.api.RDelayedQueue;
import org.redisson.api.RFuture;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * The workloads' operations with Redisson: RPUSH by {@code add}/{@code addAll}, consumers that
 * are threads looping on BLPOP ({@code poll(1 s)}), delayed messages through RDelayedQueue (no
 * bulk call: offers are pipelined instead, {@code chunk} in flight).
 */
@SuppressWarnings("deprecation") // RDelayedQueue: deprecated in Redisson 4, and the peer measured here
final class RedissonDriver implements PeerDriver {
    private static final Duration MAX_WAIT = Duration.ofMinutes(10);

    private final String url;
    private final RedissonClient redisson;
    private final List<RDelayedQueue<String>> delayedQueues = new ArrayList<>();
    private PollingConsumers consumers;
    private Consumed consumed;

    private RedissonDriver(String url, RedissonClient redisson) {
        this.url = url;
        this.redisson = redisson;
    }

    static RedissonDriver open(String url, int warmUpJobs) throws Exception {
        RedissonDriver driver = new RedissonDriver(url, RedissonClients.connect(url));
        try {
            driver.prefill("warm", warmUpJobs);
            driver.process("warm", warmUpJobs, 10);
            driver.addOneAtATime("warm", warmUpJobs / 4);
            driver.queue("warm").delete();
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
        AtomicInteger taken = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(1);
        PollingConsumers workers = PollingConsumers.start(queue(queue), concurrency, message -> {
            first.compareAndSet(0, System.nanoTime());
            if (taken.incrementAndGet() == jobs) {
                last.set(System.nanoTime());
                done.countDown();
            }
        });
        try {
            if (!done.await(MAX_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new TimeoutException("took " + taken.get() + " of " + jobs + " messages in " + MAX_WAIT);
            }
        } finally {
            workers.stop();
        }
        return (last.get() - first.get()) / 1e9;
    }

    @Override
    public double addOneAtATime(String queue, int jobs) {
        RBlockingQueue<String> q = queue(queue);
        long now = System.currentTimeMillis();
        long start = System.nanoTime();
        for (int i = 0; i < jobs; i++) {
            q.add(RedissonClients.message(i, now));
        }
        return (System.nanoTime() - start) / 1e9;
    }

    @Override
    public double addBulk(String queue, int jobs, int chunk) {
        RBlockingQueue<String> q = queue(queue);
        long now = System.currentTimeMillis();
        long start = System.nanoTime();
        for (int i = 0; i < jobs; i += chunk) {
            List<String> messages = new ArrayList<>(chunk);
            for (int j = i; j < Math.min(jobs, i + chunk); j++) {
                messages.add(RedissonClients.message(j, now));
            }
            q.addAll(messages);
        }
        return (System.nanoTime() - start) / 1e9;
    }

    @Override
    public boolean saturateEvents(String queue) {
        return false;
    }

    @Override
    public boolean retainsCompleted() {
        return false;
    }

    @Override
    public void startConsumers(String queue, int concurrency) {
        // The delayed queue's transfer task (due messages -> the list) runs in every process
        // that holds the RDelayedQueue; the consumer is one of them.
        delayedQueues.add(RedissonProducer.delayedQueue(redisson, queue));
        Consumed record = new Consumed();
        consumed = record;
        consumers = PollingConsumers.start(queue(queue), concurrency,
                message -> record.record(System.currentTimeMillis() - RedissonClients.due(message)));
    }

    @Override
    public List<Long> awaitConsumed(int total, Duration timeout) throws Exception {
        return consumed.await(total, timeout);
    }

    /**
     * Nothing due left in the RDelayedQueue's timeout set and nothing left in the list. (Seen at a
     * million delayed messages: while the transfer script blocked Redis for about 2 s a call,
     * consumers in BLPOP lost replies and then hung, so fewer messages were counted than taken.)
     */
    @Override
    public boolean allDueTaken(String queue) {
        long due = redisson.getScoredSortedSet("redisson_delay_queue_timeout:{" + queue + "}", StringCodec.INSTANCE)
                .count(Double.NEGATIVE_INFINITY, true, System.currentTimeMillis(), true);
        return due == 0 && queue(queue).isEmpty();
    }

    @Override
    public void stopConsumers() throws InterruptedException {
        if (consumers != null) {
            consumers.stop();
            consumers = null;
        }
    }

    @Override
    public void produceDelayedElsewhere(String queue, int jobs, long leadMs, long spreadMs) throws Exception {
        ChildJvm.run(DelayedProducerMain.class, Duration.ofMinutes(2), "redisson", url, queue, Integer.toString(jobs),
                Long.toString(leadMs), Long.toString(spreadMs));
    }

    @Override
    public double addFar(String queue, int jobs, int chunk) {
        RDelayedQueue<String> delayed = delayed(queue);
        long due = System.currentTimeMillis() + TimeUnit.HOURS.toMillis(1);
        long start = System.nanoTime();
        List<RFuture<Void>> pending = new ArrayList<>(chunk);
        for (int i = 0; i < jobs; i++) {
            pending.add(delayed.offerAsync(RedissonClients.message(i, due), 1, TimeUnit.HOURS));
            if (pending.size() == chunk || i == jobs - 1) {
                pending.forEach(f -> f.toCompletableFuture().join());
                pending.clear();
            }
        }
        return (System.nanoTime() - start) / 1e9;
    }

    @Override
    public void addNear(String queue, int jobs, long leadMs, long spreadMs) {
        RedissonProducer.offerDueUniformly(delayed(queue), jobs, leadMs, spreadMs);
    }

    private RDelayedQueue<String> delayed(String queue) {
        RDelayedQueue<String> delayed = RedissonProducer.delayedQueue(redisson, queue);
        delayedQueues.add(delayed);
        return delayed;
    }

    private RBlockingQueue<String> queue(String name) {
        return redisson.getBlockingQueue(name, StringCodec.INSTANCE);
    }

    @Override
    public void close() {
        try {
            stopConsumers();
            delayedQueues.forEach(RDelayedQueue::destroy);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            redisson.shutdown();
        }
    }
}
