package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.JobOptions;
import io.bullpen.JobSpec;
import io.bullpen.Queue;
import io.bullpen.Retention;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A quick local figure (printed, not asserted: the benchmarks module measures performance):
 * no-op jobs per second through one worker, first start to last completion.
 */
@BullpenTest
class WorkerThroughputTest {
    private static final Logger log = LoggerFactory.getLogger(WorkerThroughputTest.class);

    @Test
    void processesPreAddedJobs(BullpenTestContext ctx) {
        Queue<Integer> queue = Queue.builder(ctx.redisson(), ctx.queueName(), Integer.class).build();
        int jobs = 10_000;
        JobOptions options = JobOptions.builder().removeOnComplete(Retention.keepLast(1_000)).build();
        for (int chunk = 0; chunk < jobs; chunk += 1_000) {
            List<JobSpec<Integer>> specs = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                specs.add(JobSpec.of("noop", chunk + i, options));
            }
            queue.addBulk(specs);
        }
        AtomicLong first = new AtomicLong();
        AtomicLong done = new AtomicLong();
        try (Worker<Integer, Object> worker = Worker.builder(ctx.redisson(), queue.name(), Integer.class)
                .concurrency(10)
                .processor(c -> {
                    first.compareAndSet(0, System.nanoTime());
                    done.incrementAndGet();
                    return null;
                }).build().start()) {
            await().atMost(Duration.ofSeconds(60)).until(() -> queue.getJobCounts().completed() == 1_000
                    && queue.getJobCounts().waiting() == 0 && queue.getJobCounts().active() == 0);
            double seconds = (System.nanoTime() - first.get()) / 1e9;
            log.info("throughput: {} no-op jobs at concurrency 10 in {} s = {} jobs/s", jobs, String.format("%.2f", seconds),
                    Math.round(jobs / seconds));
            assertThat(done.get()).isEqualTo(jobs);
        }
    }
}
