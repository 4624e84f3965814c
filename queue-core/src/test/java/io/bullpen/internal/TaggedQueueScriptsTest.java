package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.NOW;
import static io.bullpen.internal.ScriptFixture.complete;
import static io.bullpen.internal.ScriptFixture.fail;
import static io.bullpen.internal.ScriptFixture.fetch;
import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.JobState;
import io.bullpen.Retention;
import io.bullpen.internal.ScriptTypes.FetchResult;
import io.bullpen.internal.ScriptTypes.FinishResult;
import io.bullpen.internal.ScriptTypes.NewJob;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

/**
 * A queue whose keys carry a hash tag other than its name ({@link KeyScheme#of}): every script
 * keeps every key it creates under that tag and the queue's name, including the keys the scripts
 * build themselves (job and scheduler keys from the job prefix).
 */
@BullpenTest
class TaggedQueueScriptsTest {
    private static final String EVERY_MINUTE = "{\"every\":60000}";

    private RedissonClient redisson;
    private String queue;
    private String tag;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        redisson = ctx.redisson();
        redisson.getKeys().flushdb(); // the class's Redis: this test sees only its own keys
        queue = ctx.queueName();
        tag = "flow-" + ctx.newQueueName();
    }

    @Test
    void aJobsWholeLifeStaysUnderTheTagAndTheQueueName() {
        KeyScheme k = KeyScheme.of("bp", queue, tag);
        Scripts scripts = new Scripts(redisson, k);
        // Due now: taking its iteration makes the fetch script create the next one from the job prefix.
        join(new SchedulerScripts(redisson, k).upsertJobScheduler(NOW, "tick",
                new SchedulerScripts.Definition("tick", "{}", "", 0, EVERY_MINUTE, "RUN_ONCE_NOW", -1, -1), NOW, NOW + 60_000));

        join(scripts.addJob(NOW, List.of(new NewJob(null, "a", "{}", "", 0, 0, false),
                new NewJob("custom-b", "b", "{}", "{\"attempts\":2}", 0, 0, false))));
        FetchResult taken = join(scripts.moveToActive(NOW, fetch(3)));
        assertThat(taken.jobs()).extracting(RawJob::id).containsExactlyInAnyOrder("1", "custom-b", "repeat-tick-" + NOW);
        Map<String, String> tokens = new HashMap<>();
        taken.jobs().forEach(j -> tokens.put(j.id(), j.lockToken()));
        assertThat(join(scripts.extendLocks(NOW, 30_000, tokens))).isEmpty();
        join(scripts.updateProgress("1", "50"));
        join(scripts.addLog("1", "half way", -1));

        FinishResult done = join(scripts.moveToFinished(NOW, fetch(0), complete("1", tokens.get("1"), "\"ok\"", Retention.keepAll())));
        FinishResult retried = join(scripts.moveToFinished(NOW, fetch(0), fail("custom-b", tokens.get("custom-b"), "boom", 2, 1000, false)));
        FinishResult failed = join(scripts.moveToFinished(NOW, fetch(0),
                fail("repeat-tick-" + NOW, tokens.get("repeat-tick-" + NOW), "boom", 1, 0, false)));

        assertThat(List.of(done.state(), retried.state(), failed.state()))
                .containsExactly(JobState.COMPLETED, JobState.DELAYED, JobState.FAILED);
        // A minute later: the retry is promoted and taken, and its completion closes the first
        // minute of the metrics into their list.
        long later = NOW + 61_000;
        RawJob retry = join(scripts.moveToActive(later, fetch(1))).jobs().get(0);
        assertThat(retry.id()).isEqualTo("custom-b");
        join(scripts.moveToFinished(later, fetch(0), complete("custom-b", retry.lockToken(), "null", Retention.keepAll())));
        Set<String> keys = allKeys();
        assertThat(keys).contains(k.job("1"), k.job("custom-b"), k.logs("1"),
                k.job("repeat-tick-" + NOW), k.job("repeat-tick-" + (NOW + 60_000)), k.scheduler("tick"), k.schedulers(),
                k.completed(), k.failed(), k.waitList(), k.meta(), k.events(), k.id(), k.fence(), k.metrics("completed"));
        assertThat(keys).allSatisfy(key -> {
            assertThat(key).startsWith("bp:{" + tag + "}:{" + queue + "}:");
            assertThat(KeySchemeTest.slot(key)).isEqualTo(KeySchemeTest.slot(tag));
        });
        // Which also means: nothing in the queue's default keys (bp:{<queue>}:...).
        assertThat(keys).noneMatch(key -> key.startsWith(new KeyScheme("bp", queue).base()));
    }

    @Test
    void queuesSharingATagKeepTheirJobsApartAndObliterateRemovesOnlyItsOwnKeys() {
        String other = queue + "-other";
        Scripts mine = new Scripts(redisson, KeyScheme.of("bp", queue, tag));
        Scripts theirs = new Scripts(redisson, KeyScheme.of("bp", other, tag));
        join(mine.addJob(NOW, List.of(new NewJob(null, "a", "{}", "", 0, 0, false))));
        join(theirs.addJob(NOW, List.of(new NewJob(null, "b", "{}", "", 0, 0, false))));

        FetchResult taken = join(mine.moveToActive(NOW, fetch(5)));

        assertThat(taken.jobs()).extracting(j -> j.hash().get("name")).containsExactly("a");
        assertThat(join(theirs.getCounts()).waiting()).isEqualTo(1);
        join(mine.moveToFinished(NOW, fetch(0), complete("1", taken.jobs().get(0).lockToken(), "null", Retention.keepAll())));

        new QueueAdmin(redisson, mine.keys(), mine).obliterate(false);

        assertThat(allKeys()).isNotEmpty().allSatisfy(key -> assertThat(key).startsWith(theirs.keys().base()));
        assertThat(join(theirs.moveToActive(NOW, fetch(5))).jobs()).extracting(j -> j.hash().get("name")).containsExactly("b");
    }

    private Set<String> allKeys() {
        Set<String> keys = new TreeSet<>();
        redisson.getKeys().getKeys().forEach(keys::add);
        return keys;
    }
}
