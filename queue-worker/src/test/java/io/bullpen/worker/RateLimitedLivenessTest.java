package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.Queue;
import io.bullpen.RateLimitedException;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@BullpenTest
class RateLimitedLivenessTest {
    private BullpenTestContext ctx;
    private Queue<String> queue;
    private Worker<String, Object> worker;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.ctx = ctx;
        this.queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
    }

    @AfterEach
    void tearDown() {
        if (worker != null) {
            worker.close(Duration.ofSeconds(5));
        }
    }

    @Test
    void aQuietQueueKeepsRunningAfterAProcessorsRateLimitedException() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        Map<String, Long> started = new ConcurrentHashMap<>();
        worker = Worker.builder(ctx.redisson(), queue.name(), String.class).concurrency(5).processor(c -> {
            if (calls.incrementAndGet() == 8) {
                throw new RateLimitedException(Duration.ofSeconds(1));
            }
            started.putIfAbsent(c.job().id(), System.currentTimeMillis());
            return null;
        }).build().start();
        List<Job<String>> jobs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            jobs.add(queue.add("call", "burst-" + i));
        }
        for (int i = 0; i < 12; i++) {
            Thread.sleep(1_000);
            jobs.add(queue.add("call", "trickle-" + i));
            System.out.println("t=" + i + " counts=" + queue.getJobCounts() + " calls=" + calls.get());
        }
        await().atMost(Duration.ofSeconds(3)).untilAsserted(() -> assertThat(queue.getJobCounts().completed()).isEqualTo(jobs.size()));
    }
}
