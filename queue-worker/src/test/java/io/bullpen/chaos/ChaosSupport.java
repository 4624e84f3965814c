package io.bullpen.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobCounts;
import io.bullpen.Queue;
import io.bullpen.QueueEvents;
import io.bullpen.RateLimitedException;
import io.bullpen.worker.Worker;
import io.bullpen.worker.WorkerListener;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.awaitility.core.ConditionTimeoutException;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Shared pieces of the chaos scenarios: the run size, in-process workers that record to a ledger, draining. */
final class ChaosSupport {
    private static final Logger log = LoggerFactory.getLogger(ChaosSupport.class);

    /** {@code -Dbullpen.chaos.size=full} runs the documented full size; anything else the short CI size. */
    static final String SIZE_PROPERTY = "bullpen.chaos.size";

    private ChaosSupport() {
    }

    static boolean full() {
        return "full".equalsIgnoreCase(System.getProperty(SIZE_PROPERTY, "short"));
    }

    static int pick(int shortSize, int fullSize) {
        return full() ? fullSize : shortSize;
    }

    static String size() {
        return full() ? "full" : "short";
    }

    static String queueName(String scenario) {
        return String.format("chaos-%s-%06x", scenario, ThreadLocalRandom.current().nextInt(1 << 24));
    }

    /** A queue whose events stream keeps the whole run (the ledger's event checks read it live anyway). */
    static Queue<Long> queue(RedissonClient redisson, String name) {
        return Queue.builder(redisson, name, Long.class).eventsMaxLength(1_000_000).build();
    }

    /** An in-process worker whose processor records each start and sleeps {@code jobMin..jobMax} ms. */
    static Worker<Long, String> worker(RedissonClient redisson, String queue, String name, ChaosLedger ledger,
            Duration lock, int concurrency, int jobMin, int jobMax, int maxStalled) {
        return Worker.builder(redisson, queue, Long.class)
                .name(name)
                .concurrency(concurrency)
                .lockDuration(lock)
                .stalledInterval(lock)
                .maxStalledCount(maxStalled)
                .closeTimeout(Duration.ofSeconds(10))
                .processor(ctx -> {
                    int start = ledger.started(ctx.job().id());
                    if (ctx.job().data() <= Trickle.LIMITED_DATA && start == 1) {
                        // A trickle job that hits a rate limit on its first start (see Trickle).
                        throw new RateLimitedException(Trickle.LIMIT);
                    }
                    Thread.sleep(ThreadLocalRandom.current().nextInt(jobMin, jobMax + 1));
                    return "ok";
                })
                .listener(new WorkerListener<>() {
                    @Override
                    public void onCompleted(Job<Long> job, String result) {
                        ledger.completed(job.id());
                    }

                    @Override
                    public void onFailed(Job<Long> job, Throwable error, boolean finalFailure) {
                        if (finalFailure) {
                            ledger.failedFinally(job.id());
                        }
                    }

                    @Override
                    public void onStalled(String jobId) {
                        ledger.stalled.increment();
                    }

                    @Override
                    public void onLockLost(Job<Long> job) {
                        ledger.lockLost.increment();
                    }

                    @Override
                    public void onError(Throwable error) {
                        ledger.workerErrors.increment();
                    }
                })
                .build();
    }

    /** Waits until the producer is done and no job is waiting, delayed, prioritized or active. */
    static void awaitDrained(Queue<Long> queue, SteadyProducer producer, Duration atMost) {
        try {
            await("producer done and queue drained").atMost(atMost).pollInterval(Duration.ofMillis(200))
                    .ignoreExceptions()
                    .until(() -> {
                        if (!producer.done()) {
                            return false;
                        }
                        JobCounts c = queue.getJobCounts();
                        return c.waiting() + c.active() + c.delayed() + c.prioritized() == 0;
                    });
        } catch (ConditionTimeoutException e) {
            // What was left, for the next reader of a failed run.
            log.error("queue {} not drained: producer done {}, counts {}, groups {}", queue.name(), producer.done(),
                    queue.getJobCounts(), queue.getGroups(null, 20));
            try {
                log.error("queue {} state: {}", queue.name(), StateDump.of(ChaosRedisTest.redis.newClient(), queue.name()));
            } catch (RuntimeException d) {
                log.error("could not read the state of queue {}", queue.name(), d);
            }
            throw e;
        }
    }

    /**
     * The common end of a fault scenario: the producer done and the queue drained; the QueueEvents
     * listener caught up (it has seen the last finish once its count matches Redis's); the
     * listener and every worker still running (a fault must not stop them); then the liveness
     * phase on the same workers ({@link Trickle}: every job starts within lock + 1 s of when it
     * may run); the workers closed.
     *
     * @param groups the trickle's jobs go to this many groups (0: none)
     * @return the run's length in ms since {@code t0}, taken before the trickle
     */
    static long settle(Queue<Long> queue, SteadyProducer producer, ChaosLedger ledger, QueueEvents events,
                       List<Worker<Long, String>> workers, long t0, Duration lock, int groups) throws InterruptedException {
        awaitDrained(queue, producer, Duration.ofSeconds(pick(120, 300)));
        await("events caught up").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    JobCounts c = queue.getJobCounts();
                    return ledger.completedEvents.size() + ledger.failedEvents.size() >= c.completed() + c.failed();
                });
        long runMillis = System.currentTimeMillis() - t0;
        assertThat(events.isRunning()).as("the QueueEvents listener is still running").isTrue();
        for (Worker<Long, String> w : workers) {
            assertThat(w.isRunning()).as("worker %s still running", w.name()).isTrue();
        }
        Trickle.run(queue, ledger, lock, groups);
        for (Worker<Long, String> w : workers) {
            w.close(Duration.ofSeconds(10));
        }
        return runMillis;
    }
}
