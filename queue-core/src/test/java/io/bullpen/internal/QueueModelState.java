package io.bullpen.internal;

import static io.bullpen.internal.QueueModelTest.LOCK_MS;
import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.JobCounts;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

/** {@link QueueModelTest}'s check after every step: Redis's state against the model's. */
final class QueueModelState {
    private QueueModelState() {
    }

    /**
     * Every state structure (orders and scores included), getCounts, the deduplication keys and
     * the compared fields of every job hash equal the model's; the queue invariant holds.
     */
    static void assertMatches(BullpenTestContext ctx, String queue, Scripts scripts, QueueModel model,
            Function<String, Supplier<String>> desc) {
        ctx.assertInvariant(queue);
        JobCounts counts = Futures.join(scripts.getCounts());
        assertThat(counts).as(desc.apply("getCounts")).isEqualTo(model.counts());

        QueueSnapshot s = ctx.snapshot(queue);
        assertThat(s.waiting()).as(desc.apply("wait list (LRANGE order)")).containsExactlyElementsOf(model.waiting());
        assertThat(s.prioritized()).as(desc.apply("prioritized (ordered, with scores)"))
                .containsExactlyEntriesOf(model.prioritized());
        assertThat(s.delayed()).as(desc.apply("delayed (ordered, with scores)")).containsExactlyEntriesOf(model.delayed());
        assertThat(new TreeSet<>(s.active())).as(desc.apply("active (as a set)")).isEqualTo(model.active());
        assertThat(s.exists("active")).as(desc.apply("no active list: leases is the set of active jobs")).isFalse();
        // Leases: the model's ids; each expiry on Redis's clock, at most one lock duration away
        // (the model's take times are the settable clock's, so it cannot give the scores).
        assertThat(s.leases().keySet()).as(desc.apply("leases")).isEqualTo(model.leases().keySet());
        long redisNow = System.currentTimeMillis();
        assertThat(s.leases().values()).as(desc.apply("lease expiries (Redis clock)"))
                .allSatisfy(expiry -> assertThat(expiry).isBetween((double) redisNow, (double) redisNow + LOCK_MS));
        assertThat(s.completed()).as(desc.apply("completed (ordered, with scores)"))
                .containsExactlyEntriesOf(model.completed());
        assertThat(s.failed()).as(desc.apply("failed (ordered, with scores)")).containsExactlyEntriesOf(model.failed());
        assertThat(new TreeSet<>(s.jobIds())).as(desc.apply("job hashes")).isEqualTo(model.jobIds());
        assertThat(s.meta().containsKey("paused")).as(desc.apply("meta paused flag")).isEqualTo(model.isPaused());
        Map<String, String> dedupKeys = new TreeMap<>();
        for (String key : s.keys()) {
            if (key.startsWith("dedup:")) {
                dedupKeys.put(key.substring("dedup:".length()), s.string(key));
            }
        }
        assertThat(dedupKeys).as(desc.apply("deduplication keys (id -> owner)")).isEqualTo(model.dedupOwners());
        Map<String, Double> expiry = new TreeMap<>();
        model.expiry.forEach((id, deadline) -> expiry.put(id, (double) deadline));
        assertThat(new TreeMap<>(s.zset("expiry"))).as(desc.apply("expiry set (id -> deadline): unstarted jobs only"))
                .isEqualTo(expiry);
        if (!expiry.isEmpty()) {
            assertThat(s.meta()).as(desc.apply("meta expiry flag while the set holds a deadline")).containsKey("expiry");
        }

        for (QueueModel.Job j : model.jobs().values()) {
            Map<String, String> hash = s.job(j.id);
            Map<String, String> actual = new TreeMap<>();
            actual.put("atm", hash.getOrDefault("atm", "0"));
            actual.put("ats", hash.getOrDefault("ats", "0"));
            // The fence is in the lock token (compared below) and in the take's reply, not stored.
            actual.put("fence", hash.get("fence"));
            actual.put("finishedOn", hash.get("finishedOn"));
            actual.put("lock", s.lock(j.id));
            actual.put("priority", hash.getOrDefault("priority", "0"));
            actual.put("cancel", hash.get("cancel"));
            actual.put("dedupId", hash.get("dedupId"));
            actual.put("data", hash.get("data"));
            actual.put("xp", hash.get("xp"));
            actual.put("expired", Boolean.toString("expired".equals(hash.get("failedReason"))));
            Map<String, String> expected = new TreeMap<>();
            expected.put("atm", Integer.toString(j.attemptsMade));
            expected.put("ats", Integer.toString(j.attemptsStarted));
            expected.put("fence", null);
            expected.put("finishedOn", j.finishedOn == null ? null : Long.toString(j.finishedOn));
            expected.put("lock", j.lockToken);
            expected.put("priority", Integer.toString(j.priority));
            expected.put("cancel", j.cancel);
            expected.put("dedupId", j.opts.dedupId());
            expected.put("data", j.data);
            expected.put("xp", j.xp == null ? null : Long.toString(j.xp));
            expected.put("expired", Boolean.toString(j.expired));
            assertThat(actual).as(desc.apply("fields of job " + j.id)).isEqualTo(expected);
        }
    }
}
