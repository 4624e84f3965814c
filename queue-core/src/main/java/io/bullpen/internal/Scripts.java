package io.bullpen.internal;

import static io.bullpen.internal.ScriptReplies.fetchArgs;
import static io.bullpen.internal.ScriptReplies.fetchResult;
import static io.bullpen.internal.ScriptReplies.hash;
import static io.bullpen.internal.ScriptReplies.num;
import static io.bullpen.internal.ScriptReplies.str;
import static io.bullpen.internal.ScriptReplies.strings;

import io.bullpen.JobCounts;
import io.bullpen.JobState;
import io.bullpen.MetricsType;
import io.bullpen.NotReplicatedException;
import io.bullpen.internal.ScriptTypes.AddOutcome;
import io.bullpen.internal.ScriptTypes.AddResult;
import io.bullpen.internal.ScriptTypes.FetchArgs;
import io.bullpen.internal.ScriptTypes.FetchResult;
import io.bullpen.internal.ScriptTypes.Finish;
import io.bullpen.internal.ScriptTypes.FinishBatchResult;
import io.bullpen.internal.ScriptTypes.FinishOutcome;
import io.bullpen.internal.ScriptTypes.FinishResult;
import io.bullpen.internal.ScriptTypes.NewJob;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.internal.ScriptTypes.StalledResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import org.redisson.api.RScript.ReturnType;
import org.redisson.api.RedissonClient;

/**
 * One method per Lua script of one queue (the method is named after the script file). Builds
 * KEYS by the names in each header ({@link ScriptKeys}) and ARGV as each header documents, and turns
 * replies into records; negative codes become exceptions through {@link ErrorCode}. Not API.
 */
public final class Scripts {
    /** The stored states in the order getCounts and getState declare their KEYS. */
    private static final List<JobState> STORED_STATES = List.of(JobState.WAITING, JobState.PRIORITIZED,
            JobState.DELAYED, JobState.ACTIVE, JobState.COMPLETED, JobState.FAILED);

    private final ScriptRunner runner;
    private final KeyScheme k;
    private final ScriptKeys scriptKeys;
    private final ScriptArgs scriptArgs = new ScriptArgs();
    private final int addReplicas;
    private final Duration addReplicaTimeout;
    /** When (System.nanoTime) connectedReplicas last found enough replicas; 0 = not since the last miss. */
    private volatile long replicasSeenAt;
    /** How long a count of enough replicas is trusted before the next add asks again. */
    private static final long REPLICAS_FRESH_NANOS = 1_000_000_000L;

    /**
     * @param redisson the client
     * @param keys the queue's keys
     */
    public Scripts(RedissonClient redisson, KeyScheme keys) {
        this(redisson, keys, 0, Duration.ZERO);
    }

    /**
     * @param redisson the client
     * @param keys the queue's keys
     * @param addReplicas replicas every add must reach before it completes (0 = none: asynchronous replication)
     * @param addReplicaTimeout how long an add waits for them
     */
    public Scripts(RedissonClient redisson, KeyScheme keys, int addReplicas, Duration addReplicaTimeout) {
        this.runner = new ScriptRunner(redisson);
        this.k = keys;
        this.scriptKeys = new ScriptKeys(keys);
        this.addReplicas = addReplicas;
        this.addReplicaTimeout = addReplicaTimeout;
    }

    /** @return the queue's keys */
    public KeyScheme keys() {
        return k;
    }

    /**
     * @return what the adds that may share a call ({@link AddLane}) have in common: the queue's
     *     keys and the replicas a durable add waits for
     */
    public String addLaneKey() {
        return k.jobPrefix() + "\n" + addReplicas + "\n" + addReplicaTimeout.toMillis();
    }

    /** addJob: adds the jobs atomically; one result per job, in order. */
    public CompletionStage<List<AddResult>> addJob(long now, List<NewJob> jobs) {
        return addJob(now, jobs, null);
    }

