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
     * An active job: a lease expiring at {@code leaseExpiry} (leases is the set of active jobs),
     * and a lock when {@code lockTtlMs > 0}.
     */
    ScriptFixture active(String id, String token, long lockTtlMs, long leaseExpiry) {
        if (lockTtlMs > 0) {
            redisson.<String>getBucket(k.lock(id), StringCodec.INSTANCE).set(token, java.time.Duration.ofMillis(lockTtlMs));
        }
        return zadd(k.leases(), id, leaseExpiry);
    }

    ScriptFixture meta(String field, String value) {
        redisson.<String, String>getMap(k.meta(), StringCodec.INSTANCE).put(field, value);
        return this;
    }

    QueueSnapshot snap() {
        return ctx.snapshot(k.queue());
    }

    void assertInvariant() {
        ctx.assertInvariant(k.queue());
    }

    static FetchArgs fetch(int count) {
        return new FetchArgs(count, "w", LOCK_MS, "worker-1", 100, 100, 1);
    }

    static Finish complete(String id, String token, String returnJson, Retention retention) {
        return new Finish(id, token, true, returnJson, null, 10, 1, 0, false, false, retention);
    }

    static Finish fail(String id, String token, String reason, int attempts, long backoffMs, boolean unrecoverable) {
        return new Finish(id, token, false, reason, "trace of " + reason, 3, attempts, backoffMs, unrecoverable, false,
                Retention.keepAll());
    }

    static <R> R join(CompletionStage<R> stage) {
        return Futures.join(stage);
    }
}
