package io.bullpen.internal;

import io.bullpen.Retention;
import java.util.List;

/** The types of {@link QueueModel} (a job, its options, a fetch, an outcome), apart so the model stays readable. */
interface QueueModelTypes {
    /** Where a job is; mirrors the six state structures. */
    enum State { WAITING, PRIORITIZED, DELAYED, ACTIVE, COMPLETED, FAILED }

    /** The options a job was added with; the model keeps them to finish the job later. */
    record Options(String customId, long delayMs, int priority, boolean lifo, int attempts, long backoffMs,
                   Retention onComplete, Retention onFail, String dedupId) {
        ScriptTypes.NewJob toNewJob(String name) {
            return new ScriptTypes.NewJob(customId, name, "{}", optsJson(), delayMs, priority, lifo, null, dedupId, 0, "");
        }

        /** The stored opts: removeOnFail only (a cancel reads it from there), as JobOptionsText writes it. */
        String optsJson() {
            if (onFail.keepsAll()) {
                return "";
            }
            StringBuilder b = new StringBuilder("{\"removeOnFail\":{");
            if (onFail.count() >= 0) {
                b.append("\"count\":").append(onFail.count());
            }
            if (onFail.maxAgeMillis() >= 0) {
                b.append(onFail.count() >= 0 ? "," : "").append("\"age\":").append(onFail.maxAgeMillis());
            }
            return b.append("}}").toString();
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

    /** What a fetch returns: the jobs taken and the next due time of a delayed job (-1 if none). */
    record Fetch(List<Taken> jobs, long nextDelayedDue, long nextLeaseExpiry) {
    }

    /** Result of an admin call that can fail with a domain error. */
    enum Outcome { OK, NOT_FOUND, NOT_IN_STATE, LOCKED }
}
