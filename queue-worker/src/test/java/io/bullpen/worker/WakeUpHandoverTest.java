package io.bullpen.worker;

import static org.awaitility.Awaitility.await;

import io.bullpen.JobOptions;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * A wake-up one worker took, or a wake time only one worker knew, is not lost with that worker's
 * attention: a worker that cannot take the job (its slots all busy, paused, closing) hands the
 * look to the others. Idle workers here know only of a job due in an hour (see
 * {@link LivenessFixture}), so they look at the queue by themselves only once a minute: each job
 * must start within {@link LivenessFixture#BOUND} all the same.
 */
@BullpenTest
@Tag("liveness")
class WakeUpHandoverTest {
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
     * A learns the delayed job's due time first, so its blocking wait is older than B's; at the
     * due time A takes the job (B's clock runs behind) and is busy with it, its wait still out.
     * Redis gives the next add's signal to the older wait, A's: B, idle, never heard of the job,
     * which waited for A's slot.
     */
    @Test
    void aSignalTakenByAWorkerWithNoFreeSlotIsHandedToAnIdleOne() {
        f.start(f.worker(c -> {
            if (c.job().id().equals("long")) {
                LivenessFixture.work(4_000);
            }
            return null;
        }).concurrency(1).takeAhead(0));
        Trickle.pause(200);
        f.add("long", "delayed", JobOptions.builder(), Duration.ofMillis(1_500));
        Trickle.pause(300);
        f.start(f.worker(c -> null).concurrency(1).takeAhead(0).clock(Clock.offset(Clock.systemUTC(), Duration.ofMillis(-400))));
        Trickle.pause(1_800);
        f.add("next");
        f.assertLive();
    }

    /**
     * A learns when the delayed job is due, then fills its only slot with a long job (an add
     * whose signal its older blocking wait took) before that time. B, idle, never heard of the
     * delayed job: it waited for A's slot.
     */
    @Test
    void aWorkerThatFillsItsSlotsHandsOverTheWakeTimeItKnew() {
        f.start(f.worker(c -> {
            if (c.job().id().equals("long")) {
                LivenessFixture.work(4_000);
            }
            return null;
        }).concurrency(1).takeAhead(0));
        Trickle.pause(200);
        f.start(f.worker(c -> null).concurrency(1).takeAhead(0));
        Trickle.pause(300);
        // A's wait is the older: A learns the due time, then waits again (B's wait is older now).
        f.add("due", "delayed", JobOptions.builder(), Duration.ofMillis(6_000));
        // B's wait times out (5 s) and B waits again: A's is the older one now.
        Trickle.pause(4_900);
        f.add("long");
        f.assertLive();
    }

    /** A learned when the delayed job is due, then paused: B never heard of it. */
    @Test
    void aPausedWorkerHandsItsWakeTimeToTheOthers() {
        Worker<String, Object> a = f.start(f.worker(c -> null));
        Trickle.pause(200);
        f.start(f.worker(c -> null));
        Trickle.pause(200);
        f.add("due", "delayed", JobOptions.builder(), Duration.ofMillis(1_500));
        Trickle.pause(300);
        a.pause();
        f.assertLive();
    }

    /** A learned when the delayed job is due, then closed: B never heard of it. */
    @Test
    void aClosingWorkerHandsItsWakeTimeToTheOthers() {
        Worker<String, Object> a = f.start(f.worker(c -> null));
        Trickle.pause(200);
        f.start(f.worker(c -> null));
        Trickle.pause(200);
        f.add("due", "delayed", JobOptions.builder(), Duration.ofMillis(1_500));
        Trickle.pause(300);
        a.close();
        f.assertLive();
    }

    /**
     * A takes a job and dies on a quiet queue. B looked at the queue before A took the job, so
     * nothing told it of the lease: it must still start the job when the lease expires, not a
     * stalled interval or a minute later.
     */
    @Test
    void aJobOfAWorkerThatDiesOnAQuietQueueStartsWhenItsLeaseExpires() {
        f.ledger.allowRestarts();
        Map<String, Worker<String, Object>> holder = new ConcurrentHashMap<>();
        startHolding(holder);
        Trickle.pause(200);
        startHolding(holder);
        Trickle.pause(200);
        f.add("victim");
        await().atMost(Duration.ofSeconds(5)).until(() -> holder.containsKey("victim"));
        long crashedAt = System.currentTimeMillis();
        holder.get("victim").closeAsIfCrashed();
        // Its lease expires at the latest a lock duration after the crash.
        f.ledger.ready("victim", "stalled", crashedAt + LivenessFixture.LOCK.toMillis());
        f.assertLive();
    }

    /** A worker whose processor holds the first attempt of "victim" until the worker dies. */
    private void startHolding(Map<String, Worker<String, Object>> holder) {
        Worker<String, Object>[] self = new Worker[1];
        self[0] = f.start(f.worker(c -> {
            if (c.job().id().equals("victim") && c.job().attemptsStarted() == 1) {
                holder.put("victim", self[0]);
                LivenessFixture.work(60_000);
            }
            return null;
        }).concurrency(1).takeAhead(0));
    }
}
