package io.bullpen.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.Queue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The liveness phase of a fault run, after its faults and its drain, on the workers that went
 * through them: jobs arrive as on a quiet production queue, one every 0.5-2 s, with quiet gaps
 * (3-6 s; 5-20 s with {@code -Psoak}) and bursts (3-8 jobs at once), some delayed (0.2-1.5 s),
 * some hitting a rate limit on their first start ({@code RateLimitedException} of {@link #LIMIT},
 * queue scope: the job goes back in front and the queue waits). Every job must start within
 * lock duration + 1 s of when it may run: its add, its due time, or for a limited job's second
 * start the end of the limit. A flood cannot show a stall (some worker is always busy and takes
 * the next job itself); a trickle goes through the idle workers' wake-ups every time.
 */
final class Trickle {
    private static final Logger log = LoggerFactory.getLogger(Trickle.class);

    /** Job data at or below this: the processor throws RateLimitedException on the first start. */
    static final long LIMITED_DATA = -1_000_000_000L;
    static final Duration LIMIT = Duration.ofMillis(300);

    /** A job the trickle added: when it may run (epoch ms) and how it was added. */
    private record Added(String id, long runnableAt, String kind) {
    }

    private Trickle() {
    }

    static Duration length() {
        return Boolean.getBoolean("bullpen.soak") ? Duration.ofMinutes(3) : Duration.ofSeconds(15);
    }

    /**
     * Runs the trickle on {@code queue} (the workers are running) and asserts the lateness bound.
     *
     * @param groups spread the jobs over this many groups (0: no group)
     * @return a summary line for the run's log
     */
    static String run(Queue<Long> queue, ChaosLedger ledger, Duration lock, int groups) throws InterruptedException {
        Random rnd = new Random(queue.name().hashCode());
        boolean soak = Boolean.getBoolean("bullpen.soak");
        long bound = lock.toMillis() + 1_000;
        List<Added> added = new ArrayList<>();
        Map<String, Integer> kinds = new TreeMap<>();
        long end = System.currentTimeMillis() + length().toMillis();
        int n = 0;
        while (System.currentTimeMillis() < end) {
            int r = rnd.nextInt(100);
            if (r < 8) {
                kinds.merge("quiet gap", 1, Integer::sum);
                TimeUnit.MILLISECONDS.sleep(soak ? 5_000 + rnd.nextInt(15_001) : 3_000 + rnd.nextInt(3_001));
                continue;
            }
            if (r < 20) {
                int burst = 3 + rnd.nextInt(6);
                for (int i = 0; i < burst; i++) {
                    added.add(add(queue, ++n, 0, false, groups, "burst"));
                }
                kinds.merge("burst", 1, Integer::sum);
            } else if (r < 35) {
                added.add(add(queue, ++n, 200 + rnd.nextInt(1_301), false, groups, "delayed"));
                kinds.merge("delayed", 1, Integer::sum);
            } else if (r < 45) {
                added.add(add(queue, ++n, 0, true, groups, "limited"));
                kinds.merge("limited", 1, Integer::sum);
            } else {
                added.add(add(queue, ++n, 0, false, groups, "single"));
                kinds.merge("single", 1, Integer::sum);
            }
            // The pace of a quiet queue: the interval between arrivals.
            TimeUnit.MILLISECONDS.sleep(500 + rnd.nextInt(1_501));
        }
        await("every trickle job started").atMost(Duration.ofMillis(bound * 4 + 5_000)).pollInterval(Duration.ofMillis(50))
                .until(() -> added.stream().allMatch(a -> ledger.startTimes(a.id()).size() >= (a.kind().equals("limited") ? 2 : 1)));
        long worst = 0;
        String worstJob = "";
        for (Added a : added) {
            List<Long> starts = ledger.startTimes(a.id());
            long late = starts.get(0) - a.runnableAt();
            if (a.kind().equals("limited")) {
                late = Math.max(late, starts.get(1) - (starts.get(0) + LIMIT.toMillis()));
            }
            if (late > worst) {
                worst = late;
                worstJob = a + " started at " + starts;
            }
        }
        String summary = String.format("trickle of %d s: %d jobs %s, worst lateness %d ms (bound %d ms)%s",
                length().toSeconds(), added.size(), kinds, worst, bound, worst > 0 ? ", job " + worstJob : "");
        log.info(summary);
        assertThat(worst).as("every job starts within lock duration + 1 s of when it may run: %s", summary)
                .isLessThanOrEqualTo(bound);
        return summary;
    }

    private static Added add(Queue<Long> queue, int n, long delayMs, boolean limited, int groups, String kind) {
        JobOptions.Builder o = JobOptions.builder();
        if (delayMs > 0) {
            o.delay(Duration.ofMillis(delayMs));
        }
        if (groups > 0) {
            o.group("g" + n % groups);
        }
        long before = System.currentTimeMillis();
        Job<Long> job = queue.add("trickle", limited ? LIMITED_DATA - n : -n, o.build());
        return new Added(job.id(), before + delayMs, kind);
    }
}
