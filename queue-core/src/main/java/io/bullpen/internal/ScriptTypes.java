package io.bullpen.internal;

import io.bullpen.JobState;
import io.bullpen.Retention;
import java.util.List;
import java.util.Map;

/** Argument and result records of {@link Scripts}. Not API. */
public final class ScriptTypes {
    private ScriptTypes() {
    }

    /**
     * One job for addJob: options already encoded; {@code customId} null for an automatic id,
     * {@code group} null for none.
     */
    public record NewJob(String customId, String name, String data, String opts, long delayMs, int priority, boolean lifo,
            String group, String dedupId, long dedupTtlMs, String dedupFlags, long awaitMs) {
        /**
         * A job nobody awaits at its add ({@code dedupId} null for none; {@code dedupTtlMs} 0 for
         * none; {@code dedupFlags} "d" debounce, "k" keepLastIfActive).
         */
        public NewJob(String customId, String name, String data, String opts, long delayMs, int priority, boolean lifo,
                String group, String dedupId, long dedupTtlMs, String dedupFlags) {
            this(customId, name, data, opts, delayMs, priority, lifo, group, dedupId, dedupTtlMs, dedupFlags, 0);
        }

        /** A job without a group. */
        public NewJob(String customId, String name, String data, String opts, long delayMs, int priority, boolean lifo) {
            this(customId, name, data, opts, delayMs, priority, lifo, null);
        }

        /** A job without deduplication that nobody awaits at its add. */
        public NewJob(String customId, String name, String data, String opts, long delayMs, int priority, boolean lifo,
                String group) {
            this(customId, name, data, opts, delayMs, priority, lifo, group, null, 0, "", 0);
        }
    }

    /**
     * addJob's answer for one job: its id and whether it was added (false: duplicate custom id,
     * or deduplicated: then {@code id} is the owner of the deduplication id).
     */
    public record AddResult(String id, boolean added, boolean deduplicated) {
        /** Added, or a duplicate custom id. */
        public AddResult(String id, boolean added) {
            this(id, added, false);
        }
    }

    /** A job as read from Redis: its id, raw hash, and the lock token when a worker just took it. */
    public record RawJob(String id, Map<String, String> hash, String lockToken) {
        /**
         * @return the job's attemptsMade, or -1 when the field is missing or unreadable (a
         *     {@link Finish} with -1 has the script read it)
         */
        public int attemptsMade() {
            String v = hash.get(JobFields.ATTEMPTS_MADE);
            if (v == null) {
                return 0;
            }
            try {
                return Integer.parseInt(v);
            } catch (NumberFormatException e) {
                return -1;
            }
        }
    }

    /**
     * How a worker takes jobs (moveToActive, and moveToFinished's fetch of the next ones).
     *
     * @param count jobs to take at most
     * @param token the worker's token; each lock token is {@code token + ":" + fence}
     * @param lockMs lock duration
     * @param workerName stored as processedBy
     * @param promoteLimit max delayed jobs promoted per call
     * @param stalledLimit max expired leases examined per call (0 = none)
     * @param maxStalled a job stalling more often than this fails
     * @param cleanLimit janitor: oldest finished jobs examined per set for age retention (0 = skip)
     * @param ahead take-ahead: jobs to take beyond {@code count}, which the worker buffers (0 = none;
     *     the script ignores it on a queue with a limit or groups)
     */
    public record FetchArgs(int count, String token, long lockMs, String workerName, int promoteLimit,
                            int stalledLimit, int maxStalled, int cleanLimit, int ahead) {
        /** Arguments taking no job ahead. */
        public FetchArgs(int count, String token, long lockMs, String workerName, int promoteLimit,
                         int stalledLimit, int maxStalled, int cleanLimit) {
            this(count, token, lockMs, workerName, promoteLimit, stalledLimit, maxStalled, cleanLimit, 0);
        }

        /** Arguments without a janitor pass. */
        public FetchArgs(int count, String token, long lockMs, String workerName, int promoteLimit,
                         int stalledLimit, int maxStalled) {
            this(count, token, lockMs, workerName, promoteLimit, stalledLimit, maxStalled, 0);
        }

        /** @return the same arguments taking {@code n} jobs */
        public FetchArgs withCount(int n) {
            return new FetchArgs(n, token, lockMs, workerName, promoteLimit, stalledLimit, maxStalled, cleanLimit, ahead);
        }

        /** @return the same arguments with a janitor batch of {@code limit} (0 = skip) */
        public FetchArgs withCleanLimit(int limit) {
            return new FetchArgs(count, token, lockMs, workerName, promoteLimit, stalledLimit, maxStalled, limit, ahead);
        }

        /** @return the same arguments taking {@code n} jobs ahead as well */
        public FetchArgs withAhead(int n) {
            return new FetchArgs(count, token, lockMs, workerName, promoteLimit, stalledLimit, maxStalled, cleanLimit, n);
        }
    }

