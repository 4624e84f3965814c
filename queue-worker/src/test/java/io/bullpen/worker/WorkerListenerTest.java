package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.bullpen.Backoff;
import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Worker listeners: delivered in order on the worker's own events thread (never a Redis client
 * thread), so they may call Bullpen synchronously and a slow one never holds up the jobs; they
 * add up, whatever the order of the builder's calls; and they count the attempt that just ended.
 */
@BullpenTest
class WorkerListenerTest {
    private BullpenTestContext ctx;
    private Queue<Integer> queue;
    private final List<Worker<?, ?>> workers = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.ctx = ctx;
        this.queue = Queue.builder(ctx.redisson(), ctx.queueName(), Integer.class).build();
    }

    @AfterEach
    void tearDown() {
        workers.forEach(w -> w.close(Duration.ofSeconds(5)));
    }

    private <R> Worker<Integer, R> start(Worker.Builder<Integer, R> builder) {
        Worker<Integer, R> w = builder.build();
        workers.add(w);
        return w.start();
    }

    private Worker.Builder<Integer, Object> builder() {
        return Worker.builder(ctx.redisson(), queue.name(), Integer.class);
    }

    @Test
    void aListenerMayAddAFollowUpJobSynchronouslyForEveryCompletion() {
        int chain = 200;
        AtomicInteger completed = new AtomicInteger();
        Set<String> threads = ConcurrentHashMap.newKeySet();
        start(builder().processor(c -> c.job().data()).listener(new WorkerListener<>() {
            @Override
            public void onCompleted(Job<Integer> job, Integer result) {
                threads.add(Thread.currentThread().getName());
                completed.incrementAndGet();
                if (result < chain) {
                    queue.add("next", result + 1);   // a synchronous Queue call from the callback
                }
            }
        }));

        queue.add("first", 1);

        await().atMost(Duration.ofSeconds(20)).until(() -> completed.get() == chain);
        assertThat(queue.getJobCounts().completed()).isEqualTo(chain);
        assertThat(threads).containsExactly("bullpen-" + queue.name() + "-events-1");
    }

    @Test
    void aSlowListenerNeverHoldsUpTheJobs() {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger delivered = new AtomicInteger();
        start(builder().processor(c -> c.job().data()).listener(new WorkerListener<>() {
            @Override
            public void onCompleted(Job<Integer> job, Integer result) {
                try {
                    release.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                delivered.incrementAndGet();
            }
        }));
        for (int i = 0; i < 20; i++) {
            queue.add("n", i);
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> queue.getJobCounts().completed() == 20);
        assertThat(delivered).hasValue(0);
        release.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> delivered.get() == 20);
    }

    @Test
    void listenersAddUpAndEachGetsEveryCallbackInOrder() {
        List<String> calls = new CopyOnWriteArrayList<>();
        start(builder().processor(c -> "r" + c.job().data())
                .listener(recorder("a", calls))
                .listener(recorder("b", calls)));

        Job<Integer> job = queue.add("x", 7);

        await().atMost(Duration.ofSeconds(5)).until(() -> calls.size() == 4);
        assertThat(calls).containsExactly("a active " + job.id(), "b active " + job.id(),
                "a completed r7", "b completed r7");
    }

    @Test
    void aListenerSetBeforeTheProcessorIsKept() {
        List<String> calls = new CopyOnWriteArrayList<>();
        start(builder().listener(recorder("before", calls)).concurrency(2)
                .processor(c -> "r" + c.job().data())
                .listener(recorder("after", calls)));

        Job<Integer> job = queue.add("x", 1);

        await().atMost(Duration.ofSeconds(5)).until(() -> calls.size() == 4);
        assertThat(calls).containsExactly("before active " + job.id(), "after active " + job.id(),
                "before completed r1", "after completed r1");
    }

    @Test
    void listenersTypedForOneProcessorCannotBeCarriedToAnotherResultType() {
        Worker.Builder<Integer, String> typed = builder().processor(c -> "s").listener(new WorkerListener<>() {
            @Override
            public void onCompleted(Job<Integer> job, String result) {
            }
        });

        assertThatThrownBy(() -> typed.processor(c -> 1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("listener");
        // Without such listeners, a second processor simply replaces the first, keeping the rest.
        List<String> calls = new CopyOnWriteArrayList<>();
        start(builder().listener(recorder("any", calls)).processor(c -> "first").processor(c -> 2));
        queue.add("x", 1);
        await().atMost(Duration.ofSeconds(5)).until(() -> calls.contains("any completed 2"));
    }

    @Test
    void attemptsMadeCountsTheAttemptThatJustEnded() {
        List<String> calls = new CopyOnWriteArrayList<>();
        start(builder().processor(c -> {
            if (c.job().attemptsMade() == 0) {
                throw new IllegalStateException("first attempt fails");
            }
            return "ok";
        }).listener(new WorkerListener<>() {
            @Override
            public void onActive(Job<Integer> job) {
                calls.add("active " + job.attemptsMade());
            }

            @Override
            public void onFailed(Job<Integer> job, Throwable error, boolean finalFailure) {
                calls.add("failed " + job.attemptsMade());
            }

            @Override
            public void onCompleted(Job<Integer> job, String result) {
                calls.add("completed " + job.attemptsMade() + " data " + job.data());
            }
        }));

        Job<Integer> job = queue.add("x", 5, JobOptions.builder().attempts(2)
                .backoff(Backoff.fixed(Duration.ofMillis(10))).build());

        await().atMost(Duration.ofSeconds(5)).until(() -> queue.getState(job.id()) == JobState.COMPLETED);
        await().atMost(Duration.ofSeconds(5)).until(() -> calls.size() == 4);
        assertThat(calls).containsExactly("active 0", "failed 1", "active 1", "completed 2 data 5");
        assertThat(queue.getJob(job.id()).orElseThrow().attemptsMade()).isEqualTo(2);
    }

    private static <R> WorkerListener<Integer, R> recorder(String name, List<String> calls) {
        return new WorkerListener<>() {
            @Override
            public void onActive(Job<Integer> job) {
                calls.add(name + " active " + job.id());
            }

            @Override
            public void onCompleted(Job<Integer> job, R result) {
                calls.add(name + " completed " + result);
            }
        };
    }
}
