package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.NOW;
import static io.bullpen.internal.ScriptFixture.complete;
import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.BullpenException;
import io.bullpen.JobCounts;
import io.bullpen.Retention;
import io.bullpen.internal.ScriptTypes.FetchArgs;
import io.bullpen.internal.ScriptTypes.FetchResult;
import io.bullpen.internal.ScriptTypes.NewJob;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueInvariant;
import io.bullpen.testing.QueueSnapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random takes, finishes (with their own take) and crashes on grouped jobs under a global
 * concurrency (5) and a default group concurrency (2), where a reply may be lost (the worker
 * never learns of the jobs a take leased: they come back when their lease expires) and a crash
 * drops locks and moves the clock past the leases: what a Redis restart does to a worker. After
 * every step the queue invariant holds and no group is stranded: a group with ready jobs and a
 * free slot is in groups:ready (nothing else would bring it back, and the queue would never drain).
 * Two idle workers wait as a real one does (on the marker, or until the wake time of their last
 * short take): whenever a job may run (an expired lease to recover, or a group with ready jobs and
 * a free slot under the global concurrency) while one of them is idle, the marker holds a member
 * or an idle worker's wake time has come.
 */
@BullpenTest
class GroupLivenessRandomTest {
    private static final String[] GROUPS = {"g0", "g1", "g2", "g3"};

    static Stream<Long> seeds() {
        return LongStream.range(1, 4).boxed();
    }

