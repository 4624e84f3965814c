package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.NOW;
import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.groups.Tuple.tuple;

import io.bullpen.GroupFullException;
import io.bullpen.internal.ScriptTypes.AddOutcome;
import io.bullpen.internal.ScriptTypes.AddResult;
import io.bullpen.internal.ScriptTypes.NewJob;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The contract of addCoalesced: the single adds of several callers in one call, each answered alone. */
@BullpenTest
class AddCoalescedScriptTest {
    private ScriptFixture f;
    private GroupScripts groups;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
        groups = new GroupScripts(f.redisson, f.k);
    }

    private static NewJob plain(String name) {
        return new NewJob(null, name, "{\"n\":1}", "", 0, 0, false);
    }

    private static NewJob custom(String id, String name) {
        return new NewJob(id, name, "{}", "", 0, 0, false);
    }

    private static NewJob grouped(String name, String group) {
        return new NewJob(null, name, "{}", "", 0, 0, false, group);
    }

    private static NewJob deduplicated(String name, String dedupId) {
        return new NewJob(null, name, "{}", "", 0, 0, false, null, dedupId, 0, "");
    }

    private List<AddOutcome> add(NewJob... jobs) {
        return add(Arrays.asList(new String[jobs.length]), jobs);
    }

    private List<AddOutcome> add(List<String> traceContexts, NewJob... jobs) {
        return join(f.scripts.addCoalesced(NOW, List.of(jobs), traceContexts));
    }

    private static AddOutcome ok(String id, boolean added) {
        return new AddOutcome(new AddResult(id, added), null);
    }

    @Test
    void plainJobsAreWrittenAsAddJobWritesThem() {
        assertThat(add(plain("a"), plain("b"))).containsExactly(ok("1", true), ok("2", true));

        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).containsExactly("2", "1");
        assertThat(s.job("1")).containsOnly(entry("name", "a"), entry("data", "{\"n\":1}"), entry("timestamp", Long.toString(NOW)));
        assertThat(s.string("id")).isEqualTo("2");
        assertThat(s.zset("marker")).containsOnly(entry("0", 0.0));
        assertThat(s.events()).extracting(e -> e.get("event"), e -> e.get("jobId"), e -> e.get("state"))
                .containsExactly(tuple("added", "1", "waiting"), tuple("added", "2", "waiting"));
        f.assertInvariant();
    }

    @Test
    void eachJobKeepsItsOwnSettingsAwaitedFlagAndTraceHeaders() {
        List<AddOutcome> out = add(Arrays.asList(null, "00-trace-b", null, null),
                new NewJob(null, "delayed", "{}", "{\"attempts\":3}", 500, 0, false),
                new NewJob(null, "prioritized", "{}", "", 0, 7, false, null, null, 0, "", 60_000),
                new NewJob(null, "front", "{}", "", 0, 0, true),
                plain("back"));

        assertThat(out).containsExactly(ok("1", true), ok("2", true), ok("3", true), ok("4", true));
        QueueSnapshot s = f.snap();
        assertThat(s.job("1")).containsOnly(entry("name", "delayed"), entry("data", "{}"),
                entry("timestamp", Long.toString(NOW)), entry("opts", "{\"attempts\":3}"), entry("delay", "500"));
        assertThat(s.delayed()).containsOnlyKeys("1");
        assertThat(s.job("2")).contains(entry("priority", "7"), entry("awaited", "60000"), entry("tc", "00-trace-b"));
        assertThat(s.prioritized()).containsOnlyKeys("2");
        assertThat(s.job("3")).doesNotContainKeys("tc", "awaited", "priority");
        // lifo: job 3 runs next (right end of wait), job 4 after it.
        assertThat(s.waiting()).containsExactly("4", "3");
        f.assertInvariant();
    }

    @Test
    void aMixedCallAnswersEveryJobAloneInArrivalOrder() {
        join(f.scripts.addJob(NOW, List.of(custom("taken", "first"))));
        join(groups.setGroupSettings("full", "maxSize", "1"));
        join(f.scripts.addJob(NOW, List.of(grouped("g1", "full"))));
        join(f.scripts.addJob(NOW, List.of(deduplicated("owner", "d1"))));

        List<AddOutcome> out = add(
                plain("good-1"),
                custom("taken", "again"),
                grouped("g2", "full"),
                deduplicated("dup", "d1"),
                custom("new", "mine"),
                custom("new", "mine-again"),
                plain("good-2"));

        assertThat(out).hasSize(7);
        assertThat(out.get(0)).isEqualTo(ok("3", true));
        assertThat(out.get(1)).isEqualTo(ok("taken", false));
        assertThat(out.get(2).result()).isNull();
        assertThat(out.get(2).error()).isInstanceOfSatisfying(GroupFullException.class, e -> {
            assertThat(e.group()).isEqualTo("full");
            assertThat(e.maxSize()).isEqualTo(1);
        });
        assertThat(out.get(3)).isEqualTo(new AddOutcome(new AddResult("2", false, true), null));
        assertThat(out.get(4)).isEqualTo(ok("new", true));
        assertThat(out.get(5)).isEqualTo(ok("new", false));
        // The full group's and the deduplicated job's automatic ids (4, 5) are used up, as a
        // deduplicated addJob uses up its id.
        assertThat(out.get(6)).isEqualTo(ok("6", true));

        QueueSnapshot s = f.snap();
        assertThat(s.jobIds()).containsExactlyInAnyOrder("taken", "1", "2", "3", "new", "6");
        assertThat(s.job("taken")).containsEntry("name", "first");
        assertThat(s.job("new")).containsEntry("name", "mine");
        assertThat(s.zset("group:full")).containsOnlyKeys("1");
        assertThat(s.events()).extracting(e -> e.get("event"), e -> e.get("jobId"))
                .endsWith(tuple("added", "3"), tuple("duplicated", "taken"), tuple("deduplicated", "2"),
                        tuple("added", "new"), tuple("duplicated", "new"), tuple("added", "6"));
        f.assertInvariant();
    }

    @Test
    void aDelayedJobForAFullGroupIsAddedAsAddJobWouldAddIt() {
        join(groups.setGroupSettings("full", "maxSize", "1"));
        join(f.scripts.addJob(NOW, List.of(grouped("g1", "full"))));

        List<AddOutcome> out = add(new NewJob(null, "later", "{}", "", 1_000, 0, false, "full"), grouped("now", "full"));

        assertThat(out.get(0)).isEqualTo(ok("2", true));
        assertThat(out.get(1).error()).isInstanceOf(GroupFullException.class);
        assertThat(f.snap().delayed()).containsOnlyKeys("2");
        f.assertInvariant();
    }
}
