package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WakeOneQueueTest {
    private static ThreadPoolExecutor pool(int threads) {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 0L, TimeUnit.MILLISECONDS, new WakeOneQueue());
        // Every task then goes through the queue, as in a worker that has run its first jobs.
        pool.prestartAllCoreThreads();
        return pool;
    }

    @Test
    void tasksQueuedBehindBlockingOnesStartOnTheOtherIdleThreads() throws InterruptedException {
        int threads = 16;
        ThreadPoolExecutor pool = pool(threads);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger started = new AtomicInteger();
        try {
            for (int i = 0; i < threads; i++) {
                pool.execute(() -> {
                    started.incrementAndGet();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> started.get() == threads);
        } finally {
            release.countDown();
            pool.shutdown();
        }
        assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void everyTaskOfManyBurstsRuns() throws InterruptedException {
        ThreadPoolExecutor pool = pool(8);
        int bursts = 2_000;
        int perBurst = 25;
        AtomicInteger done = new AtomicInteger();
        try {
            for (int b = 0; b < bursts; b++) {
                for (int i = 0; i < perBurst; i++) {
                    pool.execute(done::incrementAndGet);
                }
                // Let the pool go idle now and then, so bursts also land on sleeping threads.
                if (b % 100 == 0) {
                    int expected = (b + 1) * perBurst;
                    await().atMost(Duration.ofSeconds(5)).until(() -> done.get() == expected);
                }
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> done.get() == bursts * perBurst);
        } finally {
            pool.shutdown();
        }
        assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void shutdownNowHandsBackTheTasksNotStarted() throws InterruptedException {
        ThreadPoolExecutor pool = pool(1);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        pool.execute(() -> {
            running.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();
        pool.execute(() -> { });
        pool.execute(() -> { });
        List<Runnable> notStarted = pool.shutdownNow();
        assertThat(notStarted).hasSize(2);
        assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }
}
