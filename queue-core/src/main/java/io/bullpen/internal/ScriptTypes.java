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

    /**
     * addCoalesced's answer for one job: its {@link AddResult}, or the error that answers this job
     * alone (a group at its maxSize); exactly one is non-null.
     */
    public record AddOutcome(AddResult result, RuntimeException error) {
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
     * The outcome of an active job for moveToFinished, decided here: the script applies it, and may
     * only refuse it (the lock is lost) or, for a job cancelled while active, turn a {@link Retry},
     * {@link Failed}, {@link Limited}, {@link Step} or {@link WaitChildren} into failed for good ("cancelled"). Each kind
     * carries exactly the fields of its record (moveToFinished's {@code Records:}; see
     * {@link FinishRecords}). Every kind carries the job's group as the worker took it: "" for none,
     * or null to have the script read it (knowing it saves the script a command per grouped job).
     */
    public sealed interface Finish permits Finish.Completed, Finish.Failed, Finish.Retry, Finish.Step, Finish.Limited,
            Finish.WaitChildren {
        /** The longest retry delay recorded (a backoff may compute more). */
        long MAX_BACKOFF_MS = java.time.Duration.ofDays(3650).toMillis();

        /** @return the job */
        String jobId();

        /** @return the lock token of the attempt */
        String lockToken();

        /** @return the job's group as taken ("" = none), or null for the script to read it */
        String group();

        /**
         * @param takenGroup the job's group as the take's reply gave it (field {@code grp}), null for none
         * @return this outcome, carrying the group so the script need not read it
         */
        Finish withGroup(String takenGroup);

        /**
         * @param awaitedField the job's {@code awaited} field as read at take (null = not awaited)
         * @return this outcome, keeping the job's result that long for awaiters when it ends (no
         *     change for a kind that does not end the job)
         */
        default Finish awaited(String awaitedField) {
            return this;
        }

        /**
         * @param data a step job's staged data (JSON), or null for none
         * @return this outcome, writing {@code data} as the job's data when it lands (no change for
         *     a kind that carries none)
         */
        default Finish withStagedData(String data) {
            return this;
        }

        /**
         * @param parent whether the job has a parent in a flow (its par field, read at take)
         * @return this outcome, flagged so that the job's end tells its parents and only then looks
         *     for them (no change for a kind that does not end the job)
         */
        default Finish withParent(boolean parent) {
            return this;
        }

        /**
         * @param children the children the processor added, encoded for the script (see
         *     {@code FlowPlan#encodeChildren}), or null for none
         * @return this outcome, recording those children with it (they do not hold the job); a
         *     kind that cannot carry them (a failure, a retry, a limited put-back) drops them
         */
        default Finish withChildren(String children) {
            return this;
        }

        /** @return the children this outcome records, encoded for the script; null for none */
        default String children() {
            return null;
        }

        /** @return true for a {@link WaitChildren} outcome */
        default boolean waitChildren() {
            return this instanceof WaitChildren;
        }

        /** @return true for a {@link Limited} outcome */
        default boolean limited() {
            return this instanceof Limited;
        }

        /** @return true for a {@link Step} outcome */
        default boolean step() {
            return this instanceof Step;
        }

        /**
         * A successful attempt.
         *
         * @param id the job
         * @param token the lock token of the attempt
         * @param attemptsMadeBefore the job's attemptsMade when it was taken (the lock holder's view,
         *     which nothing else changes while the lock is held)
         * @param resultJson the return value as JSON
         * @param options the job's options (removeOnComplete, deduplication)
         * @param stackLimit unused by a completion; kept so both factories read alike
         * @return the outcome to record
         */
        static Finish completed(String id, String token, int attemptsMadeBefore, String resultJson,
                                io.bullpen.JobOptions options, int stackLimit) {
            return new Completed(id, token, Math.max(0, attemptsMadeBefore) + 1, resultJson, options.removeOnComplete(),
                    null, dedupId(options), null, 0);
        }

        /**
         * A failed attempt: failed for good when it is unrecoverable or the job's attempts are used
         * up, else a retry after the job's backoff (to wait when the backoff is 0).
         *
         * @param id the job
         * @param token the lock token of the attempt
         * @param attemptsMadeBefore the job's attemptsMade when it was taken
         * @param reason the failed reason
         * @param stacktrace the stack trace to record, or null
         * @param unrecoverable fail now whatever attempts are left
         * @param options the job's options (attempts, backoff, lifo, removeOnFail, deduplication)
         * @param stackLimit stack traces kept per job
         * @return the outcome to record
         */
        static Finish failed(String id, String token, int attemptsMadeBefore, String reason, String stacktrace,
                             boolean unrecoverable, io.bullpen.JobOptions options, int stackLimit) {
            int attemptsMade = Math.max(0, attemptsMadeBefore) + 1;
            if (unrecoverable || attemptsMade >= options.attempts()) {
                return new Failed(id, token, attemptsMade, reason, stacktrace, stackLimit, options.removeOnFail(), null,
                        dedupId(options), null, 0);
            }
            long delayMs = options.backoff()
                    .map(b -> b.delay(attemptsMade))
                    .map(d -> Math.min(d.toMillis(), MAX_BACKOFF_MS))
                    .orElse(0L);
            return new Retry(id, token, attemptsMade, reason, stacktrace, stackLimit, delayMs, options.lifo(), null,
                    null, options.removeOnFail(), dedupId(options), 0);
        }

        /**
         * The processor threw {@code RateLimitedException}: the job goes back to the front of its
         * line without using an attempt, and the queue (or the job's group) takes no job for
         * {@code delayMs}.
         *
         * @param id the job
         * @param token the lock token of the attempt
         * @param delayMs how long the queue or group is held back, >= 1
         * @param group true to limit only the job's group (the queue for a job without one)
         * @return the outcome to record
         */
        static Finish limited(String id, String token, long delayMs, boolean group) {
            return new Limited(id, token, delayMs, group, null);
        }

        /**
         * A step job asked for a delay: the attempt ends without using one, the job goes to
         * delayed, due at {@code dueMs}, with its staged data.
         *
         * @param id the job
         * @param token the lock token of the attempt
         * @param dueMs when the job is due again, epoch ms
         * @param stagedData the new data as JSON, or null to keep the data
         * @return the outcome to record
         */
        static Finish step(String id, String token, long dueMs, String stagedData) {
            return new Step(id, token, dueMs, stagedData, null);
        }

        /**
         * The processor asked to wait for its children: the attempt ends without using one, the
         * children it added are recorded, and the job waits in waiting-children until none is
         * pending (ready again at once when none is).
         *
         * @param id the job
         * @param token the lock token of the attempt
         * @param children the children the processor added, encoded for the script, or null for none
         * @return the outcome to record
         */
        static Finish waitForChildren(String id, String token, String children) {
            return new WaitChildren(id, token, children, null, null);
        }

        /**
         * The deduplication id the end of the job releases, from the options the worker read with
         * the job at take (its stored opts): no read on the finish path. None in ttl mode without
         * keepLastIfActive: that key expires on its own, the end has nothing to do.
         */
        private static String dedupId(io.bullpen.JobOptions options) {
            return options.deduplication()
                    .filter(d -> d.ttlDuration().isEmpty() || d.keepsLastIfActive())
                    .map(io.bullpen.Deduplication::id).orElse(null);
        }

        private static long awaitTtlOf(String awaitedField) {
            return awaitedField == null ? 0 : Long.parseLong(awaitedField);
        }

        /**
         * The job completed: to completed (retention applied), result kept for awaiters.
         *
         * @param attemptsMade the job's attemptsMade after this attempt
         * @param returnValue the return value (JSON)
         * @param retention retention of completed (removeOnComplete)
         * @param dedupId the deduplication id to release, null for none
         * @param stagedData a step job's data written with the outcome, null for none
         * @param awaitMs how long the result is kept for awaiters, 0 = not awaited at take
         * @param parent the job has a parent in a flow (read at take): its end tells the parents;
         *     false costs the finish nothing (the same for {@link Failed} and a cancelled {@link Retry})
         */
        record Completed(String jobId, String lockToken, int attemptsMade, String returnValue, Retention retention,
                         String group, String dedupId, String stagedData, long awaitMs, boolean parent, String children)
                implements Finish {
            /** A completion of a job without a parent. */
            public Completed(String jobId, String lockToken, int attemptsMade, String returnValue, Retention retention,
                             String group, String dedupId, String stagedData, long awaitMs) {
                this(jobId, lockToken, attemptsMade, returnValue, retention, group, dedupId, stagedData, awaitMs, false);
            }

            /** A completion that adds no children. */
            public Completed(String jobId, String lockToken, int attemptsMade, String returnValue, Retention retention,
                             String group, String dedupId, String stagedData, long awaitMs, boolean parent) {
                this(jobId, lockToken, attemptsMade, returnValue, retention, group, dedupId, stagedData, awaitMs, parent,
                        null);
            }

            @Override
            public Completed withParent(boolean hasParent) {
                return new Completed(jobId, lockToken, attemptsMade, returnValue, retention, group, dedupId, stagedData,
                        awaitMs, hasParent, children);
            }

            @Override
            public Completed withGroup(String takenGroup) {
                return new Completed(jobId, lockToken, attemptsMade, returnValue, retention,
                        takenGroup == null ? "" : takenGroup, dedupId, stagedData, awaitMs, parent, children);
            }

            @Override
            public Completed awaited(String awaitedField) {
                return awaitedField == null ? this : new Completed(jobId, lockToken, attemptsMade, returnValue,
                        retention, group, dedupId, stagedData, awaitTtlOf(awaitedField), parent, children);
            }

            @Override
            public Completed withStagedData(String data) {
                return data == null ? this : new Completed(jobId, lockToken, attemptsMade, returnValue, retention, group,
                        dedupId, data, awaitMs, parent, children);
            }

            @Override
            public Completed withChildren(String added) {
                return added == null ? this : new Completed(jobId, lockToken, attemptsMade, returnValue, retention,
                        group, dedupId, stagedData, awaitMs, parent, added);
            }
        }

        /**
         * The attempt failed and the job fails for good (attempts used up, or unrecoverable).
         *
         * @param attemptsMade the job's attemptsMade after this attempt
         * @param stacktrace one stack trace to append, null for none
         * @param stackLimit stack traces kept
         * @param retention retention of failed (removeOnFail)
         */
        record Failed(String jobId, String lockToken, int attemptsMade, String reason, String stacktrace, int stackLimit,
                      Retention retention, String group, String dedupId, String stagedData, long awaitMs,
                      boolean parent) implements Finish {
            /** A failure of a job without a parent. */
            public Failed(String jobId, String lockToken, int attemptsMade, String reason, String stacktrace,
                          int stackLimit, Retention retention, String group, String dedupId, String stagedData,
                          long awaitMs) {
                this(jobId, lockToken, attemptsMade, reason, stacktrace, stackLimit, retention, group, dedupId,
                        stagedData, awaitMs, false);
            }

            @Override
            public Failed withParent(boolean hasParent) {
                return new Failed(jobId, lockToken, attemptsMade, reason, stacktrace, stackLimit, retention, group,
                        dedupId, stagedData, awaitMs, hasParent);
            }

            @Override
            public Failed withGroup(String takenGroup) {
                return new Failed(jobId, lockToken, attemptsMade, reason, stacktrace, stackLimit, retention,
                        takenGroup == null ? "" : takenGroup, dedupId, stagedData, awaitMs, parent);
            }

            @Override
            public Failed awaited(String awaitedField) {
                return awaitedField == null ? this : new Failed(jobId, lockToken, attemptsMade, reason, stacktrace,
                        stackLimit, retention, group, dedupId, stagedData, awaitTtlOf(awaitedField), parent);
            }

            @Override
            public Failed withStagedData(String data) {
                return data == null ? this : new Failed(jobId, lockToken, attemptsMade, reason, stacktrace, stackLimit,
                        retention, group, dedupId, data, awaitMs, parent);
            }
        }

        /**
         * The attempt failed and the job runs again: after {@code delayMs} (delayed, due at the
         * call's now + delayMs), or at once (0: back to its line; {@code lifo} runs it next). When
         * the job turns out cancelled, it fails for good instead: retention, deduplication id and
         * awaited ttl are for that case.
         */
        record Retry(String jobId, String lockToken, int attemptsMade, String reason, String stacktrace, int stackLimit,
                     long delayMs, boolean lifo, String group, String stagedData, Retention retention, String dedupId,
                     long awaitMs, boolean parent) implements Finish {
            /** A retry of a job without a parent. */
            public Retry(String jobId, String lockToken, int attemptsMade, String reason, String stacktrace,
                         int stackLimit, long delayMs, boolean lifo, String group, String stagedData,
                         Retention retention, String dedupId, long awaitMs) {
                this(jobId, lockToken, attemptsMade, reason, stacktrace, stackLimit, delayMs, lifo, group, stagedData,
                        retention, dedupId, awaitMs, false);
            }

            @Override
            public Retry withParent(boolean hasParent) {
                return new Retry(jobId, lockToken, attemptsMade, reason, stacktrace, stackLimit, delayMs, lifo, group,
                        stagedData, retention, dedupId, awaitMs, hasParent);
            }

            @Override
            public Retry withGroup(String takenGroup) {
                return new Retry(jobId, lockToken, attemptsMade, reason, stacktrace, stackLimit, delayMs, lifo,
                        takenGroup == null ? "" : takenGroup, stagedData, retention, dedupId, awaitMs, parent);
            }

            @Override
            public Retry awaited(String awaitedField) {
                return awaitedField == null ? this : new Retry(jobId, lockToken, attemptsMade, reason, stacktrace,
                        stackLimit, delayMs, lifo, group, stagedData, retention, dedupId, awaitTtlOf(awaitedField),
                        parent);
            }

            @Override
            public Retry withStagedData(String data) {
                return data == null ? this : new Retry(jobId, lockToken, attemptsMade, reason, stacktrace, stackLimit,
                        delayMs, lifo, group, data, retention, dedupId, awaitMs, parent);
            }
        }

        /**
         * A step: the job waits in delayed until {@code dueMs} (epoch ms), its data staged or null,
         * the children the processor added recorded ({@code children}, null for none).
         */
        record Step(String jobId, String lockToken, long dueMs, String stagedData, String group, String children)
                implements Finish {
            /** A step that adds no children. */
            public Step(String jobId, String lockToken, long dueMs, String stagedData, String group) {
                this(jobId, lockToken, dueMs, stagedData, group, null);
            }

            @Override
            public Step withGroup(String takenGroup) {
                return new Step(jobId, lockToken, dueMs, stagedData, takenGroup == null ? "" : takenGroup, children);
            }

            @Override
            public Step withChildren(String added) {
                return added == null ? this : new Step(jobId, lockToken, dueMs, stagedData, group, added);
            }
        }

        /**
         * A wait for children: the children the processor added ({@code children}, encoded for the
         * script, null for none) are recorded with its staged data (null for none), and the job
         * waits in waiting-children until none is pending, without using an attempt.
         */
        record WaitChildren(String jobId, String lockToken, String children, String stagedData, String group)
                implements Finish {
            @Override
            public WaitChildren withGroup(String takenGroup) {
                return new WaitChildren(jobId, lockToken, children, stagedData, takenGroup == null ? "" : takenGroup);
            }

            @Override
            public WaitChildren withChildren(String added) {
                return added == null ? this : new WaitChildren(jobId, lockToken, added, stagedData, group);
            }

            @Override
            public WaitChildren withStagedData(String data) {
                return data == null ? this : new WaitChildren(jobId, lockToken, children, data, group);
            }
        }

        /** A limited put-back: the queue, or the job's group ({@code groupScope}), waits {@code delayMs}. */
        record Limited(String jobId, String lockToken, long delayMs, boolean groupScope, String group) implements Finish {
            @Override
            public Limited withGroup(String takenGroup) {
                return new Limited(jobId, lockToken, delayMs, groupScope, takenGroup == null ? "" : takenGroup);
            }
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
