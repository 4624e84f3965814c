package io.bullpen.worker;

import io.bullpen.JobOptions;
import io.bullpen.RateLimit;
import io.bullpen.RateLimitedException;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Liveness under a trickle for the flow-control wake-up paths: a processor's
 * {@link RateLimitedException} (queue and group), queue and group rate limits, global and group
 * concurrency. A job must start within {@link LivenessFixture#BOUND} of the moment the limits
 * let it: the end of a limit's delay, its next booked start, or a free slot.
 */
@BullpenTest
@Tag("liveness")
class LimitLivenessTest {
    private LivenessFixture f;

    @BeforeEach
    void setUp(BullpenTestContext ctx, TestInfo info) {
        f = new LivenessFixture(ctx, info.getDisplayName());
    }

    @AfterEach
    void tearDown() {
        f.close();
    }

    /**
     * The queue stopped for good: one worker (concurrency 5, the default lock duration), 5 jobs,
     * then one add a second; the 8th processor call throws {@code RateLimitedException(1 s)}.
     * The put-back job and every later one waited until the fetch loop's old wake time (the
     * lease expiry of the job it last took, 30 s on), since nothing woke a worker when the
     * limit ended and adds do not signal while wait holds the put-back job.
     */
    @Test
    void aQuietQueueKeepsRunningAfterAProcessorsRateLimitedException() throws Exception {
        Holds holds = new Holds();
        AtomicInteger calls = new AtomicInteger();
        Worker<String, Object> worker = Worker.builder(f.ctx.redisson(), f.queue.name(), String.class).concurrency(5)
                .processor(c -> {
                    f.ledger.started(c.job().id());
                    if (calls.incrementAndGet() == 8) {
                        long now = System.currentTimeMillis();
                        holds.hold("queue", now, now + 1_000);
                        f.ledger.ready(c.job().id(), "limited", now);
                        throw new RateLimitedException(Duration.ofSeconds(1));
                    }
                    return null;
                }).build();
        f.workers().add(worker);
        worker.start();
        for (int i = 0; i < 5; i++) {
            f.add("burst" + i);
        }
        for (int i = 0; i < 8; i++) {
            Trickle.pause(1_000);
            f.add("j" + i);
        }
        f.ledger.awaitAllStarted(Duration.ofSeconds(40));
        f.ledger.assertStartedWithin(LivenessFixture.BOUND, s -> holds.runnableAt("queue", s.readyAt()));
    }

    @Test
    void rateLimitedExceptionsHoldTheQueueOnlyForTheirDelay() throws Exception {
        Holds holds = new Holds();
        Random r = f.trickle.random();
        Set<String> threw = ConcurrentHashMap.newKeySet();
        f.startTwo(c -> {
            if (r.nextInt(5) == 0 && threw.add(c.job().id())) {
                long now = System.currentTimeMillis();
                long delay = 200 + r.nextInt(1_300);
                holds.hold("queue", now, now + delay);
                f.ledger.ready(c.job().id(), "limited", now);
                throw new RateLimitedException(Duration.ofMillis(delay));
            }
            return null;
        });
        f.trickle.run(n -> f.add("j" + n));
        f.ledger.awaitAllStarted(Duration.ofSeconds(30));
        f.ledger.assertStartedWithin(LivenessFixture.BOUND, s -> holds.runnableAt("queue", s.readyAt()));
    }

    @Test
    void groupRateLimitedExceptionsHoldTheirGroupOnlyForTheirDelay() throws Exception {
        Holds holds = new Holds();
        Random r = f.trickle.random();
        Set<String> threw = ConcurrentHashMap.newKeySet();
        Map<String, String> groupOf = new ConcurrentHashMap<>();
        f.startTwo(c -> {
            if (r.nextInt(4) == 0 && threw.add(c.job().id())) {
                long now = System.currentTimeMillis();
                long delay = 200 + r.nextInt(1_300);
                holds.hold(groupOf.get(c.job().id()), now, now + delay);
                f.ledger.ready(c.job().id(), "group limited", now);
                throw RateLimitedException.group(Duration.ofMillis(delay));
            }
            return null;
        });
        f.trickle.run(n -> {
            String group = "g" + r.nextInt(3);
            groupOf.put("j" + n, group);
            f.add("j" + n, "add", JobOptions.builder().group(group), Duration.ZERO);
        });
        f.ledger.awaitAllStarted(Duration.ofSeconds(30));
        f.ledger.assertStartedWithin(LivenessFixture.BOUND, s -> holds.runnableAt(groupOf.get(s.job()), s.readyAt()));
    }

    @Test
    void aQueueRateLimitStartsEachJobAtItsTurn() throws Exception {
        f.queue.setRateLimit(RateLimit.of(4, Duration.ofSeconds(1)));
        f.startTwo(c -> null);
        f.trickle.run(n -> f.add("j" + n));
        f.ledger.awaitAllStarted(Duration.ofSeconds(30));
        Map<String, Long> turn = turns(f.ledger.starts(), s -> "queue", 250);
        f.ledger.assertStartedWithin(LivenessFixture.BOUND, s -> turn.get(key(s)));
    }

    @Test
    void aGroupRateLimitStartsEachJobAtItsGroupsTurn() throws Exception {
        Random r = f.trickle.random();
        Map<String, String> groupOf = new ConcurrentHashMap<>();
        f.queue.setDefaultGroupRateLimit(RateLimit.of(2, Duration.ofSeconds(1)));
        f.startTwo(c -> null);
        f.trickle.run(n -> {
            String group = "g" + r.nextInt(3);
            groupOf.put("j" + n, group);
            f.add("j" + n, "add", JobOptions.builder().group(group), Duration.ZERO);
        });
        f.ledger.awaitAllStarted(Duration.ofSeconds(30));
        Map<String, Long> turn = turns(f.ledger.starts(), s -> groupOf.get(s.job()), 500);
        f.ledger.assertStartedWithin(LivenessFixture.BOUND, s -> turn.get(key(s)));
    }

    @Test
    void aGlobalConcurrencyStartsAJobWhenASlotFrees() throws Exception {
        f.queue.setGlobalConcurrency(2);
        Running running = new Running();
        Random r = f.trickle.random();
        f.startTwo(c -> running.run("queue", c.job().id(), 100 + r.nextInt(300)));
        f.trickle.run(n -> f.add("j" + n));
        f.ledger.awaitAllStarted(Duration.ofSeconds(60));
        f.ledger.assertStartedWithin(LivenessFixture.BOUND, s -> running.freeSince("queue", s, 2));
    }

    @Test
    void aGroupConcurrencyStartsAGroupsJobWhenItsSlotFrees() throws Exception {
        f.queue.setDefaultGroupConcurrency(1);
        Running running = new Running();
        Random r = f.trickle.random();
        Map<String, String> groupOf = new ConcurrentHashMap<>();
        f.startTwo(c -> running.run(groupOf.get(c.job().id()), c.job().id(), 100 + r.nextInt(300)));
        f.trickle.run(n -> {
            String group = "g" + r.nextInt(3);
            groupOf.put("j" + n, group);
            f.add("j" + n, "add", JobOptions.builder().group(group), Duration.ZERO);
        });
        f.ledger.awaitAllStarted(Duration.ofSeconds(60));
        f.ledger.assertStartedWithin(LivenessFixture.BOUND, s -> running.freeSince(groupOf.get(s.job()), s, 1));
    }

    private static String key(StartLedger.Start s) {
        return s.job() + "#" + s.seq();
    }

    /**
     * Each start's turn under a rate limit of one start per {@code intervalMs} per scope: when it
     * was ready, or the scope's previous start plus the interval, whichever is later.
     */
    private static Map<String, Long> turns(List<StartLedger.Start> starts, java.util.function.Function<StartLedger.Start, String> scope,
                                           long intervalMs) {
        Map<String, Long> turn = new HashMap<>();
        Map<String, Long> previous = new HashMap<>();
        starts.stream().sorted(Comparator.comparingLong(StartLedger.Start::startedAt)).forEach(s -> {
            String sc = scope.apply(s);
            Long prev = previous.get(sc);
            turn.put(key(s), prev == null ? s.readyAt() : Math.max(s.readyAt(), prev + intervalMs));
            previous.put(sc, s.startedAt());
        });
        return turn;
    }

    /** What ran when, per scope (the queue or a group), to tell a job waiting for a slot from one left waiting. */
    static final class Running {
        private record Run(String scope, String job, long from, long to) {
        }

        private final List<Run> runs = new CopyOnWriteArrayList<>();

        Object run(String scope, String job, long millis) throws InterruptedException {
            long from = System.currentTimeMillis();
            LivenessFixture.work(millis);
            // The lease goes a moment after the processor returns: the finish's round trip.
            runs.add(new Run(scope, job, from - 60, System.currentTimeMillis() + 60));
            return null;
        }

        /**
         * @return the moment since which {@code s}'s scope had a free slot (fewer than
         *     {@code slots} other jobs running) without a break until {@code s} started, or when
         *     it was ready if later
         */
        long freeSince(String scope, StartLedger.Start s, int slots) {
            long t = s.startedAt();
            while (t > s.readyAt()) {
                long at = t;
                long busy = runs.stream().filter(r -> r.scope.equals(scope) && !r.job.equals(s.job())
                        && r.from <= at && at < r.to).count();
                if (busy >= slots) {
                    return t;
                }
                t -= 10;
            }
            return s.readyAt();
        }
    }
}
