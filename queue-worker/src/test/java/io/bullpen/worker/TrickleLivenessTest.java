package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Backoff;
import io.bullpen.CancelResult;
import io.bullpen.Deduplication;
import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobState;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Liveness under a trickle (a job every 0.5-2 s, bursts, quiet gaps longer than a worker's
 * blocking wait) for the job-level wake-up paths: adds, delays, retries with backoff, cancels,
 * debounced deduplication, step jobs and stall recovery. Each job that may run must start
 * within {@link LivenessFixture#BOUND} of the moment it could (stall recovery: of its lease's
 * expiry); nothing lost and consistent is not enough.
 */
@BullpenTest
@Tag("liveness")
class TrickleLivenessTest {
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
    void addedJobsStartWithinTheBound() throws Exception {
        f.startTwo(c -> null);
        f.trickle.run(n -> f.add("j" + n));
        f.assertLive();
    }

    @Test
    void longJobsNeverLeaveAJobWaitingWhileAWorkerHasAFreeSlot() throws Exception {
        LimitLivenessTest.Running running = new LimitLivenessTest.Running();
        Random r = f.trickle.random();
        for (int i = 0; i < 3; i++) {
            f.start(f.worker(c -> running.run("queue", c.job().id(), 300 + r.nextInt(2_500))).concurrency(1));
        }
        f.trickle.run(n -> f.add("j" + n, "add", JobOptions.builder(),
                Duration.ofMillis(r.nextInt(3) == 0 ? 100 + r.nextInt(2_000) : 0)));
        f.ledger.awaitAllStarted(Duration.ofSeconds(60));
        f.ledger.assertStartedWithin(LivenessFixture.BOUND, s -> running.freeSince("queue", s, 3));
    }

    @Test
    void delayedJobsStartWithinTheBoundOfTheirDueTime() throws Exception {
        f.startTwo(c -> null);
        Random r = f.trickle.random();
        f.trickle.run(n -> f.add("j" + n, "delayed", JobOptions.builder(),
                Duration.ofMillis(r.nextInt(4) == 0 ? 0 : 100 + r.nextInt(3_000))));
        f.assertLive();
    }

    @Test
    void retriedJobsStartWithinTheBoundOfTheirBackoff() throws Exception {
        Random r = f.trickle.random();
        Map<String, Long> backoff = new ConcurrentHashMap<>();
        f.startTwo(c -> {
            if (c.job().attemptsMade() < 2 && (c.job().id().hashCode() & 1) == 0) {
                f.ledger.ready(c.job().id(), "retry", System.currentTimeMillis() + backoff.get(c.job().id()));
                throw new IllegalStateException("fails this attempt");
            }
            return null;
        });
        f.trickle.run(n -> {
            long ms = 200 + r.nextInt(1_500);
            backoff.put("j" + n, ms);
            f.add("j" + n, "add", JobOptions.builder().attempts(3).backoff(Backoff.fixed(Duration.ofMillis(ms))),
                    Duration.ZERO);
        });
        f.assertLive();
    }

    @Test
    void cancelsLeaveTheOtherJobsRunning() throws Exception {
        Random r = f.trickle.random();
        List<String> cancellable = new CopyOnWriteArrayList<>();
        f.startTwo(c -> {
            if (c.job().id().startsWith("long")) {
                await().atMost(Duration.ofSeconds(10)).until(c::isCancelled);
            }
            return null;
        });
        f.trickle.run(n -> {
            switch (r.nextInt(4)) {
                case 0 -> {
                    // Waits far in the future: never runnable here, cancelled later.
                    f.queue.add("later", "d", JobOptions.builder().jobId("later" + n).delay(Duration.ofHours(1)).build());
                    cancellable.add("later" + n);
                }
                case 1 -> {
                    f.add("long" + n);
                    cancellable.add("long" + n);
                }
                default -> f.add("j" + n);
            }
            if (!cancellable.isEmpty() && r.nextBoolean()) {
                String id = cancellable.remove(r.nextInt(cancellable.size()));
                cancel(id, "not needed");
            }
        });
        for (String id : cancellable) {
            cancel(id, "test over");
        }
        // A plain job after the cancels still starts (and a trickle whose random steps added only
        // jobs that were cancelled still has a start to check).
        f.add("after-cancels");
        // A job cancelled once taken but before its processor started never starts either.
        for (String id : cancelled) {
            await().atMost(Duration.ofSeconds(15)).until(() -> f.queue.getState(id).isFinished());
            if (f.queue.getState(id) == JobState.FAILED) {
                f.ledger.forget(id);
            }
        }
        f.assertLive();
    }

    /** Cancels a job; one cancelled before it started never starts. */
    private final List<String> cancelled = new CopyOnWriteArrayList<>();

