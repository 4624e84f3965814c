package io.bullpen.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Queue;
import io.bullpen.QueueEvents;
import io.bullpen.testing.QueueInvariant;
import io.bullpen.worker.Worker;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scenario 3: every client connection is killed (CLIENT KILL TYPE normal) every 500 ms for 10 s
 * while a producer adds jobs and three workers (each with its own Redisson client) process them.
 * No acknowledged job may be lost; duplicates are counted and printed.
 */
@Tag("chaos")
class ClientKillChaosTest extends ChaosRedisTest {
    private static final Logger log = LoggerFactory.getLogger(ClientKillChaosTest.class);
    private static final Duration LOCK = Duration.ofSeconds(2);
    private static final long KILL_EVERY_MS = 500;
    private static final long KILL_FOR_MS = 10_000;

    @Test
    void killingEveryConnectionEvery500msLosesNoJob() throws Exception {
        int jobs = ChaosSupport.pick(2_000, 6_000);
        Duration produceOver = Duration.ofMillis(KILL_FOR_MS + 2_000);
        String name = ChaosSupport.queueName("clientkill");
        RedissonClient producerClient = redis.newClient();
        Queue<Long> queue = ChaosSupport.queue(producerClient, name);
        ChaosLedger ledger = new ChaosLedger();
        List<Worker<Long, String>> workers = new ArrayList<>();
        ScheduledExecutorService killer = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "chaos-killer"));
        AtomicInteger rounds = new AtomicInteger();
        LongAdder connectionsKilled = new LongAdder();
        AtomicLong lastKillAt = new AtomicLong();
        long t0 = System.currentTimeMillis();
        try (QueueEvents events = ledger.listen(QueueEvents.builder(redis.newClient(), name).lastEventId("0").build());
                SteadyProducer producer = new SteadyProducer(queue, ledger, jobs)) {
            for (int i = 0; i < 3; i++) {
                workers.add(ChaosSupport.worker(redis.newClient(), name, "w" + i, ledger, LOCK, 4, 2, 20, 3).start());
            }
            producer.start(produceOver);
            await("first jobs completed").atMost(Duration.ofSeconds(10)).until(() -> ledger.completionCount() > 20);
            long killUntil = System.currentTimeMillis() + KILL_FOR_MS;
            killer.scheduleAtFixedRate(() -> {
                if (System.currentTimeMillis() > killUntil) {
                    killer.shutdown();
                    return;
                }
                try {
                    // SKIPME yes (the default): this raw connection survives its own command.
                    connectionsKilled.add(Long.parseLong(redis.call("CLIENT", "KILL", "TYPE", "normal")));
                    lastKillAt.set(System.currentTimeMillis());
                    rounds.incrementAndGet();
                } catch (IOException | RuntimeException e) {
                    log.warn("CLIENT KILL failed: {}", e.toString());
                }
            }, 0, KILL_EVERY_MS, TimeUnit.MILLISECONDS);
            assertThat(killer.awaitTermination(KILL_FOR_MS + 10_000, TimeUnit.MILLISECONDS)).isTrue();
            long afterLastKill = lastKillAt.get();
            await("a job completes after the last kill").atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(5)).until(() -> ledger.firstCompletionAtOrAfter(afterLastKill) > 0);
            long resumeMs = ledger.firstCompletionAtOrAfter(afterLastKill) - afterLastKill;

            long runMillis = ChaosSupport.settle(queue, producer, ledger, events, workers, t0, LOCK, 0);

            ChaosLedger.Tally t = ledger.tally(producerClient, name);
            ledger.checkEvents(t);
            log.info("CHAOS scenario 3 (CLIENT KILL TYPE normal every {} ms for {} ms, {}): jobs {} acknowledged ({} adds "
                            + "failed, {} jobs in Redis), faults {} kill rounds ({} connections killed), lost {}, "
                            + "duplicated {} (histogram {}), time to resume after the last kill {} ms; completed {}, failed {}, "
                            + "stalled {}, lock lost {}, worker errors {}, completed without an onCompleted callback {}, run {} ms",
                    KILL_EVERY_MS, KILL_FOR_MS, ChaosSupport.size(), t.acked, t.addFailures, t.inRedis, rounds.get(),
                    connectionsKilled.sum(), t.lost(), t.duplicated, ChaosLedger.Tally.histogram(ledger.starts), resumeMs,
                    t.completed, t.failed, t.stalledInRedis, ledger.lockLost.sum(), ledger.workerErrors.sum(),
                    t.completedWithoutCallback, runMillis);

            QueueInvariant.assertHolds(t.snapshot);
            assertThat(t.lostIds).as("lost jobs (acknowledged, never completed or failed): %s", t.lostSample()).isEmpty();
            assertThat(t.acked).isEqualTo(jobs);
            assertThat(t.problems).as("jobs in contradictory states or with inconsistent events").isEmpty();
            assertThat(rounds.get()).isGreaterThanOrEqualTo((int) (KILL_FOR_MS / KILL_EVERY_MS) - 1);
        } finally {
            killer.shutdownNow();
            for (Worker<Long, String> w : workers) {
                w.close(Duration.ZERO);
            }
        }
    }
}
