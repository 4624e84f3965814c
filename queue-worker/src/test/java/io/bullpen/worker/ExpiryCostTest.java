package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bullpen.JobOptions;
import io.bullpen.Queue;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.RedisKind;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Redis commands per job (INFO commandstats, which counts the commands inside scripts too) for
 * adding and processing jobs without and with an expiry deadline: a job without one runs no
 * command of the expiry's (no TIME at add, nothing on the expiry set).
 */
@BullpenTest
class ExpiryCostTest {
    private static final Logger log = LoggerFactory.getLogger(ExpiryCostTest.class);
    private static final int JOBS = 300;

    @Test
    void aJobWithoutADeadlineRunsNoExpiryCommand(BullpenTestContext ctx) throws Exception {
        assumeTrue(ctx.redis().kind() != RedisKind.EXTERNAL, "counts commands on its own server");
        ctx.redis().assumeNotCluster("INFO commandstats of one server");
        Map<String, Long> plain = addAndProcess(ctx, JobOptions.defaults());
        Map<String, Long> expiring = addAndProcess(ctx, JobOptions.builder().expireAfter(Duration.ofHours(1)).build());
        // ZREM and TIME serve leases too (one per worker call: how many calls the 300 jobs take
        // depends on how they batch, 13-41 seen); one per job would be the expiry's.
        assertThat(plain).as("no ZRANK of the deadline at add").doesNotContainKey("zrank");
        assertThat(plain.getOrDefault("zrem", 0L)).as("no ZREM per take").isLessThan(JOBS / 3);
        assertThat(plain.getOrDefault("time", 0L)).as("no TIME per add").isLessThan(JOBS / 3);
        assertThat(expiring.get("zrem")).as("each started job leaves the expiry set").isGreaterThanOrEqualTo(JOBS);
    }

    private Map<String, Long> addAndProcess(BullpenTestContext ctx, JobOptions options) throws Exception {
        String name = ctx.newQueueName();
        Queue<String> queue = Queue.builder(ctx.redisson(), name, String.class).build();
        Map<String, Long> before = RawRedis.commandCalls(ctx.redis().uri());
        for (int i = 0; i < JOBS; i++) {
            queue.add("j", "x", options);
        }
        AtomicInteger completed = new AtomicInteger();
        try (Worker<String, Object> worker = Worker.builder(ctx.redisson(), name, String.class)
                .processor(c -> null).concurrency(10).listener(new WorkerListener<>() {
                    @Override
                    public void onCompleted(io.bullpen.Job<String> job, Object result) {
                        completed.incrementAndGet();
                    }
                }).build().start()) {
            await().atMost(Duration.ofSeconds(30)).until(() -> completed.get() == JOBS);
        }
        Map<String, Long> after = RawRedis.commandCalls(ctx.redis().uri());
        Map<String, Long> diff = new TreeMap<>();
        after.forEach((k, v) -> {
            long d = v - before.getOrDefault(k, 0L);
            if (d > 0 && !k.equals("info")) {
                diff.put(k, d);
            }
        });
        log.info("expiry cost, {}: {} commands/job ({})", options,
                String.format("%.2f", RawRedis.workCalls(before, after) / (double) JOBS), diff);
        return diff;
    }
}
