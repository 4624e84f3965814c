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
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.redisson.client.codec.StringCodec;

/**
 * What a worker does with jobs it cannot run normally: data it cannot read, a processor that
 * throws a VirtualMachineError, a return value it cannot store.
 */
@BullpenTest
class WorkerErrorsTest {
    /** A return value Jackson cannot write: its getter throws. */
    public static final class Unwritable {
        public String getValue() {
            throw new IllegalStateException("no value");
        }
    }

    @Test
    void aJobWhoseDataCannotBeReadFailsForGoodKeepingItsAttemptCount(BullpenTestContext ctx) {
        Queue<Integer> queue = Queue.builder(ctx.redisson(), ctx.queueName(), Integer.class).build();
        Job<Integer> job = queue.add("x", 1, JobOptions.builder().attempts(5).build());
        ctx.redisson().getMap("bp:{" + queue.name() + "}:job:" + job.id(), StringCodec.INSTANCE)
                .putAll(Map.of("data", "{not json", "atm", "2"));
        AtomicInteger calls = new AtomicInteger();

        try (Worker<Integer, Integer> worker = Worker.builder(ctx.redisson(), queue.name(), Integer.class)
                .processor(c -> calls.incrementAndGet()).build().start()) {
            await().atMost(Duration.ofSeconds(5)).until(() -> queue.getState(job.id()) == JobState.FAILED);
        }

        Map<String, String> stored = ctx.snapshot(queue.name()).job(job.id());
        assertThat(stored).containsEntry("atm", "3");
        assertThat(stored.get("failedReason")).contains("cannot read the data of job " + job.id());
        assertThat(calls).hasValue(0);
    }

    @Test
    void aStackOverflowFailsTheAttemptAndTheWorkerGoesOn(BullpenTestContext ctx) {
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        try (Worker<String, Object> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .processor(c -> c.job().data().equals("recurse") ? recurse(0) : "fine")
                .build().start()) {
            Job<String> deep = queue.add("deep", "recurse", JobOptions.builder().attempts(2).build());
            Job<String> next = queue.add("next", "plain");

            await().atMost(Duration.ofSeconds(10)).until(() -> queue.getState(deep.id()) == JobState.FAILED);
            await().atMost(Duration.ofSeconds(5)).until(() -> queue.getState(next.id()) == JobState.COMPLETED);
            Job<String> failed = queue.getJob(deep.id()).orElseThrow();
            assertThat(failed.attemptsMade()).as("retried like any failure").isEqualTo(2);
            assertThat(failed.failedReason()).contains("java.lang.StackOverflowError");
            assertThat(failed.stacktrace()).hasSize(2).allSatisfy(t -> assertThat(t).contains("recurse"));
            assertThat(worker.isRunning()).isTrue();
        }
    }

    @Test
    void aReturnValueThatCannotBeStoredFailsTheJobWithoutRetry(BullpenTestContext ctx) {
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        AtomicInteger calls = new AtomicInteger();
        try (Worker<String, Unwritable> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .processor(c -> {
                    calls.incrementAndGet();
                    return new Unwritable();
                })
                .build().start()) {
            Job<String> job = queue.add("x", "y", JobOptions.builder().attempts(3).build());

            await().atMost(Duration.ofSeconds(5)).until(() -> queue.getState(job.id()) == JobState.FAILED);
            Job<String> failed = queue.getJob(job.id()).orElseThrow();
            assertThat(calls).hasValue(1);
            assertThat(failed.attemptsMade()).isEqualTo(1);
            assertThat(failed.failedReason().orElseThrow()).contains("cannot be serialized to JSON");
        }
    }

    private static Object recurse(int depth) {
        return depth < 0 ? null : recurse(depth + 1);
    }
}
