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
 * Scenario 5: the redis-server process is frozen with SIGSTOP for longer than the workers'
 * lockDuration (1 s), then resumed with SIGCONT, several times during a steady run. Every lock
 * held during a pause has expired when Redis goes on; the jobs are recovered and run again. No
 * acknowledged job may be lost and no job may end in two states: each job is in exactly one of
 * completed / failed, with one matching event and no other, and at most one worker reported it
 * finished. Pauses alternate between 2.5 s (under Redisson's 3 s response timeout: the blocked
 * calls complete late) and 4 s (over it: the calls time out while Redis will still run them).
 */
@Tag("chaos")
class RedisPauseChaosTest extends ChaosRedisTest {
    private static final Logger log = LoggerFactory.getLogger(RedisPauseChaosTest.class);
    private static final Duration LOCK = Duration.ofSeconds(1);
    private static final long[] PAUSES_MS = {2_500, 4_000};

    @Test
    void pausingRedisLongerThanTheLockRecoversJobsAndNoJobEndsTwice() throws Exception {
        int jobs = ChaosSupport.pick(1_500, 6_000);
        int pauses = ChaosSupport.pick(2, 6);
        Duration produceOver = Duration.ofSeconds(ChaosSupport.pick(15, 50));
        String name = ChaosSupport.queueName("pause");
        RedissonClient producerClient = redis.newClient();
        Queue<Long> queue = ChaosSupport.queue(producerClient, name);
        ChaosLedger ledger = new ChaosLedger();
        List<Worker<Long, String>> workers = new ArrayList<>();
        List<String> rounds = new ArrayList<>();
        long worstResume = 0;
        long pausedTotal = 0;
        long t0 = System.currentTimeMillis();
        try (QueueEvents events = ledger.listen(QueueEvents.builder(redis.newClient(), name).lastEventId("0").build());
                SteadyProducer producer = new SteadyProducer(queue, ledger, jobs)) {
            for (int i = 0; i < 3; i++) {
                workers.add(ChaosSupport.worker(redis.newClient(), name, "w" + i, ledger, LOCK, 4, 20, 200, 3).start());
            }
            producer.start(produceOver);
            for (int p = 1; p <= pauses; p++) {
                long threshold = (long) jobs * p / (pauses + 1);
                await("producer reaches " + threshold).atMost(produceOver.multipliedBy(3))
                        .pollInterval(Duration.ofMillis(10)).until(() -> producer.acked() >= threshold);
                long pauseMs = PAUSES_MS[(p - 1) % PAUSES_MS.length];
                int inFlight = workers.stream().mapToInt(Worker::activeCount).sum();
                redis.freeze();
                long frozenAt = System.currentTimeMillis();
                TimeUnit.MILLISECONDS.sleep(pauseMs); // the fault: Redis is frozen this long
                redis.thaw();
                long thawedAt = System.currentTimeMillis();
                pausedTotal += thawedAt - frozenAt;
                await("a job completes after pause " + p).atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(5)).until(() -> ledger.firstCompletionAtOrAfter(thawedAt) > 0);
                long resume = ledger.firstCompletionAtOrAfter(thawedAt) - thawedAt;
                worstResume = Math.max(worstResume, resume);
                String line = String.format("pause %d: SIGSTOP for %d ms with %d jobs in flight (lockDuration %d ms); "
                        + "first job completed %d ms after SIGCONT", p, thawedAt - frozenAt, inFlight, LOCK.toMillis(),
                        resume);
                rounds.add(line);
                log.info(line);
            }
            long runMillis = ChaosSupport.settle(queue, producer, ledger, events, workers, t0, LOCK, 0);

            ChaosLedger.Tally t = ledger.tally(producerClient, name);
            ledger.checkEvents(t);
            log.info("CHAOS scenario 5 (SIGSTOP of redis-server longer than lockDuration, {}): jobs {} acknowledged "
                            + "({} adds failed, {} jobs in Redis), faults {} pauses ({} ms frozen in all), lost {}, "
                            + "duplicated {} (histogram {}), time to resume worst {} ms; completed {}, failed {}, "
                            + "stalled {} (recoveries reported by workers {}), lock lost {}, worker errors {}, "
                            + "completed events {}, failed events {}, completed without an onCompleted callback {}, run {} ms",
                    ChaosSupport.size(), t.acked, t.addFailures, t.inRedis, pauses, pausedTotal, t.lost(), t.duplicated,
                    ChaosLedger.Tally.histogram(ledger.starts), worstResume, t.completed, t.failed, t.stalledInRedis,
                    ledger.stalled.sum(), ledger.lockLost.sum(), ledger.workerErrors.sum(), t.completedEvents,
                    t.failedEvents, t.completedWithoutCallback, runMillis);

            QueueInvariant.assertHolds(t.snapshot);
            assertThat(t.lostIds).as("lost jobs (acknowledged, never completed or failed): %s", t.lostSample()).isEmpty();
            assertThat(t.acked).isEqualTo(jobs);
            assertThat(t.problems).as("jobs in two states or with inconsistent events/callbacks").isEmpty();
            assertThat(t.stalledInRedis).as("jobs recovered after their locks expired during a pause").isPositive();
        } finally {
            for (Worker<Long, String> w : workers) {
                w.close(Duration.ZERO);
            }
        }
    }
}