    /**
     * addJob with trace headers stored on every job it adds ({@code tc}).
     *
     * @param traceContext the headers as {@link TraceHeaders#encode} wrote them; null for none
     *     (then the call is exactly the plain one)
     */
    public CompletionStage<List<AddResult>> addJob(long now, List<NewJob> jobs, String traceContext) {
        List<Object> args = baseArgs("addJob", now).into(new ArrayList<>(3 + jobs.size() * 12));
        for (NewJob j : jobs) {
            args.add(j.customId() == null ? "" : j.customId());
            args.add(j.name());
            args.add(j.data());
            args.add(j.opts());
            args.add(Long.toString(j.delayMs()));
            args.add(Integer.toString(j.priority()));
            args.add(j.lifo() ? "1" : "0");
            args.add(j.group() == null ? "" : j.group());
            args.add(j.dedupId() == null ? "" : j.dedupId());
            args.add(Long.toString(j.dedupTtlMs()));
            args.add(j.dedupFlags() == null ? "" : j.dedupFlags());
            args.add(j.awaitMs() > 0 ? Long.toString(j.awaitMs()) : "");
        }
        if (traceContext != null) {
            args.add(traceContext);
        }
        List<Object> keys = scriptKeys.of("addJob");
        CompletionStage<List<Object>> call = addReplicas > 0
                ? this.<List<Object>>replicatedAdd("addJob", keys, args)
                : runner.<List<Object>>run("addJob", ReturnType.LIST, keys, args.toArray());
        return call
                .thenApply(reply -> {
                    if (!reply.isEmpty() && reply.get(0) instanceof Long) {
                        // {code, group, maxSize} (a job's entries start with its id, a string):
                        // nothing of the call was written.
                        throw ErrorCode.toException(num(reply.get(0)), k.queue(), null, "add", str(reply.get(1)) + "\n" + str(reply.get(2)));
                    }
                    // Flat: jobId, flag for each job.
                    List<AddResult> results = new ArrayList<>(reply.size() / 2);
                    for (int i = 0; i + 1 < reply.size(); i += 2) {
                        long flag = num(reply.get(i + 1));
                        results.add(new AddResult(str(reply.get(i)), flag == 1, flag == 2));
                    }
                    return results;
                });
    }

    /**
     * addCoalesced: adds jobs of several callers in one call, each answered alone, as if each
     * were added by a call of its own in list order (see the script header).
     *
     * @param traceContexts each job's trace headers (null for none), in the order of {@code jobs}
     * @return one outcome per job, in order
     */
    public CompletionStage<List<AddOutcome>> addCoalesced(long now, List<NewJob> jobs, List<String> traceContexts) {
        List<Object> args = baseArgs("addCoalesced", now).into(new ArrayList<>(2 + jobs.size() * 5));
        for (int i = 0; i < jobs.size(); i++) {
            NewJob j = jobs.get(i);
            args.add(j.customId() == null ? "" : j.customId());
            args.add(j.name());
            args.add(j.data());
            args.add(j.opts());
            int countAt = args.size();
            args.add("0");
            if (j.delayMs() > 0) {
                args.add("delay");
                args.add(Long.toString(j.delayMs()));
            }
            if (j.priority() > 0) {
                args.add("priority");
                args.add(Integer.toString(j.priority()));
            }
            if (j.lifo()) {
                args.add("lifo");
                args.add("1");
            }
            if (j.group() != null) {
                args.add("group");
                args.add(j.group());
            }
            if (j.dedupId() != null) {
                args.add("dedupId");
                args.add(j.dedupId());
                if (j.dedupTtlMs() > 0) {
                    args.add("dedupTtl");
                    args.add(Long.toString(j.dedupTtlMs()));
                }
                if (j.dedupFlags() != null && !j.dedupFlags().isEmpty()) {
                    args.add("dedupFlags");
                    args.add(j.dedupFlags());
                }
            }
            if (j.awaitMs() > 0) {
                args.add("awaited");
                args.add(Long.toString(j.awaitMs()));
            }
            String tc = traceContexts.get(i);
            if (tc != null) {
                args.add("tc");
                args.add(tc);
            }
            int settings = args.size() - countAt - 1;
            if (settings > 0) {
                args.set(countAt, Integer.toString(settings));
            }
        }
        List<Object> keys = scriptKeys.of("addCoalesced");
        CompletionStage<List<Object>> call = addReplicas > 0
                ? this.<List<Object>>replicatedAdd("addCoalesced", keys, args)
                : runner.<List<Object>>run("addCoalesced", ReturnType.LIST, keys, args.toArray());
        return call.thenApply(reply -> {
            // Flat: per job either jobId, flag or one nested {code, group, maxSize}.
            List<AddOutcome> outcomes = new ArrayList<>(reply.size() / 2 + 1);
            for (int i = 0; i < reply.size(); i++) {
                if (reply.get(i) instanceof List<?> e) {
                    // {code, group, maxSize}: this job alone was not added.
                    outcomes.add(new AddOutcome(null, ErrorCode.toException(num(e.get(0)), k.queue(), null, "add",
                            str(e.get(1)) + "\n" + str(e.get(2)))));
                } else {
                    long flag = num(reply.get(i + 1));
                    outcomes.add(new AddOutcome(new AddResult(str(reply.get(i)), flag == 1, flag == 2), null));
                    i++;
                }
            }
            return outcomes;
        });
    }

