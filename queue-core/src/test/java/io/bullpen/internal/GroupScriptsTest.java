package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.NOW;
import static io.bullpen.internal.ScriptFixture.complete;
import static io.bullpen.internal.ScriptFixture.fetch;
import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.bullpen.GroupFullException;
import io.bullpen.JobState;
import io.bullpen.Retention;
import io.bullpen.internal.ScriptTypes.FetchResult;
import io.bullpen.internal.ScriptTypes.NewJob;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.redisson.api.ObjectEncoding;
import org.junit.jupiter.api.Test;

/** The contracts of the group path: addJob, the take's pick, the slot release, settings, reads. */
@BullpenTest
class GroupScriptsTest {
    private ScriptFixture f;
    private GroupScripts groups;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
        groups = new GroupScripts(f.redisson, f.k);
    }

    private static NewJob grouped(String name, String group) {
        return new NewJob(null, name, "{}", "", 0, 0, false, group);
    }

    private List<String> take(int count) {
        FetchResult r = join(f.scripts.moveToActive(NOW, fetch(count)));
        return r.jobs().stream().map(RawJob::id).toList();
    }

    @Test
    void groupsReadyIsKeptASkiplistByAMemberNoReaderSees() {
        join(f.scripts.addJob(NOW, List.of(grouped("a", "acme"), grouped("b", "beta"))));

        // The member past zset-max-listpack-value makes Redis keep the set a skiplist (re-tagging
        // a served group is O(log n) there; a listpack rescans every member).
        assertThat(f.redisson.getScoredSortedSet(f.k.groupsReady()).getInternalEncoding())
                .isEqualTo(ObjectEncoding.SKIPLIST);
        assertThat(f.snap().zset("groups:ready")).hasSize(3);
        assertThat(f.snap().readyGroups()).containsOnlyKeys("acme", "beta");

        assertThat(take(5)).containsExactlyInAnyOrder("1", "2");
        assertThat(f.snap().readyGroups()).isEmpty();
        assertThat(take(5)).isEmpty();
        // A group that comes back is served again (the member alone does not count as ready).
        join(f.scripts.addJob(NOW, List.of(grouped("c", "acme"))));
        assertThat(f.snap().readyGroups()).containsOnlyKeys("acme");
        assertThat(take(5)).containsExactly("3");
    }

    @Test
    void aGroupedJobGoesToItsGroupRegistersItAndCountsAsWaiting() {
        join(f.scripts.addJob(NOW, List.of(grouped("a", "acme"), grouped("b", "acme"))));

        QueueSnapshot s = f.snap();
        assertThat(s.waiting()).isEmpty();
        assertThat(s.zset("group:acme")).containsOnlyKeys("1", "2");
        assertThat(s.zset("groups")).containsOnlyKeys("acme");
        assertThat(s.readyGroups()).containsOnlyKeys("acme");
        assertThat(s.meta()).containsEntry("groups", "1");
        assertThat(s.groupedWaiting()).isEqualTo(2);
        assertThat(s.job("1")).containsEntry("grp", "acme");
        assertThat(s.zset("marker")).containsOnly(entry("0", 0.0));
        assertThat(join(f.scripts.getCounts()).waiting()).isEqualTo(2);
        assertThat(join(f.scripts.getState("1"))).isEqualTo(JobState.WAITING);
        assertThat(join(f.scripts.getJobs(JobState.WAITING, 0, -1))).extracting(RawJob::id).containsExactly("1", "2");
        f.assertInvariant();
    }

    @Test
    void theTakeServesGroupsRoundRobinAndUngroupedJobsAsOneMoreGroup() {
        List<NewJob> jobs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            jobs.add(grouped("a" + i, "a"));
            jobs.add(grouped("b" + i, "b"));
            jobs.add(new NewJob(null, "u" + i, "{}", "", 0, 0, false));
        }
        join(f.scripts.addJob(NOW, jobs));

        List<String> names = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            FetchResult r = join(f.scripts.moveToActive(NOW, fetch(1)));
            names.add(r.jobs().get(0).hash().get("name"));
        }
        // Each round serves every group once: no group gets two jobs before another gets one.
        for (int round = 0; round < 3; round++) {
            assertThat(names.subList(round * 3, round * 3 + 3)).containsExactlyInAnyOrder("a" + round, "b" + round, "u" + round);
        }
        // A group emptied by a full take is dropped by the next visit (no extra command per take).
        assertThat(take(1)).isEmpty();
        QueueSnapshot s = f.snap();
        assertThat(s.hash("groupmeta:a")).containsEntry("active", "3");
        assertThat(s.groupedWaiting()).isZero();
        assertThat(s.readyGroups()).isEmpty();
        f.assertInvariant();
    }

    @Test
    void aGroupSettingMadeWhileJobsRunAppliesAtOnceWithTheSlotsCountedBeforeIt() {
        // No group setting yet (meta gsettings unset): the take and the finish skip the setting
        // reads, but every group's active count is kept, so a limit set later holds at once.
        join(f.scripts.addJob(NOW, List.of(grouped("a1", "a"), grouped("a2", "a"), grouped("a3", "a"))));
        assertThat(take(2)).containsExactly("1", "2");
        assertThat(f.snap().meta()).doesNotContainKey("gsettings");
        assertThat(f.snap().hash("groupmeta:a")).containsEntry("active", "2");

        join(groups.setGroupSettings("a", "concurrency", "2"));
        assertThat(f.snap().meta()).containsEntry("gsettings", "1");
        assertThat(take(5)).as("the group holds its 2 slots").isEmpty();
        assertThat(f.snap().readyGroups()).isEmpty();

        String token = f.snap().lock("1");
        join(f.scripts.moveToFinished(NOW, fetch(0), complete("1", token, "null", Retention.keepAll())));
        assertThat(f.snap().readyGroups()).containsOnlyKeys("a");
        assertThat(take(5)).containsExactly("3");
        f.assertInvariant();
    }

    @Test
    void groupConcurrencyHoldsTheGroupBackUntilASlotFrees() {
        join(groups.setGroupSettings("a", "concurrency", "1"));
        join(f.scripts.addJob(NOW, List.of(grouped("a1", "a"), grouped("a2", "a"))));

        List<String> first = take(5);
        assertThat(first).containsExactly("1");
        assertThat(take(5)).isEmpty();
        assertThat(f.snap().readyGroups()).isEmpty();

        String token = f.snap().lock("1");
        join(f.scripts.moveToFinished(NOW, fetch(0), complete("1", token, "null", Retention.keepAll())));
        QueueSnapshot s = f.snap();
        assertThat(s.readyGroups()).containsOnlyKeys("a");
        // No slot held: active reads 0 (left at 0 rather than deleted).
        assertThat(s.hash("groupmeta:a").getOrDefault("active", "0")).isEqualTo("0");
        f.assertInvariant();
        assertThat(take(5)).containsExactly("2");
        f.assertInvariant();
    }

    @Test
    void maxSizeRejectsTheWholeBatchAndWritesNothing() {
        join(groups.setGroupSettings("a", "maxSize", "2"));
        join(f.scripts.addJob(NOW, List.of(grouped("a1", "a"))));

        assertThatThrownBy(() -> join(f.scripts.addJob(NOW, List.of(new NewJob(null, "u", "{}", "", 0, 0, false),
                grouped("a2", "a"), grouped("a3", "a")))))
                .isInstanceOf(GroupFullException.class)
                .satisfies(e -> {
                    assertThat(((GroupFullException) e).group()).isEqualTo("a");
                    assertThat(((GroupFullException) e).maxSize()).isEqualTo(2);
                });
        QueueSnapshot s = f.snap();
        assertThat(s.jobIds()).containsExactly("1");
        assertThat(s.waiting()).isEmpty();
        join(f.scripts.addJob(NOW, List.of(grouped("a2", "a"))));
        f.assertInvariant();
    }

    @Test
    void aPausedGroupIsSkippedAndResumeWakesWorkers() {
        join(f.scripts.addJob(NOW, List.of(grouped("a1", "a"), grouped("b1", "b"))));
        join(groups.setGroupSettings("a", "paused", "1"));
        f.redisson.getKeys().delete(f.k.marker());

        assertThat(take(5)).containsExactly("2");
        assertThat(f.snap().readyGroups()).isEmpty();

        join(groups.setGroupSettings("a", "paused", ""));
        QueueSnapshot s = f.snap();
        assertThat(s.readyGroups()).containsOnlyKeys("a");
        assertThat(s.zset("marker")).containsOnly(entry("0", 0.0));
        assertThat(s.events()).filteredOn(e -> "paused".equals(e.get("event")) || "resumed".equals(e.get("event")))
                .extracting(e -> e.get("event") + ":" + e.get("group")).containsExactly("paused:a", "resumed:a");
        assertThat(take(5)).containsExactly("1");
        f.assertInvariant();
    }

    @Test
    void aTransientGroupLeavesTheRegistryWhenItsLastJobFinishes() {
        join(f.scripts.addJob(NOW, List.of(grouped("a1", "a"))));
        take(1);
        join(f.scripts.moveToFinished(NOW, fetch(0), complete("1", f.snap().lock("1"), "null", Retention.keepAll())));

        QueueSnapshot s = f.snap();
        assertThat(s.exists("groups")).isFalse();
        assertThat(s.exists("groupmeta:a")).isFalse();
        f.assertInvariant();
    }

    @Test
    void aFinishReleasesTheGroupSlotWithTheGroupTheWorkerPassedOrReadsIt() {
        join(groups.setGroupSettings("a", "concurrency", "1"));
        join(groups.setGroupSettings("b", "concurrency", "1"));
        join(f.scripts.addJob(NOW, List.of(grouped("a1", "a"), grouped("a2", "a"), grouped("b1", "b"),
                grouped("b2", "b"), new NewJob(null, "u1", "{}", "", 0, 0, false))));
        assertThat(take(5)).containsExactlyInAnyOrder("1", "3", "5");
        assertThat(take(5)).isEmpty();

        // Passed by the worker (as the take's reply gave it): no read of the job's grp field.
        QueueSnapshot before = f.snap();
        join(f.scripts.moveToFinished(NOW, fetch(0),
                complete("1", before.lock("1"), "null", Retention.keepAll()).withGroup("a")));
        // Not passed (null): the script reads the group itself, with the same outcome.
        join(f.scripts.moveToFinished(NOW, fetch(0), complete("3", before.lock("3"), "null", Retention.keepAll())));
        // Passed as none: an ungrouped job releases no group slot.
        join(f.scripts.moveToFinished(NOW, fetch(0),
                complete("5", before.lock("5"), "null", Retention.keepAll()).withGroup(null)));

        QueueSnapshot s = f.snap();
        assertThat(s.hash("groupmeta:a").getOrDefault("active", "0")).isEqualTo("0");
        assertThat(s.hash("groupmeta:b").getOrDefault("active", "0")).isEqualTo("0");
        assertThat(s.readyGroups()).containsOnlyKeys("a", "b");
        assertThat(s.completed()).containsOnlyKeys("1", "3", "5");
        f.assertInvariant();
        assertThat(take(5)).containsExactlyInAnyOrder("2", "4");
        f.assertInvariant();
    }

    @Test
    void aFailedRetriedJobWithAPassedGroupGoesBackToItsGroup() {
        join(f.scripts.addJob(NOW, List.of(grouped("a1", "a"))));
        assertThat(take(1)).containsExactly("1");

        join(f.scripts.moveToFinished(NOW, fetch(0),
                ScriptFixture.fail("1", f.snap().lock("1"), "boom", 3, 0, false).withGroup("a")));

        QueueSnapshot s = f.snap();
        assertThat(s.zset("group:a")).containsOnlyKeys("1");
        assertThat(s.readyGroups()).containsOnlyKeys("a");
        assertThat(s.job("1")).containsEntry("failedReason", "boom").containsEntry("atm", "1").containsKey("stacktrace");
        f.assertInvariant();
        assertThat(take(1)).containsExactly("1");
    }

    @Test
    void getGroupsPagesByNameWithCountsAndSettings() {
        join(f.scripts.addJob(NOW, List.of(grouped("x", "b"), grouped("y", "b"), grouped("z", "c"))));
        join(groups.setGroupSettings("a", "concurrency", "2", "weight", "3"));

        List<GroupScripts.RawGroup> page = join(groups.getGroups("", 2, false));
        assertThat(page).extracting(GroupScripts.RawGroup::name).containsExactly("a", "b");
        assertThat(page.get(0).concurrency()).isEqualTo(2);
        assertThat(page.get(0).weight()).isEqualTo(3);
        assertThat(page.get(1).waiting()).isEqualTo(2);
        assertThat(join(groups.getGroups("b", 2, false))).extracting(GroupScripts.RawGroup::name).containsExactly("c");
        assertThat(join(groups.getGroups("zz", 1, true))).isEmpty();
    }

    @Test
    void aCrashedWorkersGroupSlotFreesWhenItsLeaseExpires() {
        join(groups.setGroupSettings("a", "concurrency", "1"));
        join(f.scripts.addJob(NOW, List.of(grouped("a1", "a"), grouped("a2", "a"))));
        assertThat(take(1)).containsExactly("1");
        assertThat(take(1)).isEmpty();

        // The worker died: its lock expired, and a later fetch recovers the job and frees the slot.
        f.expire("1");
        FetchResult r = join(f.scripts.moveToActive(NOW + ScriptFixture.LOCK_MS + 1, fetch(1)));

        assertThat(r.recoveredStalled()).containsExactly("1");
        // The recovered job went back to the front of its group and is taken again first.
        assertThat(r.jobs()).extracting(RawJob::id).containsExactly("1");
        QueueSnapshot s = f.snap();
        assertThat(s.hash("groupmeta:a")).containsEntry("active", "1");
        assertThat(s.zset("group:a")).containsOnlyKeys("2");
        f.assertInvariant();
    }

    @Test
    void aDanglingIdTheTakeDropsGivesItsGroupSlotBack() {
        join(groups.setGroupSettings("a", "concurrency", "1"));
        join(f.scripts.addJob(NOW, List.of(grouped("a1", "a"), grouped("a2", "a"))));
        // The hash of the group's first job is gone behind the queue's back (a manual DEL).
        f.redisson.getKeys().delete(f.k.job("1"));

        assertThat(take(5)).as("the pick counted job 1 in the group's one slot, then dropped it").isEmpty();

        QueueSnapshot s = f.snap();
        assertThat(s.hash("groupmeta:a").getOrDefault("active", "0")).as("no job of the group holds its slot").isEqualTo("0");
        assertThat(s.readyGroups()).containsOnlyKeys("a");
        f.assertInvariant();
        assertThat(take(5)).containsExactly("2");
        f.assertInvariant();
    }

    @Test
    void aHandedBackJobFreesItsSlotAndGoesToTheFrontOfItsGroup() {
        join(f.scripts.addJob(NOW, List.of(grouped("a1", "a"), grouped("a2", "a"))));
        assertThat(take(1)).containsExactly("1");

        join(f.scripts.moveToWait("1", f.snap().lock("1")));

        QueueSnapshot s = f.snap();
        assertThat(s.hash("groupmeta:a").getOrDefault("active", "0")).isEqualTo("0");
        assertThat(s.zset("group:a").keySet()).containsExactly("1", "2");
        f.assertInvariant();
    }

    @Test
    void aGroupRateLimitStartsNowOrParksTheGroupUntilItsNextStart() {
        join(groups.setGroupSettings("a", "rl:max", "2", "rl:per", "60000"));
        join(f.scripts.addJob(NOW, List.of(grouped("a1", "a"), grouped("a2", "a"), grouped("b1", "b"))));

        List<String> taken = take(5);

        assertThat(taken).containsExactlyInAnyOrder("1", "3");
        QueueSnapshot s = f.snap();
        assertThat(s.readyGroups()).doesNotContainKey("a");
        assertThat(s.zset("groups:limited")).containsOnlyKeys("a");
        double release = s.zset("groups:limited").get("a");
        FetchResult idle = join(f.scripts.moveToActive(NOW, fetch(5)));
        assertThat(idle.jobs()).isEmpty();
        assertThat(idle.nextDelayedDue()).as("the worker's next wake is the group's release").isEqualTo((long) release);
        f.assertInvariant();
    }

    @Test
    void aTakeThatFillsItsSlotsAndParksAGroupGivesTheGroupsReleaseToTheMarker() {
        join(groups.setGroupSettings("a", "rl:max", "1", "rl:per", "60000"));
        join(f.scripts.addJob(NOW, List.of(grouped("a1", "a"), grouped("a2", "a"))));
        // The worker's BZPOPMIN took the add's signal.
        f.redisson.getKeys().delete(f.k.marker());

        assertThat(take(1)).containsExactly("1");

        // It will not wait (its slot is full); the idle workers' timers know nothing of the release.
        QueueSnapshot s = f.snap();
        double release = s.zset("groups:limited").get("a");
        assertThat(s.zset("marker")).containsOnly(entry("0", release));
        f.assertInvariant();
    }

    @Test
    void delayedGroupedJobsGoToTheirGroupWhenPromoted() {
        join(f.scripts.addJob(NOW, List.of(new NewJob(null, "later", "{}", "", 100, 0, false, "a"))));
        assertThat(f.snap().exists("group:a")).isFalse();

        FetchResult r = join(f.scripts.moveToActive(NOW + 200, fetch(0)));

        assertThat(r.jobs()).isEmpty();
        assertThat(f.snap().zset("group:a")).containsOnlyKeys("1");
        f.assertInvariant();
        assertThat(join(f.scripts.moveToActive(NOW + 200, fetch(1))).jobs()).extracting(RawJob::id).containsExactly("1");
    }

    @Test
    void drainAndObliterateRemoveGroupedJobsAndGroupKeys() {
        join(groups.setGroupSettings("a", "concurrency", "3"));
        join(f.scripts.addJob(NOW, List.of(grouped("a1", "a"), grouped("b1", "b"), new NewJob(null, "u", "{}", "", 0, 0, false))));

        AdminScripts admin = new AdminScripts(f.redisson, f.k);
        join(admin.drain(false, 100, 0));

        QueueSnapshot s = f.snap();
        assertThat(s.jobIds()).isEmpty();
        assertThat(s.groupedWaiting()).isZero();
        assertThat(s.zset("groups")).containsOnlyKeys("a");
        f.assertInvariant();
        join(admin.obliterate(true, 100));
        assertThat(f.snap().keys()).isEmpty();
    }
}
