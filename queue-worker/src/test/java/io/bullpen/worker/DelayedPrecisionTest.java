package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.JobOptions;
import io.bullpen.JobSpec;
import io.bullpen.Queue;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delayed jobs start within a few ms of their due time: the worker arms a client-side timer
 * instead of relying on Redis' blocking timeout (100 ms granularity at hz 10). The benchmark
 * measures the real figures; this test guards against that regression with a loose bound on the
 * median, which a 100 ms granularity would put near 50 ms. The tail is only logged: on a loaded
 * 2-core CI machine it is the scheduler's, not the worker's (a p99 bound failed there at 50 ms).
 */
@BullpenTest
class DelayedPrecisionTest {
    private static final Logger log = LoggerFactory.getLogger(DelayedPrecisionTest.class);

    @Test
    void delayedJobsStartCloseToTheirDueTime(BullpenTestContext ctx) {
        Queue<Long> queue = Queue.builder(ctx.redisson(), ctx.queueName(), Long.class).build();
        ConcurrentLinkedQueue<Long> lateness = new ConcurrentLinkedQueue<>();
        try (Worker<Long, Object> worker = Worker.builder(ctx.redisson(), queue.name(), Long.class)
                .concurrency(16)
                .processor(c -> {
                    if (c.job().data() < 0) {
                        lateness.add(0L);
                        return null;
                    }
                    long due = c.job().timestamp().toEpochMilli() + c.job().delay().toMillis();
                    lateness.add(System.currentTimeMillis() - due);
                    return null;
                }).build().start()) {
            // Warm up (class loading, JIT) so the figures are about timing, not first use.
            for (long i = 0; i < 50; i++) {
                queue.add("warm-up", -1L);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> lateness.size() == 50);
            lateness.clear();

            int jobs = 500;
            List<JobSpec<Long>> specs = new ArrayList<>();
            for (int i = 0; i < jobs; i++) {
                long delay = 500 + ThreadLocalRandom.current().nextLong(2_000);
                specs.add(JobSpec.of("due", delay, JobOptions.builder().delay(Duration.ofMillis(delay)).build()));
            }
            queue.addBulk(specs);

            await().atMost(Duration.ofSeconds(15)).until(() -> lateness.size() == jobs);
            List<Long> sorted = lateness.stream().sorted().toList();
            long p50 = sorted.get(jobs / 2);
            long p99 = sorted.get(jobs * 99 / 100);
            long max = sorted.get(jobs - 1);
            log.info("delayed-job lateness over {} jobs: p50 {} ms, p99 {} ms, max {} ms", jobs, p50, p99, max);
            assertThat(sorted.get(0)).isGreaterThanOrEqualTo(-5);
            assertThat(p50).as("median lateness in ms (p99 %d, max %d)", p99, max).isLessThan(25);
        }
    }
}