    static FetchArgs fetch(int count) {
        return new FetchArgs(count, "w", ScriptFixture.LOCK_MS, "worker-1", 100, 100, 3);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void aGroupWithReadyJobsAndAFreeSlotIsAlwaysReadyDespiteLostRepliesAndStalls(long seed, BullpenTestContext ctx) {
        ScriptFixture f = new ScriptFixture(ctx);
        GroupScripts groups = new GroupScripts(f.redisson, f.k);
        join(f.scripts.setQueueLimits(null, 0, 0, "5"));
        join(groups.setGroupSettings(null, "concurrency", "2"));
        Random random = new Random(seed);
        Map<String, String> held = new LinkedHashMap<>();
        // Leased by a take whose reply was lost: no worker renews them.
        List<String> orphans = new ArrayList<>();
        long now = NOW;
        int added = 0;
        // Idle workers: wake time of their last short take (-1: none); absent = busy (fetches when it acts).
        Map<Integer, Long> idle = new LinkedHashMap<>();
        for (int step = 0; step < 200; step++) {
            now += random.nextInt(20);
            int op = random.nextInt(12);
            String last = "";
            try {
                switch (op) {
                    case 0, 1, 2 -> {
                        if (added < 150) {
                            added++;
                            join(f.scripts.addJob(now, List.of(new NewJob(null, "j", "{}", "", 0, 0, false,
                                    GROUPS[random.nextInt(GROUPS.length)]))));
                            last = "add";
                        }
                    }
                    case 3, 4 -> {
                        boolean lost = random.nextInt(5) == 0;
                        FetchResult r = join(f.scripts.moveToActive(now, fetch(random.nextInt(4) + 1)));
                        if (!lost) {
                            r.jobs().forEach(j -> held.put(j.id(), j.lockToken()));
                        } else {
                            r.jobs().forEach(j -> orphans.add(j.id()));
                        }
                        last = "take lost=" + lost + " " + r.jobs().stream().map(RawJob::id).toList();
                    }
                    case 5, 6, 7 -> {
                        if (!held.isEmpty()) {
                            String id = new ArrayList<>(held.keySet()).get(random.nextInt(held.size()));
                            String token = held.remove(id);
                            boolean lost = random.nextInt(5) == 0;
                            int next = random.nextInt(3);
                            var res = join(f.scripts.moveToFinished(now, fetch(next), complete(id, token, "null", Retention.keepAll())));
                            if (res.next() != null) {
                                res.next().jobs().forEach(j -> {
                                    if (lost) {
                                        orphans.add(j.id());
                                    } else {
                                        held.put(j.id(), j.lockToken());
                                    }
                                });
                            }
                            last = "finish " + id + " lost=" + lost + " " + res;
                        }
                    }
                    case 10, 11 -> {
                        int w = random.nextInt(2);
                        Long wakeAt = idle.get(w);
                        boolean woken = wakeAt == null || f.redisson.getScoredSortedSet(f.k.marker(),
                                org.redisson.client.codec.StringCodec.INSTANCE).pollFirst() != null
                                || (wakeAt > 0 && wakeAt <= now);
                        if (woken) {
                            boolean mayRun = mayRun(f.snap(), true);
                            int count = random.nextInt(2) + 1;
                            FetchResult r = join(f.scripts.moveToActive(now, fetch(count)));
                            r.jobs().forEach(j -> held.put(j.id(), j.lockToken()));
                            if (r.jobs().size() < count) {
                                long due = r.nextDelayedDue();
                                long lease = r.nextLeaseExpiry();
                                idle.put(w, due < 0 ? lease : lease < 0 ? due : Math.min(due, lease));
                            } else {
                                idle.remove(w);
                            }
                            assertThat(!mayRun || !r.jobs().isEmpty()).as("seed %d step %d: idle worker %d's take "
                                    + "got nothing though a job may run", seed, step, w).isTrue();
                            last = "idle worker " + w + " took " + r.jobs().stream().map(RawJob::id).toList();
                        } else {
                            last = "idle worker " + w + " sleeps on";
                        }
                    }
                    default -> {
                        // A crash: the orphans' and some held jobs' locks expire, the clock passes the leases.
                        orphans.forEach(id -> f.expire(id));
                        orphans.clear();
                        for (String id : new ArrayList<>(held.keySet())) {
                            if (random.nextBoolean()) {
                                held.remove(id);
                                f.expire(id);
                            }
                        }
                        now += ScriptFixture.LOCK_MS + 1;
                        for (String id : held.keySet()) {
                            // The survivors' workers renew their locks.
                            join(f.scripts.extendLocks(now, ScriptFixture.LOCK_MS, Map.of(id, held.get(id))));
                        }
                        last = "crash";
                    }
                }
            } catch (BullpenException expected) {
                last = "exception " + expected;
            }
            QueueSnapshot s = f.snap();
            QueueInvariant.assertHolds(s);
            checkLive(s, seed, step, last);
            long at = now;
            if (idle.isEmpty() || !mayRun(s, false) || idle.values().stream().anyMatch(w -> w > 0 && w <= at)) {
                continue;
            }
            assertThat(s.exists("marker")).as("seed %d step %d after %s: a job may run and workers %s wait: the "
                    + "marker must wake one", seed, step, last, idle).isTrue();
        }
        // Every worker gone: later fetches recover the leases and run everything, and the queue drains.
        held.keySet().forEach(id -> f.expire(id));
        orphans.forEach(id -> f.expire(id));
        now += ScriptFixture.LOCK_MS + 1;
        for (int i = 0; i < 500; i++) {
            FetchResult r = join(f.scripts.moveToActive(now, fetch(5)));
            if (r.jobs().isEmpty()) {
                break;
            }
            for (RawJob j : r.jobs()) {
                join(f.scripts.moveToFinished(now, fetch(0), complete(j.id(), j.lockToken(), "null", Retention.keepAll())));
            }
        }
        JobCounts c = join(f.scripts.getCounts());
        assertThat(c.waiting() + c.active() + c.delayed() + c.prioritized()).as("seed %d: left after the drain: %s", seed, c)
                .isZero();
        f.assertInvariant();
    }

    /**
     * Whether a take would get a job: under the global concurrency (5 live leases) a group has
     * ready jobs and fewer than 2 active, or (with {@code stalled}) a lease expired, which the
     * take recovers. An expired lease is not a signal's business: an idle worker's stalled-job
     * check finds it within its stalled interval.
     */
    private static boolean mayRun(QueueSnapshot s, boolean stalled) {
        long redisNow = System.currentTimeMillis();
        long live = s.leases().values().stream().filter(e -> e > redisNow).count();
        if (stalled && live < s.leases().size()) {
            return true;
        }
        if (live >= 5) {
            return false;
        }
        for (String g : GROUPS) {
            if (s.exists("group:" + g)) {
                long active = Long.parseLong(s.exists("groupmeta:" + g) ? s.hash("groupmeta:" + g).getOrDefault("active", "0") : "0");
                if (active < 2) {
                    return true;
                }
            }
        }
        return false;
    }

    private static void checkLive(QueueSnapshot s, long seed, int step, String last) {
        for (String g : GROUPS) {
            if (!s.exists("group:" + g)) {
                continue;
            }
            long active = Long.parseLong(s.exists("groupmeta:" + g) ? s.hash("groupmeta:" + g).getOrDefault("active", "0") : "0");
            if (active < 2) {
                assertThat(s.exists("groups:ready") && s.readyGroups().containsKey(g))
                        .as("seed %d step %d after %s: group %s has %d ready jobs and %d active but is not in groups:ready %s",
                                seed, step, last, g, s.zset("group:" + g).size(), active,
                                s.exists("groups:ready") ? s.readyGroups() : "{}")
                        .isTrue();
            }
        }
    }
}
