package io.bullpen.internal;

import io.bullpen.Retention;
import java.util.List;

/** The types of {@link QueueModel} (a job, its options, a fetch, an outcome), apart so the model stays readable. */
interface QueueModelTypes {
    /** Where a job is; mirrors the six state structures. */
    enum State { WAITING, PRIORITIZED, DELAYED, ACTIVE, COMPLETED, FAILED }

    /**
     * The options a job was added with; the model keeps them to finish the job later. expireAt: a
     * deadline in epoch ms on Redis's clock (this host's), expireAfterMs: counted from when the
     * job is due; -1 for none.
     */
    record Options(String customId, long delayMs, int priority, boolean lifo, int attempts, long backoffMs,
                   Retention onComplete, Retention onFail, String dedupId, long expireAt, long expireAfterMs) {
        ScriptTypes.NewJob toNewJob(String name) {
            return new ScriptTypes.NewJob(customId, name, "{}", optsJson(), delayMs, priority, lifo, null, dedupId, 0, "");
        }

        /**
         * The stored opts: removeOnFail (a cancel reads it from there) and the expiry, as
         * JobOptionsText writes them.
         */
        String optsJson() {
            StringBuilder b = new StringBuilder();
            if (!onFail.keepsAll()) {
                b.append("\"removeOnFail\":{");
                if (onFail.count() >= 0) {
                    b.append("\"count\":").append(onFail.count());
                }
                if (onFail.maxAgeMillis() >= 0) {
                    b.append(onFail.count() >= 0 ? "," : "").append("\"age\":").append(onFail.maxAgeMillis());
                }
                b.append("}");
            }
            if (expireAfterMs > 0) {
                b.append(b.isEmpty() ? "" : ",").append("\"expireAfter\":").append(expireAfterMs);
            }
            if (expireAt >= 0) {
                b.append(b.isEmpty() ? "" : ",").append("\"expireAt\":").append(expireAt);
            }
            return b.isEmpty() ? "" : "{" + b + "}";
        }
    }

    /** One job as the model knows it. */
    final class Job {
        final String id;
        final Options opts;
        State state;
        int attemptsMade;
        int attemptsStarted;
        Long fence;
        Long finishedOn;
        String lockToken;
        /** The reason of a cancel while active (field cancel); cleared by a retry. */
        String cancel;
        /** The priority: the added one until changePriority changes it. */
        int priority;
        /** The data (JSON): "{}" until updateData changes it. */
        String data = "{}";
        /** Field xp: the expiry deadline (Redis's clock) it was given; null without one or once dropped. */
        Long xp;
        /** Whether it failed as expired (failedReason "expired"). */
        boolean expired;

        Job(String id, Options opts) {
            this.id = id;
            this.opts = opts;
            this.priority = opts.priority();
        }

        @Override
        public String toString() {
            return id + "[" + state + ", prio=" + priority + ", lifo=" + opts.lifo() + ", attempts="
                    + attemptsMade + "/" + opts.attempts() + ", backoff=" + opts.backoffMs() + "]";
        }
    }

    /** A job taken by a fetch: its id and the lock token the script must return. */
    record Taken(String id, String lockToken) {
    }

    /**
     * What a fetch returns: the jobs taken and the next due time of a delayed job (-1 if none).
     * nextExpiry: the earliest expiry deadline left (Redis's clock, -1 if none), which the reply's
     * next due time also covers, moved to the caller's clock.
     */
    record Fetch(List<Taken> jobs, long nextDelayedDue, long nextLeaseExpiry, long nextExpiry) {
        Fetch(List<Taken> jobs, long nextDelayedDue, long nextLeaseExpiry) {
            this(jobs, nextDelayedDue, nextLeaseExpiry, -1);
        }
    }

    /** Result of an admin call that can fail with a domain error. */
    enum Outcome { OK, NOT_FOUND, NOT_IN_STATE, LOCKED }
}