    private void cancel(String id, String reason) {
        cancelled.add(id);
        CancelResult result = f.queue.cancel(id, reason);
        if (result != CancelResult.CANCEL_REQUESTED && result != CancelResult.ALREADY_FINISHED) {
            f.ledger.forget(id);
        }
    }

    @Test
    void debouncedJobsStartWithinTheBoundOfTheirLastAdd() throws Exception {
        Random r = f.trickle.random();
        Duration debounce = Duration.ofMillis(600);
        Map<String, List<Long>> addsByOwner = new ConcurrentHashMap<>();
        Map<String, Long> startedAt = new ConcurrentHashMap<>();
        f.startTwo(c -> {
            startedAt.put(c.job().id(), System.currentTimeMillis());
            return null;
        });
        List<String> owners = new ArrayList<>();
        f.trickle.run(n -> {
            String key = "k" + r.nextInt(3);
            long at = System.currentTimeMillis();
            Job<String> job = f.queue.add("debounced", key, JobOptions.builder()
                    .deduplication(Deduplication.of(key).debounce(debounce)).build());
            addsByOwner.computeIfAbsent(job.id(), k -> new CopyOnWriteArrayList<>()).add(at);
            if (!owners.contains(job.id())) {
                owners.add(job.id());
                f.ledger.ready(job.id(), "debounced " + key, at);
            }
        });
        f.ledger.awaitAllStarted(Duration.ofSeconds(30));
        // Runnable a debounce after the last add the owner absorbed before it started.
        f.ledger.assertStartedWithin(LivenessFixture.BOUND, s -> addsByOwner.get(s.job()).stream()
                .filter(at -> at <= s.startedAt()).mapToLong(Long::longValue).max().orElseThrow() + debounce.toMillis());
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(owners).allSatisfy(id -> assertThat(f.queue.getState(id)).isEqualTo(JobState.COMPLETED)));
    }

    @Test
    void stepJobsStartEachStepWithinTheBoundOfItsDelay() throws Exception {
        Random r = f.trickle.random();
        f.startTwo(c -> {
            int step = Integer.parseInt(c.job().data().substring(c.job().data().indexOf(':') + 1));
            if (step < 3) {
                long delay = r.nextInt(5) == 0 ? 0 : 100 + r.nextInt(2_000);
                c.updateData(c.job().id() + ":" + (step + 1));
                f.ledger.ready(c.job().id(), "step " + (step + 1), System.currentTimeMillis() + delay);
                c.delay(Duration.ofMillis(delay));
            }
            return null;
        });
        f.trickle.run(n -> {
            f.ledger.ready("j" + n, "add", System.currentTimeMillis());
            f.queue.add("steps", "j" + n + ":0", JobOptions.builder().jobId("j" + n).build());
        });
        f.assertLive();
    }

    @Test
    void aJobOfAWorkerThatDiedStartsWithinTheBoundOfItsLeasesExpiry() throws Exception {
        // Jobs a crashed worker ran besides its victim start again after their leases expire:
        // not checked, but the victims are.
        f.ledger.allowRestarts();
        Map<String, Worker<String, Object>> holder = new ConcurrentHashMap<>();
        List<Long> crashes = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 2; i++) {
            startVictimAware(holder);
        }
        f.trickle.run(n -> {
            long now = System.currentTimeMillis();
            // A replacement joins only well after the victim should have been recovered: the
            // surviving worker must see the expiry itself.
            if (running() < 2 && crashes.stream().allMatch(t -> now - t > LivenessFixture.LOCK.toMillis() + 3_000)) {
                startVictimAware(holder);
            }
            if (n % 6 == 2 && running() == 2) {
                String id = "victim" + n;
                f.add(id);
                await().atMost(Duration.ofSeconds(5)).until(() -> holder.containsKey(id));
                long at = System.currentTimeMillis();
                holder.get(id).closeAsIfCrashed();
                crashes.add(at);
                // Its lease expires at the latest a lock duration after the crash.
                f.ledger.ready(id, "stalled", at + LivenessFixture.LOCK.toMillis());
            } else {
                f.add("j" + n);
            }
        });
        assertThat(crashes).isNotEmpty();
        f.assertLive();
    }

    private long running() {
        return f.workers().stream().filter(Worker::isRunning).count();
    }

    private void startVictimAware(Map<String, Worker<String, Object>> holder) {
        Worker<String, Object>[] self = new Worker[1];
        // No take-ahead: a crash would leave jobs taken ahead to their lock expiry by design.
        self[0] = f.start(f.worker(c -> {
            if (c.job().id().startsWith("victim") && c.job().attemptsStarted() == 1) {
                holder.put(c.job().id(), self[0]);
                // Holds the job until the crash interrupts it (an abandoned attempt records nothing).
                LivenessFixture.work(60_000);
            }
            return null;
        }).takeAhead(0));
    }
}
