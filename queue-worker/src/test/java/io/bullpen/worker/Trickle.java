package io.bullpen.worker;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Random;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A trickle workload: one job every 0.5-2 s, now and then a burst of 3-8 at once, and quiet gaps
 * of 2.5-6 s (longer than a worker's 5 s blocking wait) where nothing happens, for a few seconds
 * in all. The liveness tests drive every wake-up path with it: a queue that stops after a quiet
 * gap, or leaves a job waiting that could run, fails them.
 *
 * <p>{@code -Dbullpen.trickle.seconds=N} makes every trickle run N seconds (the {@code soak}
 * profile, system property {@code bullpen.soak}, 120 s); {@code -Dbullpen.trickle.seed=S} replays
 * one run's workload.
 */
final class Trickle {
    private static final Logger log = LoggerFactory.getLogger(Trickle.class);

    /** What the trickle does at each step: add one job (numbered from 0). */
    @FunctionalInterface
    interface Step {
        void run(int n) throws Exception;
    }

    private final Random random;
    private final long seed;
    private final long runMillis;

    Trickle(String test) {
        this.seed = Long.getLong("bullpen.trickle.seed", System.nanoTime());
        this.random = new Random(seed);
        this.runMillis = Long.getLong("bullpen.trickle.seconds", Boolean.getBoolean("bullpen.soak") ? 120 : 7) * 1_000;
        log.info("trickle of {}: seed {} ({} s)", test, seed, runMillis / 1_000);
    }

    Random random() {
        return random;
    }

    /**
     * Runs the trickle on the calling thread: always one quiet gap longer than the default block
     * timeout of a worker's wait.
     *
     * @return how many steps ran
     */
    int run(Step step) throws Exception {
        long start = System.currentTimeMillis();
        long end = start + runMillis;
        int n = 0;
        boolean quietDone = false;
        while (System.currentTimeMillis() < end) {
            double r = random.nextDouble();
            if (r < 0.15) {
                int burst = 3 + random.nextInt(6);
                for (int i = 0; i < burst; i++) {
                    step.run(n++);
                }
            } else {
                step.run(n++);
            }
            long gap;
            if ((!quietDone && System.currentTimeMillis() > start + runMillis / 4) || random.nextDouble() < 0.08) {
                quietDone = true;
                gap = 2_500 + random.nextInt(3_500);
            } else {
                gap = 500 + random.nextInt(1_500);
            }
            pause(Math.min(gap, Math.max(0, end - System.currentTimeMillis())));
        }
        step.run(n++);
        return n;
    }

    /** Lets time pass (the workload's pacing; never a wait for a condition). */
    static void pause(long millis) {
        if (millis > 0) {
            await().pollDelay(Duration.ofMillis(millis)).atMost(Duration.ofMillis(millis + 60_000)).until(() -> true);
        }
    }

    @Override
    public String toString() {
        return "trickle seed " + seed;
    }
}
