package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.LOCK_MS;
import static io.bullpen.internal.ScriptFixture.NOW;
import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.bullpen.internal.AdminScripts.DrainChunk;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.redisson.client.codec.StringCodec;

/** drain: waiting and prioritized (and delayed when asked) go; the rest stays. */
@BullpenTest
class DrainScriptTest {
    private ScriptFixture f;
    private AdminScripts admin;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
        admin = new AdminScripts(ctx.redisson(), f.k);
    }

    /** One job in every state, each with a log line. */
    private void seedEveryState() {
        f.job("w1").job("w2").waiting("w2", "w1").job("p").zadd(f.k.prioritized(), "p", 4294967296.0)
                .job("d").delayed("d", NOW + 1000).job("a").active("a", "w:1", LOCK_MS, NOW + LOCK_MS)
                .job("c").zadd(f.k.completed(), "c", NOW).job("f").zadd(f.k.failed(), "f", NOW);
        for (String id : new String[] {"w1", "w2", "p", "d", "a", "c", "f"}) {
            f.redisson.getList(f.k.logs(id), StringCodec.INSTANCE).add("line");
        }
    }

    @ParameterizedTest(name = "includeDelayed = {0}")
    @ValueSource(booleans = {false, true})
    void removesWaitingAndPrioritizedJobsAndDelayedOnesWhenAsked(boolean includeDelayed) {
        seedEveryState();

        DrainChunk c = join(admin.drain(includeDelayed, 100, 0));

        assertThat(c).isEqualTo(new DrainChunk(includeDelayed ? 4 : 3, false));
        QueueSnapshot s = f.snap();
        assertThat(s.exists("wait")).isFalse();
        assertThat(s.exists("prioritized")).isFalse();
        assertThat(s.delayed().keySet()).isEqualTo(includeDelayed ? java.util.Set.of() : java.util.Set.of("d"));
        assertThat(s.active()).containsExactly("a");
        assertThat(s.lock("a")).isEqualTo("w:1");
        assertThat(s.completed()).containsOnlyKeys("c");
        assertThat(s.failed()).containsOnlyKeys("f");
        assertThat(s.jobIds()).containsExactlyInAnyOrderElementsOf(
                includeDelayed ? java.util.List.of("a", "c", "f") : java.util.List.of("a", "c", "f", "d"));
        assertThat(s.keys()).doesNotContain("job:w1:logs", "job:w2:logs", "job:p:logs");
        assertThat(s.exists("job:d:logs")).isEqualTo(!includeDelayed);
        assertThat(s.events()).singleElement().satisfies(e -> assertThat(e).contains(entry("event", "cleaned"),
                entry("count", includeDelayed ? "4" : "3"), entry("delayed", includeDelayed ? "1" : "0")));
        f.assertInvariant();
    }

    @Test
    void worksInChunksAndAnnouncesTheTotalOnceAtTheEnd() {
        f.job("w1").job("w2").job("w3").waiting("w3", "w2", "w1").job("p1").job("p2")
                .zadd(f.k.prioritized(), "p1", 1).zadd(f.k.prioritized(), "p2", 2).job("d").delayed("d", NOW);

        assertThat(join(admin.drain(true, 2, 0))).isEqualTo(new DrainChunk(2, true));
        assertThat(f.snap().waiting()).containsExactly("w3"); // the oldest (right end) go first
        assertThat(join(admin.drain(true, 2, 2))).isEqualTo(new DrainChunk(2, true));
        assertThat(f.snap().events()).isEmpty();
        assertThat(join(admin.drain(true, 2, 4))).isEqualTo(new DrainChunk(2, false));

        QueueSnapshot s = f.snap();
        assertThat(s.keys()).containsOnly("events");
        assertThat(s.events()).singleElement().satisfies(e -> assertThat(e).containsEntry("count", "6"));
    }

    @Test
    void anEmptyQueueDrainsToNothingWithoutAnEvent() {
        f.job("c").zadd(f.k.completed(), "c", NOW);

        assertThat(join(admin.drain(true, 100, 0))).isEqualTo(new DrainChunk(0, false));

        assertThat(f.snap().keys()).containsOnly("completed", "job:c");
    }
}
