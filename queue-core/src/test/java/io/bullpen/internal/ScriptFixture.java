package io.bullpen.internal;

import io.bullpen.Retention;
import io.bullpen.internal.ScriptTypes.FetchArgs;
import io.bullpen.internal.ScriptTypes.Finish;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * Seeds raw queue state with plain Redis commands and runs scripts at a fixed {@link #NOW}, so
 * contract tests can assert every key a script touched.
 */
final class ScriptFixture {
    static final long NOW = 1_700_000_000_000L;
    static final long LOCK_MS = 30_000;

    final BullpenTestContext ctx;
    final RedissonClient redisson;
    final KeyScheme k;
    final Scripts scripts;
    /** Redis's clock when the fixture was made (same host): live leases are seeded from it, so their order is as given. */
    final long redisStart = System.currentTimeMillis();

    ScriptFixture(BullpenTestContext ctx) {
        this.ctx = ctx;
        this.redisson = ctx.redisson();
        this.k = new KeyScheme("bp", ctx.queueName());
        this.scripts = new Scripts(redisson, k);
    }

    /** A job hash with the given field/value pairs (name/data/timestamp added when missing). */
    ScriptFixture job(String id, String... fieldValues) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("name", "job-" + id);
        fields.put("data", "{}");
        fields.put("timestamp", Long.toString(NOW - 1000));
        for (int i = 0; i < fieldValues.length; i += 2) {
            fields.put(fieldValues[i], fieldValues[i + 1]);
        }
        redisson.<String, String>getMap(k.job(id), StringCodec.INSTANCE).putAll(fields);
        return this;
    }

    /** The wait list exactly in this LRANGE order (the last id is taken first). */
    ScriptFixture waiting(String... ids) {
        redisson.<String>getList(k.waitList(), StringCodec.INSTANCE).addAll(List.of(ids));
        return this;
    }

    ScriptFixture zadd(String key, String id, double score) {
        redisson.<String>getScoredSortedSet(key, StringCodec.INSTANCE).add(score, id);
        return this;
    }

    ScriptFixture delayed(String id, long dueMillis) {
        return zadd(k.delayed(), id, dueMillis * 4096.0);
    }

    /**
     * An active job (leases is the set of active jobs). With {@code lockTtlMs > 0} a live lock:
     * field lock = token, and a lease on Redis's clock (the clock leases are judged by) expiring
     * {@code leaseExpiry - NOW} after {@link #redisStart}, or {@code lockTtlMs} after it when that
     * is not in the future. With {@code lockTtlMs == 0} a lapsed one: no lock field, and the lease at
     * {@code leaseExpiry} as given, which is long past on Redis's clock ({@link #NOW} is in 2023).
     */
    ScriptFixture active(String id, String token, long lockTtlMs, long leaseExpiry) {
        if (lockTtlMs > 0) {
            redisson.<String, String>getMap(k.job(id), StringCodec.INSTANCE).put(JobFields.LOCK, token);
            long ahead = leaseExpiry > NOW ? leaseExpiry - NOW : lockTtlMs;
            return zadd(k.leases(), id, redisStart + ahead);
        }
        return zadd(k.leases(), id, leaseExpiry);
    }

    /** Lets an active job's lease lapse on Redis's clock, as a dead worker's would (no-op when not active). */
    ScriptFixture expire(String id) {
        redisson.<String>getScoredSortedSet(k.leases(), StringCodec.INSTANCE).addIfExists(1, id);
        return this;
    }

    /**
     * Writes one meta field. A flow-control field also sets meta {@code flow}, as every script
     * that writes one does (readMeta reads them only while it is set).
     */
    ScriptFixture meta(String field, String value) {
        redisson.<String, String>getMap(k.meta(), StringCodec.INSTANCE).put(field, value);
        if (FLOW_FIELDS.contains(field)) {
            redisson.<String, String>getMap(k.meta(), StringCodec.INSTANCE).put(MetaFields.FLOW, "1");
        }
        return this;
    }

    private static final java.util.Set<String> FLOW_FIELDS = java.util.Set.of(MetaFields.CONCURRENCY,
            MetaFields.RATE_MAX, MetaFields.LIMITED_UNTIL, MetaFields.GROUPS, MetaFields.GROUP_SETTINGS);

    QueueSnapshot snap() {
        return ctx.snapshot(k.queue());
    }

    void assertInvariant() {
        ctx.assertInvariant(k.queue());
    }

    static FetchArgs fetch(int count) {
        return new FetchArgs(count, "w", LOCK_MS, "worker-1", 100, 100, 1);
    }

    /** A completion of a job taken with attemptsMade 0. */
    static Finish complete(String id, String token, String returnJson, Retention retention) {
        return new Finish.Completed(id, token, 1, returnJson, retention, null, null, null, 0);
    }

    /** A failure of a job taken with attemptsMade 0: failed for good or a retry, as a worker decides. */
    static Finish fail(String id, String token, String reason, int attempts, long backoffMs, boolean unrecoverable) {
        return fail(id, token, reason, attempts, backoffMs, unrecoverable, 0);
    }

    /** A failure of a job taken with {@code attemptsMadeBefore}: failed for good or a retry, as a worker decides. */
    static Finish fail(String id, String token, String reason, int attempts, long backoffMs, boolean unrecoverable,
                       int attemptsMadeBefore) {
        int attemptsMade = attemptsMadeBefore + 1;
        if (unrecoverable || attemptsMade >= attempts) {
            return new Finish.Failed(id, token, attemptsMade, reason, "trace of " + reason, 3, Retention.keepAll(), null,
                    null, null, 0);
        }
        return new Finish.Retry(id, token, attemptsMade, reason, "trace of " + reason, 3, backoffMs, false, null, null,
                Retention.keepAll(), null, 0);
    }

    static <R> R join(CompletionStage<R> stage) {
        return Futures.join(stage);
    }
}