    /**
     * A durable add: when enough replicas were not seen within the last second, asks how many are
     * connected first, and with too few refuses the add before writing anything (WAIT would only
     * wait out its timeout); then the script and WAIT on one connection.
     */
    private <R> CompletionStage<R> replicatedAdd(String script, List<Object> keys, List<Object> args) {
        long seen = replicasSeenAt;
        if (seen != 0 && System.nanoTime() - seen < REPLICAS_FRESH_NANOS) {
            return replicatedWrite(script, keys, args);
        }
        return connectedReplicas().thenCompose(connected -> {
            if (connected < addReplicas) {
                throw new NotReplicatedException(k.queue(), addReplicas, addReplicaTimeout, connected);
            }
            replicasSeenAt = Math.max(1, System.nanoTime());
            return this.<R>replicatedWrite(script, keys, args);
        });
    }

    private <R> CompletionStage<R> replicatedWrite(String script, List<Object> keys, List<Object> args) {
        return runner.<R>runReplicated(script, ReturnType.LIST, keys, addReplicas, addReplicaTimeout, args.toArray())
                .exceptionally(error -> {
                    Throwable cause = ScriptRunner.unwrap(error);
                    if (cause instanceof IllegalStateException notSynced) {
                        // The next add counts the replicas again: with too few it fails at once.
                        replicasSeenAt = 0;
                        throw new NotReplicatedException(k.queue(), addReplicas, addReplicaTimeout, notSynced);
                    }
                    throw cause instanceof RuntimeException r ? r : new CompletionException(cause);
                });
    }

    /** connectedReplicas: how many replicas are connected to the queue's master. */
    public CompletionStage<Integer> connectedReplicas() {
        return runner.<Long>run("connectedReplicas", ReturnType.LONG, scriptKeys.of("connectedReplicas"))
                .thenApply(Long::intValue);
    }

    /** moveToActive: takes up to {@code f.count()} jobs (see the script header). */
    public CompletionStage<FetchResult> moveToActive(long now, FetchArgs f) {
        List<Object> args = fetchArgs(baseArgs("moveToActive", now), f).into(new ArrayList<>(11));
        return runner.<List<Object>>run("moveToActive", ReturnType.LIST, scriptKeys.of("moveToActive"), args.toArray())
                .thenApply(reply -> fetchResult(reply, new int[] {0}));
    }

    /** moveToFinished: records the outcome and optionally takes the next jobs. */
    public CompletionStage<FinishResult> moveToFinished(long now, FetchArgs next, Finish f) {
        return moveToFinished(now, next, List.of(f)).thenApply(batch -> {
            FinishOutcome outcome = batch.outcomes().get(0);
            if (outcome.error() != null) {
                throw outcome.error();
            }
            return new FinishResult(outcome.state(), batch.next());
        });
    }

