package io.bullpen.worker;

import io.bullpen.CancelResult;
import io.bullpen.internal.ScriptTypes.FetchArgs;
import io.bullpen.internal.ScriptTypes.FetchResult;
import io.bullpen.internal.ScriptTypes.Finish;
import io.bullpen.internal.ScriptTypes.FinishBatchResult;
import io.bullpen.internal.ScriptTypes.SchedulerUpdate;
import io.bullpen.internal.ScriptTypes.StalledResult;
import io.bullpen.internal.ScriptTypes.Started;
import io.bullpen.internal.SmallClient;
import io.bullpen.internal.WorkerScripts.Beat;
import io.bullpen.internal.WorkerScripts.Pulse;
import io.bullpen.flow.ChildResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Everything a worker asks of Redis, in one place: the worker's classes call this and nothing
 * else. {@link RedisWorkerStore} implements it with the queue's scripts (each state change is one
 * of them, and each keeps its own contract tests); tests of the worker's threads and timing run it
 * against a fake. The store decides nothing about threads or time: every {@code now} comes from
 * the worker's clock, and each method is one call whose reply the worker acts on.
 */
interface WorkerStore {

    /** moveToActive: takes up to {@code args.count()} jobs (plus {@code args.ahead()} ahead), with the fetch's scans. */
    CompletionStage<FetchResult> take(long now, FetchArgs args);

    /**
     * moveToFinished: records a batch of results, each checked against its lock token, then takes
     * the next jobs with {@code next}.
     *
     * @param startedOn per result, when a taken-ahead job's processor started (epoch ms), 0 otherwise; null = none was
     * @param started buffered jobs whose processor started and whose result is not in this batch
     */
    CompletionStage<FinishBatchResult> finish(long now, FetchArgs next, List<Finish> finishes, long[] startedOn,
                                              List<Started> started);

    /**
     * moveToWait: gives a job back to its line (lock token checked, no stall counted).
     *
     * @param started its processor had started (a close cut it off): its start stays counted
     */
    CompletionStage<Void> handBack(String jobId, String lockToken, boolean started);

    /** extendLocks: renews the locks of {@code tokensById}; answers the ids whose lock could not be renewed. */
    CompletionStage<List<String>> extendLocks(long now, long lockMs, Map<String, String> tokensById);

    /** moveStalledJobsToWait: recovers (or fails) up to {@code limit} jobs whose lease expired. */
    CompletionStage<StalledResult> recoverStalled(long now, int maxStalled, int limit);

    /** checkCancels: which of these active jobs a producer cancelled, with the reasons. */
    CompletionStage<Map<String, String>> checkCancels(List<String> jobIds);

    /** cancelJob: flags a job as cancelled ({@code Worker.cancel}). */
    CompletionStage<CancelResult> cancel(long now, String jobId, String reason);

    /** workerHeartbeat: the worker's entry in the queue's live workers, alive for {@code ttlMs}. */
    CompletionStage<Pulse> heartbeat(Beat beat, long ttlMs);

    /** workerLeft: the worker leaves the queue's live workers at once. */
    CompletionStage<Boolean> workerLeft(String name);

    /** A running job's progress ({@code JobContext.updateProgress}). */
    CompletionStage<Void> updateProgress(String jobId, String progressJson);

    /** A running job's log line ({@code JobContext.log}), keeping the newest {@code keep}. */
    CompletionStage<Long> addLog(String jobId, String line, int keep);

    /**
     * childEnded, in the parents' slots: relays up to {@code limit} entries of the queue's
     * flow:outbox (ends of its jobs bound for parents in other slots).
     *
     * @return how many entries were relayed ({@code limit}: more may be left)
     */
    int relayOutbox(int limit);

    /** Creates the rest of up to {@code limit} flows rooted in the queue, committed {@code olderThanMs} ago and not fully created. */
    void carryOnFlows(long olderThanMs, int limit);

    /**
     * Creates the children a job of this queue added at runtime, staged with its finish under
     * {@code flowId} in this queue's slot (idempotent; workers carry on one left over).
     */
    void materializeFlow(String flowId);

    /**
     * Refuses, before anything is written, children that would make a cycle below a job of this
     * queue: one of {@code childRefs} ("<queue>:<id>" of the new jobs with custom ids) is the job
     * itself or one of its ancestors.
     *
     * @throws IllegalArgumentException naming the jobs and the path
     */
    void refuseCycles(String parentId, Set<String> childRefs);

    /** Reconciles up to {@code limit} of the queue's parents waiting for their children longer than {@code graceMs}. */
    void reconcileFlows(long graceMs, int limit);

    /** A parent's children with their outcomes ({@code JobContext.children}), read {@code pageSize} at a time. */
    List<ChildResult> children(String parentId, int pageSize);

    /** How many children a parent has ({@code JobContext.childrenCount}). */
    int childrenCount(String parentId);

    /** Scheduler work a fetch handed back (next runs computed in Java), applied in the background. */
    void advanceSchedulers(List<SchedulerUpdate> updates);

    /** On start: the queue joins the registry of queues, and Redis's eviction policy is checked (not awaited). */
    void register();

    /**
     * Opens the channel an idle worker waits on (the queue's marker).
     *
     * @param events told when the waiting connection's server is lost and back
     */
    Marker openMarker(SmallClient.Connections events);

    /** The marker an idle worker waits on (see {@link MarkerWaiter}). */
    interface Marker extends AutoCloseable {
        /** Blocks (on Redis, not on the caller) up to {@code timeout} for a signal: its member, or null on timeout. */
        CompletableFuture<String> pop(Duration timeout);

        /** Puts a signal back ("look now") for another worker, on the waiting connection. */
        CompletionStage<?> putBack();

        /** Puts a signal back after {@link #close}, on the application's connection. */
        CompletionStage<?> handOver();

        /** Releases the waiting connection. */
        @Override
        void close();
    }
}
