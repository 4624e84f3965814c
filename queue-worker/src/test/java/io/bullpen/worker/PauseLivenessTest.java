package io.bullpen.worker;

import io.bullpen.JobOptions;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Liveness under a trickle while the queue, a group or workers are paused and resumed at random:
 * a job held back by a pause must start within {@link LivenessFixture#BOUND} of the resume that
 * lets it run.
 */
@BullpenTest
@Tag("liveness")
class PauseLivenessTest {
    private LivenessFixture f;

    @BeforeEach
    void setUp(BullpenTestContext ctx, TestInfo info) {
        f = new LivenessFixture(ctx, info.getDisplayName());
    }

    @AfterEach
    void tearDown() {
        f.close();
    }

    @Test
    void jobsHeldByAQueuePauseStartWithinTheBoundOfTheResume() throws Exception {
        Holds holds = new Holds();
        Random r = f.trickle.random();
        f.startTwo(c -> null);
        f.trickle.run(n -> {
            f.add("j" + n);
            if (r.nextInt(3) == 0) {
                if (f.queue.isPaused()) {
                    holds.end("queue");
                    f.queue.resume();
                } else {
                    f.queue.pause();
                    holds.begin("queue");
                }
            }
        });
        holds.end("queue");
        f.queue.resume();
        f.ledger.awaitAllStarted(Duration.ofSeconds(30));
        f.ledger.assertStartedWithin(LivenessFixture.BOUND, s -> holds.runnableAt("queue", s.readyAt()));
    }

    @Test
    void jobsHeldByAGroupPauseStartWithinTheBoundOfTheResume() throws Exception {
        Holds holds = new Holds();
        Random r = f.trickle.random();
        Map<String, String> groupOf = new ConcurrentHashMap<>();
        Map<String, Boolean> paused = new ConcurrentHashMap<>();
        f.startTwo(c -> null);
        f.trickle.run(n -> {
            String group = "g" + r.nextInt(3);
            groupOf.put("j" + n, group);
            f.add("j" + n, "add", JobOptions.builder().group(group), Duration.ZERO);
            if (r.nextInt(3) == 0) {
                String g = "g" + r.nextInt(3);
                if (paused.getOrDefault(g, false)) {
                    holds.end(g);
                    f.queue.resumeGroup(g);
                    paused.put(g, false);
                } else {
                    f.queue.pauseGroup(g);
                    holds.begin(g);
                    paused.put(g, true);
                }
            }
        });
        for (String g : List.of("g0", "g1", "g2")) {
            holds.end(g);
            f.queue.resumeGroup(g);
        }
        f.ledger.awaitAllStarted(Duration.ofSeconds(30));
        f.ledger.assertStartedWithin(LivenessFixture.BOUND, s -> holds.runnableAt(groupOf.get(s.job()), s.readyAt()));
    }

    @Test
    void jobsHeldByPausedWorkersStartWithinTheBoundOfAResume() throws Exception {
        Holds holds = new Holds();
        Random r = f.trickle.random();
        f.startTwo(c -> null);
        List<Worker<String, Object>> workers = f.workers();
        f.trickle.run(n -> {
            f.add("j" + n);
            if (r.nextInt(3) == 0) {
                Worker<String, Object> w = workers.get(r.nextInt(2));
                if (w.isPaused()) {
                    holds.end("workers");
                    w.resume();
                } else {
                    w.pause();
                    if (workers.stream().allMatch(Worker::isPaused)) {
                        holds.begin("workers");
                    }
                }
            }
        });
        holds.end("workers");
        workers.forEach(Worker::resume);
        f.ledger.awaitAllStarted(Duration.ofSeconds(30));
        f.ledger.assertStartedWithin(LivenessFixture.BOUND, s -> holds.runnableAt("workers", s.readyAt()));
    }
}
