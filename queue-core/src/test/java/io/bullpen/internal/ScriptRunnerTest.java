package io.bullpen.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.internal.ScriptTypes.AddResult;
import io.bullpen.internal.ScriptTypes.NewJob;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;
import org.redisson.config.NameMapper;

/** ScriptRunner sends EVALSHA with its arguments as bytes (not through RScript): what that must keep. */
@BullpenTest
class ScriptRunnerTest {

    @Test
    void aCallAfterTheScriptCacheWasFlushedLoadsTheScriptAndRunsOnce(BullpenTestContext ctx) {
        ScriptFixture f = new ScriptFixture(ctx);
        ctx.redisson().getScript().scriptFlush();

        List<AddResult> added = Futures.join(f.scripts.addJob(ScriptFixture.NOW,
                List.of(new NewJob("", "report", "{}", "", 0, 0, false))));

        assertThat(added).hasSize(1);
        assertThat(Futures.join(f.scripts.getCounts()).waiting()).as("added once, not once per attempt").isEqualTo(1);
    }

    @Test
    void argumentsReachTheScriptAsUtf8(BullpenTestContext ctx) {
        ScriptFixture f = new ScriptFixture(ctx);
        String data = "{\"text\":\"caf\u00e9 \u20ac \ud83d\ude00 \u65e5\u672c\"}";

        String id = Futures.join(f.scripts.addJob(ScriptFixture.NOW,
                List.of(new NewJob("", "r\u00e9sum\u00e9", data, "", 0, 0, false)))).get(0).id();

        var hash = ctx.redisson().<String, String>getMap(f.k.job(id), StringCodec.INSTANCE).readAllMap();
        assertThat(hash).containsEntry("data", data).containsEntry("name", "r\u00e9sum\u00e9");
    }

    @Test
    void callsOfScriptsWithOtherKeysSendEachScriptsOwnKeys(BullpenTestContext ctx) {
        ScriptFixture f = new ScriptFixture(ctx);
        ScriptFixture other = new ScriptFixture(ctx);
        Scripts otherQueue = new Scripts(ctx.redisson(), new KeyScheme("bp", ctx.newQueueName()));

        for (int i = 0; i < 3; i++) {
            Futures.join(f.scripts.addJob(ScriptFixture.NOW, List.of(new NewJob("", "a", "{}", "", 0, 0, false))));
            assertThat(Futures.join(f.scripts.getCounts()).waiting()).isEqualTo(i + 1);
            assertThat(Futures.join(otherQueue.getCounts()).waiting()).isZero();
        }
        assertThat(Futures.join(other.scripts.getCounts()).waiting()).isEqualTo(3);
    }

    @Test
    void aClientsNameMapperMapsTheKeysOfAScriptCall(BullpenTestContext ctx) {
        ctx.redis().assumeNotCluster("one client of its own on a single server");
        Config config = new Config();
        config.useSingleServer().setAddress(ctx.redis().uri()).setNameMapper(new NameMapper() {
            @Override
            public String map(String name) {
                return "mapped-" + name;
            }

            @Override
            public String unmap(String name) {
                return name.substring("mapped-".length());
            }
        });
        RedissonClient mapped = Redisson.create(config);
        try {
            KeyScheme k = new KeyScheme("bp", ctx.queueName());
            Futures.join(new Scripts(mapped, k).addJob(ScriptFixture.NOW,
                    List.of(new NewJob("", "a", "{}", "", 0, 0, false))));

            assertThat(ctx.redisson().getList("mapped-" + k.key("wait"), StringCodec.INSTANCE).size()).isEqualTo(1);
            assertThat(ctx.redisson().getList(k.key("wait"), StringCodec.INSTANCE).size()).isZero();
        } finally {
            mapped.shutdown();
        }
    }
}
