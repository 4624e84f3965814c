package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.NOW;
import static io.bullpen.internal.ScriptFixture.complete;
import static io.bullpen.internal.ScriptFixture.fail;
import static io.bullpen.internal.ScriptFixture.fetch;
import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.BullpenException;
import io.bullpen.JobState;
import io.bullpen.Retention;
import io.bullpen.internal.ScriptTypes.FetchResult;
import io.bullpen.internal.ScriptTypes.NewJob;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random operations on a queue mixing grouped, prioritized, delayed and plain jobs with group
 * settings changing under them; after every step the queue invariant holds (every job in exactly
 * one place, the group lines included; the grouped ready count and each group's active exact) and no
 * step raises a group's active jobs above its concurrency (takes sometimes take ahead). The take order is not modelled here (fair
 * queueing has its own tests); {@link QueueModelTest} models the ungrouped queue exactly.
 */
@BullpenTest
class GroupRandomOperationsTest {
    private static final String[] GROUPS = {"a", "b", "c", "d"};

    static Stream<Long> seeds() {
        return Stream.of(1L, 2L, 3L, 4L, 5L);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void randomOperationsKeepTheGroupLinesAndCountersExact(long seed, BullpenTestContext ctx) {
        ScriptFixture f = new ScriptFixture(ctx);
        GroupScripts groups = new GroupScripts(f.redisson, f.k);
        AdminScripts admin = new AdminScripts(f.redisson, f.k);
        Random random = new Random(seed);
        Map<String, String> held = new LinkedHashMap<>();
        Map<String, Integer> concurrency = new LinkedHashMap<>();
        Map<String, Integer> activeBefore = new LinkedHashMap<>();
        long now = NOW;
        for (int step = 0; step < 200; step++) {
            now += random.nextInt(50);
            int op = random.nextInt(12);
            String group = GROUPS[random.nextInt(GROUPS.length)];
            try {
                switch (op) {
                    case 0, 1, 2 -> {
                        List<NewJob> jobs = new ArrayList<>();
                        for (int i = random.nextInt(3) + 1; i > 0; i--) {
                            String g = random.nextInt(4) == 0 ? null : GROUPS[random.nextInt(GROUPS.length)];
                            jobs.add(new NewJob(null, "j", "{}", "", random.nextInt(5) == 0 ? 30 : 0,
                                    random.nextInt(4) == 0 ? 2 : 0, false, g));
                        }
                        join(f.scripts.addJob(now, jobs));
                    }
                    case 3, 4 -> {
                        // Some takes also take ahead (held jobs are leased like running ones; any group
                        // setting turns it off).
                        FetchResult r = join(f.scripts.moveToActive(now, fetch(random.nextInt(3) + 1).withAhead(random.nextInt(3))));
                        r.jobs().forEach(j -> held.put(j.id(), j.lockToken()));
                    }
                    case 5, 6 -> finishOne(f, held, random, now);
                    case 7 -> {
                        if (!held.isEmpty()) {
                            String id = held.keySet().iterator().next();
                            join(f.scripts.moveToWait(id, held.remove(id)));
                        }
                    }
                    case 8 -> {
                        // A crashed worker: its lock vanishes, the lease expires, a fetch recovers it.
                        if (!held.isEmpty()) {
                            String id = held.keySet().iterator().next();
                            held.remove(id);
                            f.expire(id);
                            now += ScriptFixture.LOCK_MS + 1;
                            join(f.scripts.moveStalledJobsToWait(now, 5, 100));
                        }
                    }
                    case 9 -> {
                        int c = random.nextInt(3) + 1;
                        concurrency.put(group, c);
                        join(groups.setGroupSettings(group, "concurrency", Integer.toString(c)));
                    }
                    case 10 -> join(groups.setGroupSettings(group, "paused", random.nextBoolean() ? "1" : ""));
                    default -> {
                        List<RawJob> waiting = join(f.scripts.getJobs(JobState.WAITING, 0, -1));
                        if (!waiting.isEmpty()) {
                            join(f.scripts.removeJob(waiting.get(random.nextInt(waiting.size())).id()));
                        }
                        join(admin.promoteJobs(2));
                    }
                }
            } catch (BullpenException expected) {
                // A lost lock or a raced state is an answer, not a broken queue.
            }
            f.assertInvariant();
            QueueSnapshot snap = f.snap();
            for (Map.Entry<String, Integer> c : concurrency.entrySet()) {
                int active = Integer.parseInt(snap.hash("groupmeta:" + c.getKey()).getOrDefault("active", "0"));
                int before = activeBefore.getOrDefault(c.getKey(), 0);
                // No step raises a group's active above its concurrency. Lowering the concurrency
                // does not stop jobs already running, nor does a first setting stop the jobs taken
                // (ahead, too) while the group had none.
                if (active > before) {
                    assertThat(active).as("active of %s at step %d (was %d)", c.getKey(), step, before)
                            .isLessThanOrEqualTo(c.getValue());
                }
            }
            for (String g : GROUPS) {
                activeBefore.put(g, Integer.parseInt(snap.hash("groupmeta:" + g).getOrDefault("active", "0")));
            }
        }
    }

    private static void finishOne(ScriptFixture f, Map<String, String> held, Random random, long now) {
        if (held.isEmpty()) {
            return;
        }
        String id = new ArrayList<>(held.keySet()).get(random.nextInt(held.size()));
        String token = held.remove(id);
        if (random.nextBoolean()) {
            join(f.scripts.moveToFinished(now, fetch(0), complete(id, token, "null", Retention.keepAll())));
        } else {
            join(f.scripts.moveToFinished(now, fetch(0), fail(id, token, "boom", 3, random.nextBoolean() ? 20 : 0, false)));
        }
    }
}
