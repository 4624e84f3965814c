package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bullpen.Queue;
import io.bullpen.RateLimit;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.RedisKind;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the limits cost in Redis commands per job (commandstats also counts the commands inside
 * scripts): none set, the take runs no command of the limits (no ZCOUNT; TIME at most once per
 * script call, which leases need anyway: they are on Redis's clock); set, a few.
 * The figures are logged; only the zero-cost rule is asserted.
 */
@BullpenTest
class LimitCostTest {
    private static final Logger log = LoggerFactory.getLogger(LimitCostTest.class);
    private static final int JOBS = 300;

    @Test
    void noLimitAddsNoCommandAndTheLimitsAddAFew(BullpenTestContext ctx) throws Exception {
        assumeTrue(ctx.redis().kind() != RedisKind.EXTERNAL, "counts commands on its own server");
        ctx.redis().assumeNotCluster("INFO commandstats of one server");
        Map<String, Long> none = run(ctx, "none", q -> { });
        assertThat(none).doesNotContainKeys("zcount");
        // TIME at most once per script call (read once, cached for the leases and any limit).
        assertThat(none.getOrDefault("time", 0L)).as("TIME per call: %s", none)
                .isLessThanOrEqualTo(none.getOrDefault("evalsha", 0L) + none.getOrDefault("fcall", 0L));
        run(ctx, "concurrency", q -> q.setGlobalConcurrency(100));
        run(ctx, "rate", q -> q.setRateLimit(RateLimit.of(1_000_000, Duration.ofSeconds(1))));
    }

    private Map<String, Long> run(BullpenTestContext ctx, String label, Consumer<Queue<String>> limit) throws Exception {
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName() + "-" + label, String.class).build();
        limit.accept(queue);
        for (int i = 0; i < JOBS; i++) {
            queue.add("j", "x");
        }
        Map<String, Long> before = RawRedis.commandCalls(ctx.redis().uri());
        AtomicInteger completed = new AtomicInteger();
        try (Worker<String, Object> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .processor(c -> null).concurrency(10).listener(new WorkerListener<>() {
                    @Override
                    public void onCompleted(io.bullpen.Job<String> job, Object result) {
                        completed.incrementAndGet();
                    }
                }).build().start()) {
            // Counted in the process, not by asking Redis: the counts stay the worker's own.
            await().atMost(Duration.ofSeconds(30)).until(() -> completed.get() == JOBS);
        }
        Map<String, Long> after = RawRedis.commandCalls(ctx.redis().uri());
        Map<String, Long> diff = new java.util.TreeMap<>();
        after.forEach((k, v) -> {
            long d = v - before.getOrDefault(k, 0L);
            if (d > 0 && !k.equals("info")) {
                diff.put(k, d);
            }
        });
        log.info("limits {}: {} commands/job ({})", label,
                String.format("%.2f", RawRedis.workCalls(before, after) / (double) JOBS), diff);
        return diff;
    }
}