    /**
     * moveToFinished with several results in one call: each is checked and applied on its own, in
     * order; a rejected one (lock lost) is reported in its outcome and does not stop the others.
     */
    public CompletionStage<FinishBatchResult> moveToFinished(long now, FetchArgs next, List<Finish> finishes) {
        return moveToFinished(now, next, finishes, null, List.of());
    }

    /**
     * moveToFinished for a worker that takes ahead: as {@link #moveToFinished(long,
     * FetchArgs, List)}, plus when each taken-ahead job's processor really started and the
     * "started" records of buffered jobs that started and are not in this batch.
     *
     * @param startedOn per result, the epoch ms its processor started when the job was taken
     *     ahead, 0 otherwise; null = none was
     * @param started buffered jobs whose processor started (no outcome is returned for them)
     */
    public CompletionStage<FinishBatchResult> moveToFinished(long now, FetchArgs next, List<Finish> finishes,
                                                             long[] startedOn, List<ScriptTypes.Started> started) {
        if (finishes.isEmpty()) {
            throw new IllegalArgumentException("moveToFinished needs at least one result");
        }
        List<Object> args = fetchArgs(baseArgs("moveToFinished", now), next)
                .into(new ArrayList<>(11 + 14 * finishes.size() + 3 * started.size()));
        FinishRecords.encode(scriptArgs, args, finishes, now, startedOn);
        FinishRecords.encodeStarted(scriptArgs, args, started);
        return runner.<List<Object>>run("moveToFinished", ReturnType.LIST, scriptKeys.of("moveToFinished"), args.toArray())
                .thenApply(reply -> {
                    int count = (int) num(reply.get(0));
                    List<FinishOutcome> outcomes = new ArrayList<>(count);
                    for (int i = 0; i < count; i++) {
                        Object o = reply.get(1 + i);
                        if (o instanceof Number n) {
                            outcomes.add(new FinishOutcome(null,
                                    ErrorCode.toException(n.longValue(), k.queue(), finishes.get(i).jobId(), "finish", "active")));
                        } else {
                            outcomes.add(new FinishOutcome(JobState.fromLabel(str(o)), null));
                        }
                    }
                    return new FinishBatchResult(outcomes, fetchResult(reply, new int[] {1 + count}));
                });
    }

    /** moveToWait: gives back a job taken but never started (lock checked, no stall counted). */
    public CompletionStage<Void> moveToWait(String jobId, String lockToken) {
        return moveToWait(jobId, lockToken, false);
    }

    /**
     * moveToWait: gives back a job (lock checked, no stall counted); {@code started}: its processor
     * had started (a close cut it off), so its start stays counted.
     */
    public CompletionStage<Void> moveToWait(String jobId, String lockToken, boolean started) {
        List<Object> keys = scriptKeys.of("moveToWait");
        return runner.<Object>run("moveToWait", ReturnType.LONG, keys, k.jobPrefix(), jobId, lockToken,
                        started ? "1" : "0")
                .thenAccept(reply -> check(reply, jobId, "give back", "active"));
    }

    /** extendLocks: renews many locks; returns the ids whose lock could not be extended. */
    public CompletionStage<List<String>> extendLocks(long now, long lockMs, Map<String, String> tokensById) {
        List<Object> args = new ArrayList<>(3 + tokensById.size() * 2);
        args.add(k.jobPrefix());
        args.add(Long.toString(now));
        args.add(Long.toString(lockMs));
        tokensById.forEach((id, token) -> {
            args.add(id);
            args.add(token);
        });
        return runner.<List<Object>>run("extendLocks", ReturnType.LIST, scriptKeys.of("extendLocks"), args.toArray())
                .thenApply(ScriptReplies::strings);
    }

    /** moveStalledJobsToWait: recovers up to {@code limit} jobs whose lock expired. */
    public CompletionStage<StalledResult> moveStalledJobsToWait(long now, int maxStalled, int limit) {
        List<Object> keys = scriptKeys.of("moveStalledJobsToWait");
        return runner.<List<Object>>run("moveStalledJobsToWait", ReturnType.LIST, keys,
                        k.jobPrefix(), Long.toString(now), Integer.toString(maxStalled), Integer.toString(limit))
                .thenApply(reply -> new StalledResult(strings(reply.get(0)), strings(reply.get(1))));
    }

