package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.NOW;
import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.internal.FlowScripts.FlowRecord;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.redisson.client.codec.StringCodec;

/**
 * Memory per child edge of a large fan-out (docs/flows.md), measured with MEMORY USAGE: what the
 * edge adds beyond the child job itself and its copied value, while pending and once ended.
 */
@BullpenTest
class FlowEdgeMemoryTest {
    private static final int CHILDREN = 10_000;

    @Test
    void aChildEdgeCostsAtMostAHundredBytesBeyondTheChildAndItsCopiedValue(BullpenTestContext ctx) {
        ScriptFixture f = new ScriptFixture(ctx);
        FlowScripts flows = new FlowScripts(f.redisson, f.k);
        String q = f.k.queue();
        StringBuilder children = new StringBuilder();
        for (int i = 0; i < CHILDREN; i++) {
            children.append(i == 0 ? "" : "\n").append('F').append(q).append(":c-").append(i);
        }
        join(flows.addFlow(NOW, List.of(new FlowRecord("warm-up", "parent", "{}", "", 0, 0, false, null, "", ""))));
        long started = System.nanoTime();
        join(flows.addFlow(NOW, List.of(new FlowRecord("p", "parent", "{}", "", 0, 0, false, null, "", children.toString()))));
        System.out.printf("flow edge memory: a parent with %d children added in %.1f ms (one call, round trip included)%n",
                CHILDREN, (System.nanoTime() - started) / 1e6);
        List<FlowRecord> batch = new ArrayList<>();
        long plainChild = 0;
        long withParent = 0;
        for (int i = 0; i < CHILDREN; i++) {
            batch.add(new FlowRecord("c-" + i, "render", "{}", "", 0, 0, false, null, q + ":p:" + i, ""));
            if (batch.size() == 1000) {
                join(flows.addFlow(NOW, batch));
                batch.clear();
            }
        }
        // The par field a child carries: the same child hash with and without it.
        f.redisson.<String, String>getMap("plain", StringCodec.INSTANCE).putAll(
                f.redisson.<String, String>getMap(f.k.job("c-1"), StringCodec.INSTANCE).readAllMap());
        f.redisson.<String, String>getMap("plain", StringCodec.INSTANCE).remove("par");
        plainChild = usage(f, "plain");
        withParent = usage(f, f.k.job("c-1"));
        long pending = usage(f, f.k.pendingChildren("p")) + usage(f, f.k.children("p")) + usage(f, f.k.childResults("p"));
        System.out.printf("flow edge memory: deps %d, kids %d, res %d bytes for %d children%n", usage(f, f.k.pendingChildren("p")),
                usage(f, f.k.children("p")), usage(f, f.k.childResults("p")), CHILDREN);
        String value = "\"html\"";
        for (int i = 0; i < CHILDREN; i++) {
            join(flows.childEnded(NOW, "p", i, q + ":c-" + i, "render", "completed", value));
        }
        long results = usage(f, f.k.childResults("p"));
        long ended = results + usage(f, f.k.children("p"));
        long copiedValues = (long) CHILDREN * value.length();
        double pendingPerEdge = (double) pending / CHILDREN + (withParent - plainChild);
        double endedPerEdge = (double) (ended - copiedValues) / CHILDREN + (withParent - plainChild);
        System.out.printf("flow edge memory: pending %.1f B/edge, ended %.1f B/edge beyond the value (par field %d B)%n",
                pendingPerEdge, endedPerEdge, withParent - plainChild);
        assertThat(pendingPerEdge).as("while pending").isLessThan(100);
        assertThat(endedPerEdge).as("once ended").isLessThan(100);
    }

    private static long usage(ScriptFixture f, String key) {
        Object reply = f.redisson.getScript(StringCodec.INSTANCE).eval(org.redisson.api.RScript.Mode.READ_ONLY,
                "return redis.call('MEMORY', 'USAGE', KEYS[1], 'SAMPLES', 0)", org.redisson.api.RScript.ReturnType.LONG,
                List.of(key));
        return reply == null ? 0 : ((Number) reply).longValue();
    }
}
