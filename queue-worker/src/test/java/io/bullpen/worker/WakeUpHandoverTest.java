package io.bullpen.worker;

import io.bullpen.JobOptions;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * A wake-up one worker took, or a wake time only one worker knew, is not lost with that worker's
 * attention: a worker that cannot take the job (its slots all busy, paused, closing) hands the
 * look to the others. Idle workers here know only of a job due in an hour, so they look at the
 * queue by themselves only once a minute: each job must start within
 * {@link LivenessFixture#BOUND} all the same.
 */
@BullpenTest
class WakeUpHandoverTest {
    private LivenessFixture f;

    @BeforeEach
    void setUp(BullpenTestContext ctx, TestInfo info) {
        f = new LivenessFixture(ctx, info.getDisplayName());
        f.queue.add("far", "far", JobOptions.builder().jobId("far").delay(Duration.ofHours(1)).build());
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
}