    /** promote: a delayed job runs now. */
    public CompletionStage<Void> promote(String jobId) {
        List<Object> keys = scriptKeys.of("promote");
        return runner.<Object>run("promote", ReturnType.LONG, keys, k.jobPrefix(), jobId)
                .thenAccept(reply -> check(reply, jobId, "promote", "delayed"));
    }

    /** retryJob: a failed (or completed) job runs again with fresh attempts. */
    public CompletionStage<Void> retryJob(String jobId, JobState from) {
        List<Object> keys = scriptKeys.of("retryJob", "source", k.stateKey(from));
        return runner.<Object>run("retryJob", ReturnType.LONG, keys, k.jobPrefix(), jobId, from.label())
                .thenAccept(reply -> check(reply, jobId, "retry", from.label()));
    }

    /** removeJob: true when removed, false when there was no such job. */
    public CompletionStage<Boolean> removeJob(String jobId) {
        List<Object> keys = scriptKeys.of("removeJob");
        return runner.<Object>run("removeJob", ReturnType.LONG, keys, k.jobPrefix(), jobId)
                .thenApply(reply -> {
                    if (num(reply) == ErrorCode.JOB_NOT_FOUND.code()) {
                        return false;
                    }
                    check(reply, jobId, "remove", "not locked");
                    return true;
                });
    }

    /** pause: pauses (true) or resumes (false); returns whether the state changed. */
    public CompletionStage<Boolean> pause(boolean pause) {
        return runner.<Object>run("pause", ReturnType.LONG, scriptKeys.of("pause"),
                        pause ? "pause" : "resume")
                .thenApply(reply -> num(reply) == 1);
    }

    /**
     * setQueueSettings: stores the queue-wide settings in meta, where every client's scripts read
     * them.
     *
     * @param eventsMaxLength the approximate cap of the events stream (>= 1)
     * @return the cap stored before, empty when none was
     */
    public CompletionStage<String> setQueueSettings(long eventsMaxLength) {
        return runner.<List<Object>>run("setQueueSettings", ReturnType.LIST, scriptKeys.of("setQueueSettings"),
                        Long.toString(eventsMaxLength))
                .thenApply(reply -> str(reply.get(0)));
    }

    /**
     * setQueueLimits: sets or removes the queue's rate limit and global concurrency in meta and
     * wakes the blocked workers. Each value: null = unchanged, {@code "-"} = remove, else the value.
     * Written without an owner: a setting it writes carries no owner's mark.
     *
     * @param rateMax starts per window
     * @param ratePerMs the window in ms (with rateMax)
     * @param rateBurst extra starts after idling (with rateMax)
     * @param concurrency the global concurrency
     * @return when done
     */
    public CompletionStage<Void> setQueueLimits(String rateMax, long ratePerMs, long rateBurst, String concurrency) {
        return setQueueLimits(rateMax, ratePerMs, rateBurst, concurrency, null).thenAccept(reply -> { });
    }

    /**
     * setQueueLimits with the declaring configuration's owner: a value it writes carries the
     * owner's mark (none: the mark is cleared), and a removal ({@code "-"}) removes only a
     * setting that carries this owner's mark (none: whoever wrote it).
     *
     * @param owner the owner, null for none
     * @return how many of the two settings were written or removed
     */
    public CompletionStage<Long> setQueueLimits(String rateMax, long ratePerMs, long rateBurst, String concurrency,
                                                String owner) {
        return runner.<Long>run("setQueueLimits", ReturnType.LONG, scriptKeys.of("setQueueLimits"),
                rateMax == null ? "" : rateMax, Long.toString(ratePerMs), Long.toString(rateBurst),
                concurrency == null ? "" : concurrency, owner == null ? "" : owner);
    }

