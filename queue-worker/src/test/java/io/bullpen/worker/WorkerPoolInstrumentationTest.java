package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.instrument.Instrumentation;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadPoolExecutor;
import org.junit.jupiter.api.Test;

/**
 * {@link Instrumentation#workerPool}: a worker hands the pool it owns to its instrumentations once,
 * after workerStarted, and shuts it down before workerStopped; an executor of the application's is
 * not handed over.
 */
@BullpenTest
class WorkerPoolInstrumentationTest {
    /** Records the calls in order, and the pool handed over. */
    static final class Recorder implements Instrumentation {
        final List<String> calls = new CopyOnWriteArrayList<>();
        volatile ExecutorService pool;

        @Override
        public void workerStarted(String queue, String worker) {
            calls.add("started " + worker);
        }

        @Override
        public void workerPool(String queue, String worker, ExecutorService pool) {
            calls.add("pool " + worker);
            this.pool = pool;
        }

        @Override
        public void workerStopped(String queue, String worker) {
            calls.add("stopped " + worker + (pool == null || pool.isShutdown() ? "" : " (pool still running)"));
        }
    }

    @Test
    void theWorkersOwnPoolIsHandedOverAfterStartAndShutDownBeforeStop(BullpenTestContext ctx) {
        Recorder recorder = new Recorder();
        Worker<String, String> worker = Worker.builder(ctx.redisson(), ctx.queueName(), String.class).name("w")
                .concurrency(3).instrumentation(recorder).processor(c -> "ok").build().start();
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.pool != null);
        assertThat(recorder.pool).isInstanceOfSatisfying(ThreadPoolExecutor.class,
                p -> assertThat(p.getMaximumPoolSize()).isEqualTo(3));

        worker.close();
        assertThat(recorder.calls).containsExactly("started w", "pool w", "stopped w");
    }

    @Test
    void anExecutorOfTheApplicationsIsNotHandedOver(BullpenTestContext ctx) {
        Recorder recorder = new Recorder();
        ExecutorService own = Executors.newFixedThreadPool(2);
        try {
            Worker<String, String> worker = Worker.builder(ctx.redisson(), ctx.queueName(), String.class).name("w")
                    .executor(own).instrumentation(recorder).processor(c -> "ok").build().start();
            worker.close();
            assertThat(recorder.calls).containsExactly("started w", "stopped w");
        } finally {
            own.shutdownNow();
        }
    }
}
