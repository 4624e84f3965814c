package io.bullpen.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.internal.ScriptTypes.FetchResult;
import java.util.ArrayList;
import java.util.List;
import org.redisson.api.RScoredSortedSet;
import org.redisson.client.codec.StringCodec;

/**
 * {@link QueueModelTest}'s liveness side: two idle workers that wait as a real worker's fetch
 * loop does, and the check that no job the model says may run is left without one of them
 * waking for it.
 *
 * <p>An idle worker took fewer jobs than it asked for at its last fetch and now waits for either
 * of the two things a real one waits on: a member in the marker ZSET (its BZPOPMIN would return
 * at once: any member is a signal) or the wake time that fetch's reply gave (next delayed job,
 * next lease expiry, a limit's next start). The poll a real worker falls back on after its block
 * timeout is not counted: a job that only that poll would find is a liveness bug.
 *
 * <p>After every step: when the model says a take would get a job now, and a worker is idle,
 * the marker holds a member or an idle worker's wake time has come. When such a worker acts, it
 * pops the marker (ZPOPMIN) or goes by its wake time, fetches through moveToActive as the
 * fetch loop does, and its take must return a job if the model said one may run.
 */
final class QueueModelLiveness {
    /** An idle worker of the queue; busy (it fetches when it next acts) until a fetch of its comes up short. */
    static final class Sleeper {
        final String name;
        boolean idle;
        /** When its last fetch said to look again (epoch ms, caller's clock), -1 for never. */
        long wakeAt = -1;

        Sleeper(String name) {
            this.name = name;
        }

        @Override
        public String toString() {
            return name + (idle ? "[idle, wake at " + wakeAt + "]" : "[busy]");
        }
    }

    private final QueueModelRun run;
    private final RScoredSortedSet<String> marker;
    final List<Sleeper> sleepers = List.of(new Sleeper("idle-1"), new Sleeper("idle-2"));

    QueueModelLiveness(QueueModelRun run) {
        this.run = run;
        this.marker = run.ctx.redisson().getScoredSortedSet(new KeyScheme("bp", run.queue).marker(), StringCodec.INSTANCE);
    }

    /** One idle worker acts: wakes if the marker or its timer says so and fetches, or sleeps on. */
    void act() {
        Sleeper s = sleepers.get(run.rnd.nextInt(sleepers.size()));
        long now = run.now();
        String how;
        if (s.idle) {
            if (marker.pollFirst() != null) {
                how = "marker";
            } else if (s.wakeAt > 0 && s.wakeAt <= now) {
                how = "timer";
            } else {
                run.op = s.name + " sleeps on (marker empty, wake at " + run.rel(s.wakeAt) + ")";
                run.count("idle.sleeps");
                return;
            }
        } else {
            how = "free slot";
        }
        int count = 1 + run.rnd.nextInt(2);
        FetchResult r = run.take(count, 0, s.name + " woken by " + how + ": ");
        // Judged at the take's Redis time: a job the take fails as expired does not count.
        boolean mayRun = run.takeMayRun;
        run.count("idle.wake." + how + (r.jobs().isEmpty() ? ".none" : ".took"));
        if (mayRun) {
            assertThat(r.jobs()).as(run.desc(s.name + "'s take when the model says a job may run")).isNotEmpty();
        }
        s.idle = r.jobs().size() < count;
        s.wakeAt = s.idle ? nextWake(r) : -1;
    }

    /** As the fetch loop: the earlier of the next delayed due (which covers limits) and the next lease expiry. */
    private static long nextWake(FetchResult r) {
        long due = r.nextDelayedDue();
        long lease = r.nextLeaseExpiry();
        if (due < 0) {
            return lease;
        }
        return lease < 0 ? due : Math.min(due, lease);
    }

    /** After every step: a job that may run has an idle worker woken for it (when one is idle). */
    void check() {
        long now = run.now();
        List<Sleeper> idle = sleepers.stream().filter(s -> s.idle).toList();
        if (idle.isEmpty() || !run.model.runnable(now)) {
            return;
        }
        boolean timer = idle.stream().anyMatch(s -> s.wakeAt > 0 && s.wakeAt <= now);
        if (timer) {
            run.count("live.byTimer");
            return;
        }
        List<String> members = new ArrayList<>(marker.readAll());
        run.count(members.isEmpty() ? "live.none" : "live.byMarker");
        assertThat(members).as(run.desc("a job may run (wait " + run.model.waiting() + ", prioritized "
                + run.model.prioritized().keySet() + ", delayed " + run.model.delayed() + ") and " + idle
                + " wait: the marker must wake one")).isNotEmpty();
    }
}
