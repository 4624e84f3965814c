package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bullpen.Queue;
import io.bullpen.flow.FlowJob;
import io.bullpen.flow.FlowProducer;
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
 * Jobs without a parent pay nothing for flows: their finish runs no command of the flows
 * (commandstats also counts the commands inside scripts), because the worker knows from the take
 * whether a job has a parent. A child's finish runs a few. The figures are logged.
 */
@BullpenTest
class FlowCostTest {
    private static final Logger log = LoggerFactory.getLogger(FlowCostTest.class);
    private static final int JOBS = 300;

    @Test
    void aJobWithoutAParentRunsNoFlowCommandAndAChildAFew(BullpenTestContext ctx) throws Exception {
        assumeTrue(ctx.redis().kind() != RedisKind.EXTERNAL, "counts commands on its own server");
        ctx.redis().assumeNotCluster("INFO commandstats of one server");
        String plain = ctx.newQueueName();
        Queue<String> queue = Queue.builder(ctx.redisson(), plain, String.class).build();
        for (int i = 0; i < JOBS; i++) {
            queue.add("j", "x");
        }
        Map<String, Long> plainCommands = process(ctx, plain, JOBS, () -> true);
        assertThat(plainCommands).as("a plain job's take and finish").doesNotContainKeys("getbit", "setbit", "lindex",
                "lset", "rpush");

        String children = ctx.newQueueName();
        FlowProducer flows = FlowProducer.builder(ctx.redisson()).build();
        String parents = ctx.newQueueName();
        FlowJob.Builder parent = FlowJob.builder(parents, "parent", "p");
        for (int i = 0; i < JOBS; i++) {
            parent.child(FlowJob.builder(children, "j", "x").build());
        }
        String parentId = flows.add(parent.build()).id();
        Queue<String> parentQueue = Queue.builder(ctx.redisson(), parents, String.class).build();
        Map<String, Long> childCommands = process(ctx, children, JOBS,
                () -> parentQueue.getState(parentId) == io.bullpen.JobState.WAITING);
        assertThat(childCommands.get("setbit")).as("one end applied per child: its pending bit cleared").isEqualTo(JOBS);
    }

    /** Processes the jobs of a queue; the commands counted until they completed and {@code settled} holds. */
    private Map<String, Long> process(BullpenTestContext ctx, String queue, int jobs,
                                      java.util.concurrent.Callable<Boolean> settled) throws java.io.IOException {
        Map<String, Long> before = RawRedis.commandCalls(ctx.redis().uri());
        AtomicInteger completed = new AtomicInteger();
        try (Worker<String, Object> worker = Worker.builder(ctx.redisson(), queue, String.class)
                .processor(c -> null).concurrency(10).listener(new WorkerListener<>() {
                    @Override
                    public void onCompleted(io.bullpen.Job<String> job, Object result) {
                        completed.incrementAndGet();
                    }
                }).build().start()) {
            await().atMost(Duration.ofSeconds(30)).until(() -> completed.get() == jobs);
            await().atMost(Duration.ofSeconds(30)).until(settled);
        }
        Map<String, Long> after = RawRedis.commandCalls(ctx.redis().uri());
        Map<String, Long> diff = new TreeMap<>();
        after.forEach((k, v) -> {
            long d = v - before.getOrDefault(k, 0L);
            if (d > 0 && !k.equals("info")) {
                diff.put(k, d);
            }
        });
        log.info("flows, queue {}: {} commands/job ({})", queue,
                String.format("%.2f", RawRedis.workCalls(before, after) / (double) jobs), diff);
        return diff;
    }
}
