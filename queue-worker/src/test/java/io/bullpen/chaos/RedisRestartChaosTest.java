package io.bullpen.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Queue;
import io.bullpen.QueueEvents;
import io.bullpen.testing.QueueInvariant;
import io.bullpen.worker.Worker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scenario 2: redis-server (appendonly yes, appendfsync always) is killed with SIGKILL twice
 * during a steady run and started again on the same port from the same data directory. Workers
 * and a QueueEvents listener must resume by themselves within 5 s, and every add Redis had
 * acknowledged must survive the crash and be processed.
 */
@Tag("chaos")
class RedisRestartChaosTest extends ChaosRedisTest {
    private static final Logger log = LoggerFactory.getLogger(RedisRestartChaosTest.class);
    private static final Duration LOCK = Duration.ofSeconds(2);
    private static final Duration RESUME_LIMIT = Duration.ofSeconds(5);
    /** How long the server stays down before it is started again. */
    private static final long DOWN_MILLIS = 1_000;
    private static final int GROUPS = 4;
    private static final int GROUP_CONCURRENCY = 2;

    @Test
    void workersAndEventsResumeAfterRedisCrashesAndNoAcknowledgedJobIsLost() throws Exception {
        crashAndRestart(0);
    }

    /**
     * The same under a global concurrency and group limits (jobs spread over 4 groups, default
     * group concurrency 2): live leases (sampled every 10 ms) never exceed either.
     */
    @Test
    void restartsUnderAGlobalConcurrencyAndGroupLimitsNeverExceedThemAndLoseNoJob() throws Exception {
        crashAndRestart(5);
    }

    private void crashAndRestart(int globalConcurrency) throws Exception {
        int jobs = ChaosSupport.pick(2_000, 10_000);
        Duration produceOver = Duration.ofSeconds(ChaosSupport.pick(15, 45));
        String name = ChaosSupport.queueName("restart");
        RedissonClient producerClient = redis.newClient();
        Queue<Long> queue = ChaosSupport.queue(producerClient, name);
        ChaosLedger ledger = new ChaosLedger();
        List<Worker<Long, String>> workers = new ArrayList<>();
        List<String> resumes = new ArrayList<>();
        long worstWorkerResume = 0;
        long worstEventsResume = 0;
        long t0 = System.currentTimeMillis();
        LiveLeaseSampler sampler = globalConcurrency > 0
                ? LiveLeaseSampler.start(producerClient, name, () -> {
                    queue.setGlobalConcurrency(globalConcurrency);
                    queue.setDefaultGroupConcurrency(GROUP_CONCURRENCY);
                }) : null;
        try (QueueEvents events = ledger.listen(QueueEvents.builder(redis.newClient(), name).lastEventId("0").build());
                SteadyProducer producer = new SteadyProducer(queue, ledger, jobs, globalConcurrency > 0 ? GROUPS : 0)) {
            for (int i = 0; i < 2; i++) {
                workers.add(ChaosSupport.worker(redis.newClient(), name, "w" + i, ledger, LOCK, 4, 2, 20, 3).start());
            }
            producer.start(produceOver);
            for (int round = 1; round <= 2; round++) {
                long threshold = jobs * round / 3L;
                await("producer reaches " + threshold).atMost(produceOver.multipliedBy(2))
                        .pollInterval(Duration.ofMillis(10)).until(() -> producer.acked() >= threshold);
                long ackedBefore = producer.acked();
                redis.crash();
                long downAt = System.currentTimeMillis();
                TimeUnit.MILLISECONDS.sleep(DOWN_MILLIS); // the fault: Redis stays down this long
                redis.restart();
                long backAt = System.currentTimeMillis();
                await("a job completes after restart " + round).atMost(RESUME_LIMIT.multipliedBy(4))
                        .pollInterval(Duration.ofMillis(5)).until(() -> ledger.firstCompletionAtOrAfter(backAt) > 0);
                await("an event arrives after restart " + round).atMost(RESUME_LIMIT.multipliedBy(4))
                        .pollInterval(Duration.ofMillis(5)).until(() -> ledger.firstEventAtOrAfter(backAt) > 0);
                long workerResume = ledger.firstCompletionAtOrAfter(backAt) - backAt;
                long eventsResume = ledger.firstEventAtOrAfter(backAt) - backAt;
                worstWorkerResume = Math.max(worstWorkerResume, workerResume);
                worstEventsResume = Math.max(worstEventsResume, eventsResume);
                String line = String.format("restart %d: down %d ms (SIGKILL at %d of %d acks), AOF reloaded; first job "
                                + "completed %d ms and first event received %d ms after Redis was back",
                        round, backAt - downAt, ackedBefore, jobs, workerResume, eventsResume);
                resumes.add(line);
                log.info(line);
            }
            long runMillis = ChaosSupport.settle(queue, producer, ledger, events, workers, t0, LOCK, globalConcurrency > 0 ? GROUPS : 0);

            ChaosLedger.Tally t = ledger.tally(producerClient, name);
            ledger.checkEvents(t);
            log.info("CHAOS scenario 2 (redis-server SIGKILL + restart, appendfsync always, {}): jobs {} acknowledged "
                            + "({} adds failed while Redis was down, {} jobs in Redis), faults 2 restarts, lost {}, "
                            + "duplicated {} (histogram {}), time to resume worst: workers {} ms, QueueEvents {} ms; "
                            + "completed {}, failed {}, stalled {}, lock lost {}, completed events {}, completed without an onCompleted callback {}, run {} ms",
                    ChaosSupport.size(), t.acked, t.addFailures, t.inRedis, t.lost(), t.duplicated,
                    ChaosLedger.Tally.histogram(ledger.starts), worstWorkerResume, worstEventsResume, t.completed,
                    t.failed, t.stalledInRedis, ledger.lockLost.sum(), t.completedEvents,
                    t.completedWithoutCallback, runMillis);

            QueueInvariant.assertHolds(t.snapshot);
            assertThat(t.lostIds).as("lost jobs (acknowledged, never completed or failed): %s", t.lostSample()).isEmpty();
            assertThat(t.acked).isEqualTo(jobs);
            assertThat(t.problems).as("jobs in contradictory states or with inconsistent events").isEmpty();
            assertThat(worstWorkerResume).as("workers resume within 5 s: %s", resumes)
                    .isLessThanOrEqualTo(RESUME_LIMIT.toMillis());
            assertThat(worstEventsResume).as("QueueEvents resumes within 5 s: %s", resumes)
                    .isLessThanOrEqualTo(RESUME_LIMIT.toMillis());
            if (sampler != null) {
                log.info("global concurrency {}: at most {} live leases in {} samples", globalConcurrency,
                        sampler.max(), sampler.samples());
                assertThat(sampler.max()).as("live leases sampled every 10 ms").isLessThanOrEqualTo(globalConcurrency);
                assertThat(sampler.samples()).isGreaterThan(100);
                log.info("default group concurrency {}: at most {} live leases of one group", GROUP_CONCURRENCY,
                        sampler.maxPerGroup());
                assertThat(sampler.maxPerGroup()).as("live leases of one group").isBetween(1L, (long) GROUP_CONCURRENCY);
            }
        } finally {
            if (sampler != null) {
                sampler.close();
            }
            for (Worker<Long, String> w : workers) {
                w.close(Duration.ZERO);
            }
        }
    }
}