    /**
     * Jobs taken, when an idle worker must look again (epoch ms, -1 = never), and the stalled
     * jobs this call recovered to wait or failed.
     */
    public record FetchResult(List<RawJob> jobs, long nextDelayedDue, long nextLeaseExpiry,
                              List<String> recoveredStalled, List<String> failedStalled,
                              List<SchedulerUpdate> schedulerUpdates) {
        /** A result without stalled jobs or scheduler work. */
        public FetchResult(List<RawJob> jobs, long nextDelayedDue, long nextLeaseExpiry) {
            this(jobs, nextDelayedDue, nextLeaseExpiry, List.of(), List.of(), List.of());
        }
    }

    /**
     * Scheduler work a fetch hands to the worker: precompute the run after the pending iteration
     * ({@code pendingJobId} set, due {@code due}), or add the next iteration of a scheduler
     * awaiting repair ({@code pendingJobId} empty; {@code previousDue} is its last run).
     */
    public record SchedulerUpdate(String schedulerId, String pendingJobId, long due, String repeatJson, long previousDue) {
    }

    /**
     * The outcome of an active job for moveToFinished.
     *
     * @param jobId the job
     * @param lockToken the token the worker holds
     * @param completed true for success, false for failure
     * @param value return value JSON (completed) or failed reason (failed)
     * @param stacktrace one stack trace to record, or null
     * @param stackLimit stack traces kept
     * @param attempts the job's max attempts
     * @param backoffMs retry delay (0 = straight back to wait)
     * @param unrecoverable fail now whatever attempts are left
     * @param lifo a retry to wait runs next
     * @param retention retention of the set the job lands in
     * @param attemptsMade the job's attemptsMade when it was taken (the lock holder's view, which
     *     nothing else changes while the lock is held), or -1 to have the script read it: knowing
     *     it saves the script a command per job
     * @param limitScope null for a completed or failed attempt; "queue" or "group" for a processor
     *     that threw {@code RateLimitedException} (value is then the delay in ms), see {@link #limited}
     * @param group the job's group (field {@code grp}) as the worker took it, "" for none, or null
     *     to have the script read it: knowing it saves the script a command per grouped job
     * @param dedupId the job's deduplication id as the worker read it at take, null for none
     * @param stagedData a step job's new data (JSON) written with this outcome, null = unchanged
     * @param stepDueMs for a {@link #step}: when the job is due again (epoch ms); -1 otherwise
     * @param awaitMs 0, or the job's awaited field as the worker read it at take: its result is
     *     kept this long for awaiters (see {@link #awaited})
     * @param hasParent the job has a parent in a flow (its par field, read at take): its end is
     *     told to the parents; false costs the finish nothing (see {@link #withParent})
     */
    public record Finish(String jobId, String lockToken, boolean completed, String value, String stacktrace,
                         int stackLimit, int attempts, long backoffMs, boolean unrecoverable, boolean lifo,
                         Retention retention, int attemptsMade, String limitScope, String group, String dedupId,
                         String stagedData, long stepDueMs, long awaitMs, boolean hasParent) {
        /** A result of a job without a parent. */
        public Finish(String jobId, String lockToken, boolean completed, String value, String stacktrace,
                      int stackLimit, int attempts, long backoffMs, boolean unrecoverable, boolean lifo,
                      Retention retention, int attemptsMade, String limitScope, String group, String dedupId,
                      String stagedData, long stepDueMs, long awaitMs) {
            this(jobId, lockToken, completed, value, stacktrace, stackLimit, attempts, backoffMs, unrecoverable, lifo,
                    retention, attemptsMade, limitScope, group, dedupId, stagedData, stepDueMs, awaitMs, false);
        }

        /**
         * @param parent whether the job has a parent in a flow, as read at take
         * @return this result, flagged so that its finish tells the parents (and only then looks for them)
         */
        public Finish withParent(boolean parent) {
            if (parent == hasParent) {
                return this;
            }
            return new Finish(jobId, lockToken, completed, value, stacktrace, stackLimit, attempts, backoffMs,
                    unrecoverable, lifo, retention, attemptsMade, limitScope, group, dedupId, stagedData, stepDueMs,
                    awaitMs, parent);
        }
        /** A result whose group the script reads itself, without a deduplication id to release or staged data. */
        public Finish(String jobId, String lockToken, boolean completed, String value, String stacktrace,
                      int stackLimit, int attempts, long backoffMs, boolean unrecoverable, boolean lifo,
                      Retention retention, int attemptsMade, String limitScope) {
            this(jobId, lockToken, completed, value, stacktrace, stackLimit, attempts, backoffMs, unrecoverable, lifo,
                    retention, attemptsMade, limitScope, null, null, null, -1, 0);
        }

        /**
         * @param awaitedField the job's {@code awaited} field as read at take (null = not awaited)
         * @return this result, carrying the flag so the finish keeps the result without reading the job
         */
        public Finish awaited(String awaitedField) {
            if (awaitedField == null || limitScope != null) {
                return this;
            }
            return new Finish(jobId, lockToken, completed, value, stacktrace, stackLimit, attempts, backoffMs,
                    unrecoverable, lifo, retention, attemptsMade, limitScope, group, dedupId, stagedData, stepDueMs,
                    Long.parseLong(awaitedField), hasParent);
        }

        /** A completed or failed result. */
        public Finish(String jobId, String lockToken, boolean completed, String value, String stacktrace,
                      int stackLimit, int attempts, long backoffMs, boolean unrecoverable, boolean lifo,
                      Retention retention, int attemptsMade) {
            this(jobId, lockToken, completed, value, stacktrace, stackLimit, attempts, backoffMs, unrecoverable, lifo,
                    retention, attemptsMade, null);
        }

        /** A result whose attemptsMade the script reads itself. */
        public Finish(String jobId, String lockToken, boolean completed, String value, String stacktrace,
                      int stackLimit, int attempts, long backoffMs, boolean unrecoverable, boolean lifo,
                      Retention retention) {
            this(jobId, lockToken, completed, value, stacktrace, stackLimit, attempts, backoffMs, unrecoverable, lifo,
                    retention, -1);
        }

        /**
         * The processor threw {@code RateLimitedException}: the job goes back to the front of its
         * line without using an attempt, and the queue (or the job's group) takes no job for
         * {@code delayMs} (moveToFinished's "limited" outcome).
         *
         * @param id the job
         * @param token the lock token of the attempt
         * @param delayMs how long the queue or group is held back, >= 1
         * @param group true to limit only the job's group (the queue for a job without one)
         * @return the result to record
         */
        public static Finish limited(String id, String token, long delayMs, boolean group) {
            return new Finish(id, token, false, Long.toString(delayMs), null, 0, 0, 0, false, false, Retention.keepAll(),
                    -1, group ? "group" : "queue");
        }

        /**
         * @param takenGroup the job's group as the take's reply gave it (field {@code grp}),
         *     null for none
         * @return this result, carrying the group so the script need not read it
         */
        public Finish withGroup(String takenGroup) {
            return new Finish(jobId, lockToken, completed, value, stacktrace, stackLimit, attempts, backoffMs,
                    unrecoverable, lifo, retention, attemptsMade, limitScope, takenGroup == null ? "" : takenGroup, dedupId,
                    stagedData, stepDueMs, awaitMs, hasParent);
        }

        /**
         * A step job asked for a delay: the attempt ends without using one, the job goes to
         * delayed, due at {@code dueMs}, with its staged data (moveToFinished's "step" outcome).
         *
         * @param id the job
         * @param token the lock token of the attempt
         * @param dueMs when the job is due again, epoch ms
         * @param stagedData the new data as JSON, or null to keep the data
         * @return the result to record
         */
        public static Finish step(String id, String token, long dueMs, String stagedData) {
            return new Finish(id, token, false, null, null, 0, 0, 0, false, false, Retention.keepAll(), -1, null,
                    null, null, stagedData, dueMs, 0);
        }

        /** @return true for a {@link #step} result */
        public boolean step() {
            return stepDueMs >= 0;
        }

        /**
         * @param data a step job's staged data (JSON), or null for none
         * @return this result, writing {@code data} as the job's data when it lands
         */
        public Finish withStagedData(String data) {
            return data == null ? this : new Finish(jobId, lockToken, completed, value, stacktrace, stackLimit, attempts,
                    backoffMs, unrecoverable, lifo, retention, attemptsMade, limitScope, group, dedupId, data, stepDueMs, awaitMs,
                    hasParent);
        }

        /** @return true for a {@link #limited} result */
        public boolean limited() {
            return limitScope != null;
        }

        /** The longest retry delay recorded (a backoff may compute more). */
        private static final long MAX_BACKOFF_MS = java.time.Duration.ofDays(3650).toMillis();

        /**
         * A successful attempt.
         *
         * @param id the job
         * @param token the lock token of the attempt
         * @param attemptsMadeBefore the job's attemptsMade when it was taken, or -1 to have the script read it
         * @param resultJson the return value as JSON
         * @param options the job's options (attempts, lifo, removeOnComplete)
         * @param stackLimit stack traces kept per job
         * @return the result to record
         */
        public static Finish completed(String id, String token, int attemptsMadeBefore, String resultJson,
                                       io.bullpen.JobOptions options, int stackLimit) {
            return new Finish(id, token, true, resultJson, null, stackLimit, options.attempts(), 0, false, options.lifo(),
                    options.removeOnComplete(), attemptsMadeBefore, null, null, dedupId(options), null, -1, 0);
        }

        /**
         * A failed attempt; the retry delay comes from the job's backoff.
         *
         * @param id the job
         * @param token the lock token of the attempt
         * @param attemptsMadeBefore the job's attemptsMade when it was taken, or -1 to have the script read it
         * @param reason the failed reason
         * @param stacktrace the stack trace to record, or null
         * @param unrecoverable fail now whatever attempts are left
         * @param options the job's options (attempts, backoff, lifo, removeOnFail)
         * @param stackLimit stack traces kept per job
         * @return the result to record
         */
        public static Finish failed(String id, String token, int attemptsMadeBefore, String reason, String stacktrace,
                                    boolean unrecoverable, io.bullpen.JobOptions options, int stackLimit) {
            long backoffMs = options.backoff()
                    .map(b -> b.delay(attemptsMadeBefore + 1))
                    .map(d -> Math.min(d.toMillis(), MAX_BACKOFF_MS))
                    .orElse(0L);
            return new Finish(id, token, false, reason, stacktrace, stackLimit, options.attempts(), backoffMs,
                    unrecoverable, options.lifo(), options.removeOnFail(), attemptsMadeBefore, null, null, dedupId(options), null, -1, 0);
        }

        /**
         * The deduplication id the finish releases, from the options the worker read with the job
         * at take (its stored opts): no read on the finish path. None in ttl mode without
         * keepLastIfActive: that key expires on its own, the end has nothing to do.
         */
        private static String dedupId(io.bullpen.JobOptions options) {
            return options.deduplication()
                    .filter(d -> d.ttlDuration().isEmpty() || d.keepsLastIfActive())
                    .map(io.bullpen.Deduplication::id).orElse(null);
        }
    }

    /**
     * A buffered job's processor started (take-ahead): moveToFinished's "started" record clears its
     * {@link JobFields#AHEAD} mark, lock-checked, so a crash from now on counts as a stall.
     *
     * @param jobId the job
     * @param lockToken the token the worker holds
     */
    public record Started(String jobId, String lockToken) {
    }

    /** Where a finished job went, and the next jobs taken in the same call. */
    public record FinishResult(JobState state, FetchResult next) {
    }

    /**
     * One result of a batched moveToFinished: where the job went, or why the result was rejected.
     *
     * @param state the job's new state, null when rejected
     * @param error the rejection (for example a {@code LockLostException}), null when applied
     */
    public record FinishOutcome(JobState state, RuntimeException error) {
    }

    /** The outcomes of a batched moveToFinished, in the order sent, and the jobs it took. */
    public record FinishBatchResult(List<FinishOutcome> outcomes, FetchResult next) {
    }

    /** Jobs moveStalledJobsToWait recovered to wait and those it failed. */
    public record StalledResult(List<String> recovered, List<String> failed) {
    }
}
