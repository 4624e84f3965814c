package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.LOCK_MS;
import static io.bullpen.internal.ScriptFixture.NOW;
import static io.bullpen.internal.ScriptFixture.complete;
import static io.bullpen.internal.ScriptFixture.fetch;
import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bullpen.Retention;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.RedisKind;
import io.bullpen.testing.Resp;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.redisnode.RedisNode;
import org.redisson.api.redisnode.RedisNodes;
import org.redisson.client.codec.StringCodec;

/** setQueueSettings and the scripts' one read of the queue's settings (readMeta). */
@BullpenTest
class QueueSettingsScriptTest {
    private ScriptFixture f;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
    }

    @Test
    void storesTheEventsCapAndReturnsThePreviousOne() {
        assertThat(join(f.scripts.setQueueSettings(1_000))).isEmpty();
        assertThat(join(f.scripts.setQueueSettings(250))).isEqualTo("1000");
        assertThat(f.snap().meta()).containsEntry("eventsMaxLength", "250");
    }

    @Test
    void refusesACapXaddWouldReject() {
        assertThatThrownBy(() -> join(f.scripts.setQueueSettings(0)))
                .hasMessageStartingWith("ERR eventsMaxLength must be a whole number >= 1 but was '0'");
        assertThat(f.snap().meta()).doesNotContainKey("eventsMaxLength");
    }

    @Test
    void aScriptThatEmitsEventsTrimsTheStreamToTheStoredCap() {
        f.job("1");
        join(f.scripts.setQueueSettings(1));
        for (int i = 0; i < 300; i++) {
            join(f.scripts.updateProgress("1", Integer.toString(i)));
        }
        // MAXLEN ~ 1 keeps the newest stream node (up to 100 entries) and what was added since.
        assertThat(f.redisson.getStream(f.k.events(), StringCodec.INSTANCE).size()).isBetween(1L, 200L);
    }

    /** The hot path: one meta read per worker call, whatever it needs (cap, paused flag, metrics minute). */
    @Test
    void aFinishThatTakesTheNextJobsReadsMetaOnce(BullpenTestContext ctx) throws Exception {
        assumeTrue(ctx.redis().kind() != RedisKind.EXTERNAL, "resets the server's command statistics");
        ctx.redis().assumeNotCluster("INFO commandstats of one server");
        join(f.scripts.setQueueSettings(500));
        f.job("a").active("a", "w:1", LOCK_MS, NOW + LOCK_MS);
        f.job("b").active("b", "w:2", LOCK_MS, NOW + LOCK_MS);
        f.job("c").job("d").waiting("d", "c");
        RedisNode node = ctx.redisson().getRedisNodes(RedisNodes.SINGLE).getInstance();
        Resp.text(ctx.redis().host(), ctx.redis().port(), "CONFIG", "RESETSTAT");

        var result = join(f.scripts.moveToFinished(NOW, fetch(2), List.of(
                complete("a", "w:1", "null", Retention.keepAll()), complete("b", "w:2", "null", Retention.keepAll()))));

        assertThat(result.next().jobs()).hasSize(2);
        Map<String, Long> calls = commandCalls(node);
        assertThat(calls.getOrDefault("hmget", 0L)).as("meta reads: %s", calls).isEqualTo(1);
        assertThat(calls).as("meta reads: %s", calls).doesNotContainKeys("hexists");
        assertThat(calls.getOrDefault("hget", 0L)).as("the two lock checks, no meta read: %s", calls).isEqualTo(2);
    }

    /**
     * A single add to a busy queue (no worker to wake) stays at its 5 commands: it reads the cap,
     * and trims, once every 64 automatic ids, and the stream exceeds the cap by fewer than 64.
     */
    @Test
    void singleAddsToABusyQueueReadTheCapEverySixtyFourJobs(BullpenTestContext ctx) throws Exception {
        assumeTrue(ctx.redis().kind() != RedisKind.EXTERNAL, "resets the server's command statistics");
        ctx.redis().assumeNotCluster("INFO commandstats of one server");
        join(f.scripts.setQueueSettings(1));
        join(f.scripts.addJob(NOW, List.of(new ScriptTypes.NewJob(null, "first", "{}", "", 0, 0, false))));
        RedisNode node = ctx.redisson().getRedisNodes(RedisNodes.SINGLE).getInstance();
        Resp.text(ctx.redis().host(), ctx.redis().port(), "CONFIG", "RESETSTAT");

        for (int i = 2; i <= 320; i++) {
            join(f.scripts.addJob(NOW, List.of(new ScriptTypes.NewJob(null, "n", "{}", "", 0, 0, false))));
        }

        Map<String, Long> calls = commandCalls(node);
        assertThat(calls.getOrDefault("hmget", 0L)).as("ids 64, 128, 192, 256, 320: %s", calls).isEqualTo(5);
        assertThat(calls.get("xadd")).isEqualTo(319);
        assertThat(calls).as("per add: INCR, HSET, LPUSH, XADD: %s", calls).containsEntry("incr", 319L)
                .containsEntry("hset", 319L).containsEntry("lpush", 319L);
        // Trimmed at id 320 (MAXLEN ~ 1 keeps the last stream node of up to 100 entries).
        assertThat(f.redisson.getStream(f.k.events(), StringCodec.INSTANCE).size()).isLessThanOrEqualTo(100L);
    }

    private static Map<String, Long> commandCalls(RedisNode node) {
        Map<String, Long> calls = new HashMap<>();
        node.info(RedisNode.InfoSection.COMMANDSTATS).forEach((key, value) -> {
            // cmdstat_hmget -> calls=1,usec=...
            String name = key.substring(key.indexOf('_') + 1);
            calls.put(name, Long.parseLong(value.replaceAll("^calls=(\\d+),.*$", "$1")));
        });
        return calls;
    }
}
