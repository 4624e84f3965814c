package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.WorkerInfo;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Worker.pause / resume: a paused worker takes nothing, lets running jobs finish, and takes again on resume. */
@BullpenTest
class WorkerPauseTest {
    private BullpenTestContext ctx;
    private Queue<String> queue;
    private final List<Worker<?, ?>> workers = new CopyOnWriteArrayList<>();
    /** Jobs whose data is a key here block until it is counted down. */
    private final Map<String, CountDownLatch> gates = new ConcurrentHashMap<>();

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.ctx = ctx;
        this.queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
    }

    @AfterEach
    void tearDown() {
        gates.values().forEach(CountDownLatch::countDown);
        workers.forEach(w -> w.close(Duration.ofSeconds(5)));
    }

    private Worker<String, Object> worker(String name, int concurrency) {
        Worker<String, Object> w = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .name(name).concurrency(concurrency).lockDuration(Duration.ofSeconds(2))
                .processor(c -> {
                    CountDownLatch gate = gates.get(c.job().data());
                    if (gate != null) {
                        gate.await();
                    }
                    return null;
                }).build();
        workers.add(w);
        return w;
    }

    private JobState state(Job<String> job) {
        return queue.getState(job.id());
    }

    /** Ten rounds of: running job, pause, jobs wait untouched while the running one finishes, resume. */
    @Test
    void aPausedWorkerTakesNothingLetsItsRunningJobFinishAndTakesAgainOnResume() {
        Worker<String, Object> w = worker("pausing", 2).start();
        for (int round = 0; round < 10; round++) {
            CountDownLatch gate = new CountDownLatch(1);
            gates.put("long-" + round, gate);
            Job<String> running = queue.add("long", "long-" + round);
            await().atMost(Duration.ofSeconds(10)).until(() -> state(running) == JobState.ACTIVE);

            w.pause();
            assertThat(w.isPaused()).isTrue();
            Job<String> a = queue.add("quick", "a-" + round);
            Job<String> b = queue.add("quick", "b-" + round);
            gate.countDown();
            await().atMost(Duration.ofSeconds(10)).until(() -> state(running) == JobState.COMPLETED);
            // Its finish took no next job, and the parked fetch loop takes none either.
            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2))
                    .until(() -> state(a) == JobState.WAITING && state(b) == JobState.WAITING && w.activeCount() == 0);

            w.resume();
            assertThat(w.isPaused()).isFalse();
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> state(a) == JobState.COMPLETED && state(b) == JobState.COMPLETED);
        }
    }

    @Test
    void aWorkerPausedWhileIdleHandsItsWakeUpToAnotherWorker() {
        Worker<String, Object> paused = worker("idle-paused", 1).start();
        worker("idle-running", 1).start();
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.getWorkers().size() == 2);

        paused.pause();
        for (int i = 0; i < 20; i++) {
            Job<String> job = queue.add("quick", "j" + i);
            await().atMost(Duration.ofSeconds(10)).until(() -> state(job) == JobState.COMPLETED);
            assertThat(queue.getJob(job.id()).orElseThrow().processedBy()).hasValue("idle-running");
        }
    }

    @Test
    void theHeartbeatSaysWhetherTheWorkerIsPaused() {
        Worker<String, Object> w = worker("hb", 1).start();
        await().atMost(Duration.ofSeconds(10)).until(() -> !queue.getWorkers().isEmpty());

        w.pause();
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.getWorkers().get(0).paused());
        w.resume();
        await().atMost(Duration.ofSeconds(5)).until(() -> !queue.getWorkers().get(0).paused());
    }

    @Test
    void aWorkerPausedBeforeStartStartsPausedAndListedAsSo() {
        Worker<String, Object> w = worker("born-paused", 1).pause().start();
        Job<String> job = queue.add("quick", "x");

        await().atMost(Duration.ofSeconds(10)).until(() -> queue.getWorkers().stream().anyMatch(WorkerInfo::paused));
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> state(job) == JobState.WAITING);
        w.resume();
        await().atMost(Duration.ofSeconds(10)).until(() -> state(job) == JobState.COMPLETED);
    }

    @Test
    void pauseAndResumeAreIdempotentAndDoNothingAfterClose() {
        Worker<String, Object> w = worker("idem", 1).start();
        w.pause().pause();
        assertThat(w.isPaused()).isTrue();
        w.resume().resume();
        assertThat(w.isPaused()).isFalse();

        w.close();
        w.pause();
        assertThat(w.isPaused()).isFalse();
        w.resume();
        assertThat(queue.getWorkers()).isEmpty();
    }
}
