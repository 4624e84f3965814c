package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bullpen.Deduplication;
import io.bullpen.JobOptions;
import io.bullpen.Queue;
import io.bullpen.internal.Futures;
import io.bullpen.internal.JsonCodec;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.ScriptTypes.FetchArgs;
import io.bullpen.internal.ScriptTypes.Finish;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.internal.Scripts;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.RedisKind;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What deduplication costs in Redis commands (commandstats counts the commands inside scripts):
 * jobs added one at a time, then taken and completed one at a time through the worker's own
 * finish ({@code Finish.completed} from the options read at take), so every figure is exact. A
 * job without a deduplication id costs what it cost before; a deduplicated add costs one SET NX
 * more, its completion the release (GET, EXISTS of a kept add, PTTL, DEL). Figures are logged.
 */
@BullpenTest
class DeduplicationCostTest {
    private static final Logger log = LoggerFactory.getLogger(DeduplicationCostTest.class);
    private static final int JOBS = 200;

    record Cost(Map<String, Long> adding, Map<String, Long> processing) {
        long addPerJob() {
            return adding.values().stream().mapToLong(Long::longValue).sum() / JOBS;
        }

        long processPerJob() {
            return processing.values().stream().mapToLong(Long::longValue).sum() / JOBS;
        }
    }

    @Test
    void aDeduplicatedJobCostsOneSetToAddAndFourCommandsToReleaseAndOthersNothing(BullpenTestContext ctx) throws Exception {
        assumeTrue(ctx.redis().kind() != RedisKind.EXTERNAL, "counts commands on its own server");
        ctx.redis().assumeNotCluster("INFO commandstats of one server");

        Cost plain = run(ctx, "plain", i -> JobOptions.defaults());
        Cost dedup = run(ctx, "dedup", i -> JobOptions.builder().deduplication(Deduplication.of("u-" + i)).build());

        log.info("plain: {} commands/add {}, {} commands/take+complete {}", plain.addPerJob(), plain.adding(),
                plain.processPerJob(), plain.processing());
        log.info("dedup: {} commands/add {}, {} commands/take+complete {}", dedup.addPerJob(), dedup.adding(),
                dedup.processPerJob(), dedup.processing());
        assertThat(plain.adding()).doesNotContainKeys("set", "get");
        assertThat(plain.processing()).doesNotContainKeys("pttl", "exists");
        assertThat(dedup.addPerJob() - plain.addPerJob()).isEqualTo(1);
        assertThat(dedup.adding().get("set")).isEqualTo(JOBS);
        assertThat(dedup.processPerJob() - plain.processPerJob()).isEqualTo(4);
    }

    @Test
    void anAddAbsorbedByItsOwnerCostsAScriptCallAndTheOwnersRead(BullpenTestContext ctx) throws Exception {
        assumeTrue(ctx.redis().kind() != RedisKind.EXTERNAL, "counts commands on its own server");
        ctx.redis().assumeNotCluster("INFO commandstats of one server");
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.newQueueName(), String.class).build();
        JobOptions one = JobOptions.builder().deduplication(Deduplication.of("one")).build();
        queue.add("j", "x", one);

        Map<String, Long> before = RawRedis.commandCalls(ctx.redis().uri());
        for (int i = 0; i < JOBS; i++) {
            assertThat(queue.add("j", "x", one).isDeduplicated()).isTrue();
        }
        Map<String, Long> hits = diff(before, RawRedis.commandCalls(ctx.redis().uri()));
        log.info("deduplicated adds: {} commands/add {}", hits.values().stream().mapToLong(Long::longValue).sum() / JOBS,
                hits);
        assertThat(queue.getJobCounts().waiting()).isEqualTo(1);
    }

    private Cost run(BullpenTestContext ctx, String label, IntFunction<JobOptions> options) throws Exception {
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.newQueueName() + "-" + label, String.class).build();
        Scripts scripts = new Scripts(ctx.redisson(), new KeyScheme("bp", queue.name()));
        queue.add("warm-up", "x"); // registers the queue, so the counts below are the jobs' own
        takeAndComplete(scripts);

        Map<String, Long> before = RawRedis.commandCalls(ctx.redis().uri());
        for (int i = 0; i < JOBS; i++) {
            queue.add("j", "x", options.apply(i));
        }
        Map<String, Long> afterAdding = RawRedis.commandCalls(ctx.redis().uri());
        for (int i = 0; i < JOBS; i++) {
            takeAndComplete(scripts);
        }
        Map<String, Long> afterProcessing = RawRedis.commandCalls(ctx.redis().uri());
        assertThat(queue.getJobCounts().completed()).isEqualTo(JOBS + 1);
        return new Cost(diff(before, afterAdding), diff(afterAdding, afterProcessing));
    }

    /** One take and one completion, as a worker at concurrency 1 sends them. */
    private static void takeAndComplete(Scripts scripts) {
        long now = System.currentTimeMillis();
        FetchArgs one = new FetchArgs(1, "w", 30_000, "", 100, 100, 1);
        List<RawJob> taken = Futures.join(scripts.moveToActive(now, one)).jobs();
        assertThat(taken).hasSize(1);
        RawJob job = taken.get(0);
        Finish done = Finish.completed(job.id(), job.lockToken(), job.attemptsMade(), "null",
                JsonCodec.decodeOptions(job.hash().get("opts")), 10);
        Futures.join(scripts.moveToFinished(now, one.withCount(0), done));
    }

    private static Map<String, Long> diff(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> out = new TreeMap<>();
        after.forEach((k, v) -> {
            long d = v - before.getOrDefault(k, 0L);
            if (d > 0 && !k.equals("info") && !k.startsWith("client") && !k.equals("ping") && !k.equals("hello")
                    && !k.startsWith("config")) {
                out.put(k, d);
            }
        });
        return out;
    }
}
