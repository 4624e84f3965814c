package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A job's timeout ends its attempt even when the processor ignores interrupts: the attempt fails
 * in Redis, its lock is released, its slot runs the next job, and the stuck processor's late
 * return records nothing.
 */
@BullpenTest
class WorkerTimeoutTest {
    private volatile boolean stop;

    @Test
    void aProcessorThatIgnoresInterruptsIsFailedAtItsTimeoutAndTheSlotRunsTheNextJob(BullpenTestContext ctx) {
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        AtomicInteger lateReturns = new AtomicInteger();
        List<String> failures = new CopyOnWriteArrayList<>();
        try (Worker<String, String> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .concurrency(1)
                .processor(c -> {
                    if (c.job().data().equals("spin")) {
                        while (!stop) {
                            Thread.onSpinWait();   // ignores interrupts, as a tight computation does
                        }
                        lateReturns.incrementAndGet();
                        return "late";
                    }
                    return "done " + c.job().data();
                })
                .listener(new WorkerListener<>() {
                    @Override
                    public void onFailed(Job<String> job, Throwable error, boolean finalFailure) {
                        failures.add(job.data() + " " + job.attemptsMade() + " " + error.getMessage() + " " + finalFailure);
                    }
                })
                .build().start()) {
            Job<String> stuck = queue.add("stuck", "spin", JobOptions.builder().attempts(2)
                    .timeout(Duration.ofSeconds(1)).build());
            Job<String> next = queue.add("next", "quick");

            // Attempt 1 times out and goes back to wait (lifo off): the quick job runs on a new thread.
            await().atMost(Duration.ofSeconds(5)).until(() -> queue.getState(next.id()) == JobState.COMPLETED);
            await().atMost(Duration.ofSeconds(8)).until(() -> queue.getState(stuck.id()) == JobState.FAILED);

            Job<String> failed = queue.getJob(stuck.id()).orElseThrow();
            assertThat(failed.failedReason()).contains("timed out after 1000ms");
            assertThat(failed.attemptsMade()).isEqualTo(2);
            // Each trace shows where the processor was when its time ran out.
            assertThat(failed.stacktrace()).hasSize(2)
                    .allSatisfy(t -> assertThat(t).contains("JobTimeoutException").contains("WorkerTimeoutTest.lambda"));
            assertThat(ctx.snapshot(queue.name()).lock(stuck.id())).as("lock released").isNull();
            assertThat(lateReturns).as("both processors still spin").hasValue(0);
            assertThat(worker.activeCount()).isZero();
            await().atMost(Duration.ofSeconds(5)).until(() -> failures.size() == 2);
            assertThat(failures).containsExactly("spin 1 timed out after 1000ms false", "spin 2 timed out after 1000ms true");

            // The slot keeps working while both stuck threads spin.
            Job<String> later = queue.add("later", "again");
            await().atMost(Duration.ofSeconds(5)).until(() -> queue.getState(later.id()) == JobState.COMPLETED);

            assertThat(processorThreads(queue.name())).as("one extra thread per stuck processor").isEqualTo(3);
            stop = true;
            await().atMost(Duration.ofSeconds(5)).until(() -> lateReturns.get() == 2);
            await().atMost(Duration.ofSeconds(5)).until(() -> processorThreads(queue.name()) == 1);
            Job<String> after = queue.getJob(stuck.id()).orElseThrow();
            assertThat(after.attemptsMade()).as("late returns record nothing").isEqualTo(2);
            assertThat(after.returnValueJson()).isEmpty();
            assertThat(queue.getState(stuck.id())).isEqualTo(JobState.FAILED);
            assertThat(failures).hasSize(2);
            ctx.assertInvariant(queue.name());
        } finally {
            stop = true;
        }
    }

    @Test
    void withASuppliedExecutorTheStuckProcessorKeepsItsThreadAndTheNextJobTakesAnother(BullpenTestContext ctx)
            throws Exception {
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        ExecutorService pool = Executors.newFixedThreadPool(2, r -> new Thread(r, "app-pool"));
        AtomicInteger lateReturns = new AtomicInteger();
        List<String> threads = new CopyOnWriteArrayList<>();
        try (Worker<String, String> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .executor(pool)
                .processor(c -> {
                    threads.add(Thread.currentThread().getName());
                    if (c.job().data().equals("spin")) {
                        while (!stop) {
                            Thread.onSpinWait();
                        }
                        lateReturns.incrementAndGet();
                    }
                    return "done";
                })
                .build().start()) {
            Job<String> stuck = queue.add("stuck", "spin", JobOptions.builder().timeout(Duration.ofSeconds(1)).build());
            Job<String> next = queue.add("next", "quick");

            await().atMost(Duration.ofSeconds(5)).until(() -> queue.getState(next.id()) == JobState.COMPLETED);
            assertThat(queue.getState(stuck.id())).isEqualTo(JobState.FAILED);
            assertThat(queue.getJob(stuck.id()).orElseThrow().failedReason()).contains("timed out after 1000ms");
            assertThat(threads).containsOnly("app-pool");
            stop = true;
            await().atMost(Duration.ofSeconds(5)).until(() -> lateReturns.get() == 1);
            assertThat(queue.getState(stuck.id())).isEqualTo(JobState.FAILED);
        } finally {
            stop = true;
            pool.shutdownNow();
        }
    }

    private static long processorThreads(String queue) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("bullpen-" + queue + "-worker-")).count();
    }
}
