package io.bullpen.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.JobCounts;
import io.bullpen.QueueEvents;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The demo keeps every queue progressing: each queue's count of jobs that ended (completed
 * events plus failed ones, read from its event stream, since retention caps the completed set)
 * rises in every 30 s window, and no queue sits for {@value #IDLE_SECONDS} s in a row with jobs
 * ready (waiting or prioritized, not paused) and none active: a worker idle while work waits.
 * Runs the demo for 60 s; with {@code -Psoak} (system property {@code bullpen.soak=true}) for 5
 * minutes. A stall (nothing lost, nothing done) fails it as soon as it shows.
 */
@BullpenTest
class DemoProgressTest {
    static final Duration WINDOW = Duration.ofSeconds(30);
    /** Samples in a row (one a second) a queue may show ready jobs and none active. */
    static final int IDLE_SECONDS = 5;
    static final List<String> QUEUES = List.of(CancelUnpaidOrderExample.QUEUE, NotificationRetryExample.QUEUE,
            PriorityExample.QUEUE, NightlyReportExample.QUEUE, QueueEventsExample.QUEUE, RateLimitedApiExample.QUEUE,
            MultiTenantExportExample.QUEUE);

    static Duration runFor() {
        return Boolean.getBoolean("bullpen.soak") ? Duration.ofMinutes(5) : Duration.ofSeconds(60);
    }

    /** One sample a second: seconds since the start -> ended jobs per queue. */
    private final List<Map<String, Long>> samples = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicLong> ended = new ConcurrentHashMap<>();
    /** Per queue: samples in a row with jobs ready and none active; the first such run that grew too long. */
    private final Map<String, Integer> idleRun = new ConcurrentHashMap<>();
    private final Map<String, String> idleWithWork = new ConcurrentHashMap<>();
    private volatile DemoMain demo;

    @Test
    void everyQueueOfTheDemoFinishesJobsInEveryThirtySecondWindow(BullpenTestContext ctx) {
        List<QueueEvents> listeners = new ArrayList<>();
        for (String queue : QUEUES) {
            AtomicLong n = ended.computeIfAbsent(queue, q -> new AtomicLong());
            listeners.add(QueueEvents.builder(ctx.redisson(), queue).build()
                    .onCompleted(e -> n.incrementAndGet())
                    .onFailed(e -> n.incrementAndGet())
                    .start());
        }
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "demo-sampler"));
        demo = new DemoMain(Duration.ofSeconds(10));
        long seconds = runFor().toSeconds();
        try {
            demo.start(ctx.redisson());
            sampler.scheduleAtFixedRate(this::sample, 0, 1, TimeUnit.SECONDS);
            // Ends early once a queue went a whole window without progress.
            Awaitility.await().atMost(runFor().plusSeconds(20)).pollInterval(Duration.ofMillis(500))
                    .until(() -> samples.size() > seconds || !stalled().isEmpty() || !idleWithWork.isEmpty());
        } finally {
            sampler.shutdownNow();
            demo.close();
            listeners.forEach(QueueEvents::close);
        }
        Map<String, Long> last = samples.get(samples.size() - 1);
        assertThat(stalled()).as("queues with no job ended in a %d s window (at second: ended then -> %d s later) "
                + "after %d s; ended per queue at the end: %s", WINDOW.toSeconds(), WINDOW.toSeconds(),
                samples.size() - 1, last).isEmpty();
        assertThat(idleWithWork).as("queues that had jobs ready and none active for %d s in a row", IDLE_SECONDS)
                .isEmpty();
        assertThat(samples.size()).isGreaterThan((int) seconds);
    }

    private void sample() {
        Map<String, Long> now = new LinkedHashMap<>();
        for (String queue : QUEUES) {
            now.put(queue, ended.get(queue).get());
        }
        samples.add(now);
        for (var queue : demo.queues()) {
            JobCounts c = queue.getJobCounts();
            boolean idle = !c.paused() && c.waiting() + c.prioritized() > 0 && c.active() == 0;
            int run = idleRun.merge(queue.name(), 1, (a, b) -> idle ? a + 1 : 0);
            if (!idle) {
                idleRun.put(queue.name(), 0);
            } else if (run >= IDLE_SECONDS) {
                idleWithWork.putIfAbsent(queue.name(), "second " + (samples.size() - 1) + ": " + c);
            }
        }
    }

    /** Each queue whose count did not rise over some window: the first such window, "second t: a -> b". */
    private Map<String, String> stalled() {
        Map<String, String> stalled = new LinkedHashMap<>();
        int w = (int) WINDOW.toSeconds();
        for (String queue : QUEUES) {
            for (int t = 0; t + w < samples.size(); t++) {
                long before = samples.get(t).get(queue);
                long after = samples.get(t + w).get(queue);
                if (after <= before) {
                    stalled.put(queue, "second " + t + ": " + before + " -> " + after);
                    break;
                }
            }
        }
        return stalled;
    }
}
