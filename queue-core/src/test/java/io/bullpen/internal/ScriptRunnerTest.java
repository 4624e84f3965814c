package io.bullpen.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.internal.ScriptTypes.AddResult;
import io.bullpen.internal.ScriptTypes.NewJob;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.redisson.client.codec.StringCodec;

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
}