    /** getCounts: counts per state and the paused flag, read atomically. */
    public CompletionStage<JobCounts> getCounts() {
        List<Object> keys = scriptKeys.of("getCounts");
        return runner.<List<Object>>run("getCounts", ReturnType.LIST, keys)
                .thenApply(r -> new JobCounts(count(r, JobState.WAITING), count(r, JobState.ACTIVE),
                        count(r, JobState.DELAYED), count(r, JobState.PRIORITIZED), count(r, JobState.COMPLETED),
                        count(r, JobState.FAILED), num(r.get(STORED_STATES.size())) == 1,
                        r.size() > STORED_STATES.size() + 1 ? num(r.get(STORED_STATES.size() + 1)) : 0));
    }

    /** @return the count of one state in getCounts' reply, which follows {@link #STORED_STATES} */
    private static long count(List<Object> reply, JobState state) {
        return num(reply.get(STORED_STATES.indexOf(state)));
    }

    /** getJobs: a page of one state's jobs, in the state's natural order (see the script header). */
    public CompletionStage<List<RawJob>> getJobs(JobState state, long start, long end) {
        String order = switch (state) {
            case WAITING -> "list";
            case DELAYED, PRIORITIZED, WAITING_CHILDREN -> "asc";
            // ACTIVE reads leases: the latest lock expiry (most recently taken or extended) first.
            case ACTIVE, COMPLETED, FAILED -> "desc";
            case UNKNOWN -> throw new IllegalArgumentException("cannot list jobs in state UNKNOWN");
        };
        return runner.<List<Object>>run("getJobs", ReturnType.LIST, scriptKeys.of("getJobs", "state", k.stateKey(state)),
                        k.jobPrefix(), order, Long.toString(start), Long.toString(end))
                .thenApply(reply -> {
                    List<RawJob> jobs = new ArrayList<>(reply.size());
                    for (Object entry : reply) {
                        List<?> pair = (List<?>) entry;
                        Map<String, String> hash = hash(pair.get(1));
                        if (!hash.isEmpty()) {
                            jobs.add(new RawJob(str(pair.get(0)), hash, null));
                        }
                    }
                    return jobs;
                });
    }

    /** getState: the job's state, {@link JobState#UNKNOWN} when there is no such job. */
    public CompletionStage<JobState> getState(String jobId) {
        List<Object> keys = scriptKeys.of("getState");
        return runner.<Object>run("getState", ReturnType.VALUE, keys, k.jobPrefix(), jobId)
                .thenApply(reply -> JobState.fromLabel(str(reply)));
    }

    /** updateProgress: stores the progress JSON and emits a progress event. */
    public CompletionStage<Void> updateProgress(String jobId, String progressJson) {
        return runner.<Object>run("updateProgress", ReturnType.LONG, scriptKeys.of("updateProgress", "job", k.job(jobId)),
                        jobId, progressJson)
                .thenAccept(reply -> check(reply, jobId, "update progress", "existing"));
    }

    /** addLog: appends a log line keeping at most {@code keep} lines (-1 = all); returns the count kept. */
    public CompletionStage<Long> addLog(String jobId, String line, int keep) {
        return runner.<Object>run("addLog", ReturnType.LONG, scriptKeys.of("addLog", "job", k.job(jobId), "logs", k.logs(jobId)),
                        line, Integer.toString(keep))
                .thenApply(reply -> {
                    check(reply, jobId, "log", "existing");
                    return num(reply);
                });
    }

    /** A job script's arguments by name with the two every job script starts with: the job key prefix and now. */
    private ScriptArgs.Named baseArgs(String script, long now) {
        return scriptArgs.named(script).set("jobKeyPrefix", k.jobPrefix()).set("now", Long.toString(now));
    }

    /** Throws the exception for a negative code; returns a list reply as is. */
    private List<?> check(Object reply, String jobId, String action, String needed) {
        if (reply instanceof Number n && n.longValue() < 0) {
            throw ErrorCode.toException(n.longValue(), k.queue(), jobId, action, needed);
        }
        return reply instanceof List<?> list ? list : Collections.emptyList();
    }
}
