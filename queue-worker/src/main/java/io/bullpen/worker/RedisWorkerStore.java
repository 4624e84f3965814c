package io.bullpen.worker;

import io.bullpen.CancelResult;
import io.bullpen.flow.ChildResult;
import io.bullpen.internal.CancelScripts;
import io.bullpen.internal.FlowAncestry;
import io.bullpen.internal.FlowReads;
import io.bullpen.internal.FlowReconciler;
import io.bullpen.internal.FlowRelay;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.RedisChecks;
import io.bullpen.internal.SchedulerAdvancer;
import io.bullpen.internal.SchedulerScripts;
import io.bullpen.internal.ScriptTypes.FetchArgs;
import io.bullpen.internal.ScriptTypes.FetchResult;
import io.bullpen.internal.ScriptTypes.Finish;
import io.bullpen.internal.ScriptTypes.FinishBatchResult;
import io.bullpen.internal.ScriptTypes.SchedulerUpdate;
import io.bullpen.internal.ScriptTypes.StalledResult;
import io.bullpen.internal.ScriptTypes.Started;
import io.bullpen.internal.Scripts;
import io.bullpen.internal.SmallClient;
import io.bullpen.internal.WorkerScripts;
import io.bullpen.internal.WorkerScripts.Beat;
import io.bullpen.internal.WorkerScripts.Pulse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.redisson.api.RScoredSortedSet;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * The {@link WorkerStore} on Redis: each method is one of the queue's scripts (their contract tests
 * are in lua-scripts and queue-core), the marker a BZPOPMIN on the {@link SmallClient} the workers
 * of one application client share.
 */
final class RedisWorkerStore implements WorkerStore {
    private final RedissonClient redisson;
    private final KeyScheme keys;
    private final Scripts scripts;
    private final CancelScripts cancels;
    private final WorkerScripts workers;
    private final SchedulerAdvancer schedulers;
    private final FlowRelay flowRelay;
    private final FlowReconciler flowReconciler;
    private final FlowReads flowReads;
    private final FlowAncestry flowAncestry;

    RedisWorkerStore(RedissonClient redisson, KeyScheme keys, Clock clock) {
        this.redisson = redisson;
        this.keys = keys;
        this.scripts = new Scripts(redisson, keys);
        this.cancels = new CancelScripts(redisson, keys);
        this.workers = new WorkerScripts(redisson, keys);
        this.schedulers = new SchedulerAdvancer(new SchedulerScripts(redisson, keys), clock);
        this.flowRelay = new FlowRelay(redisson, keys.prefix(), clock);
        this.flowReconciler = new FlowReconciler(redisson, keys.prefix(), clock);
        this.flowReads = new FlowReads(redisson, keys.prefix());
        this.flowAncestry = new FlowAncestry(redisson, keys.prefix());
    }

    @Override
    public CompletionStage<FetchResult> take(long now, FetchArgs args) {
        return scripts.moveToActive(now, args);
    }

    @Override
    public CompletionStage<FinishBatchResult> finish(long now, FetchArgs next, List<Finish> finishes, long[] startedOn,
                                                     List<Started> started) {
        return scripts.moveToFinished(now, next, finishes, startedOn, started);
    }

    @Override
    public CompletionStage<Void> handBack(String jobId, String lockToken, boolean started) {
        return scripts.moveToWait(jobId, lockToken, started);
    }

    @Override
    public CompletionStage<List<String>> extendLocks(long now, long lockMs, Map<String, String> tokensById) {
        return scripts.extendLocks(now, lockMs, tokensById);
    }

    @Override
    public CompletionStage<StalledResult> recoverStalled(long now, int maxStalled, int limit) {
        return scripts.moveStalledJobsToWait(now, maxStalled, limit);
    }

    @Override
    public CompletionStage<Map<String, String>> checkCancels(List<String> jobIds) {
        return cancels.checkCancels(jobIds);
    }

    @Override
    public CompletionStage<CancelResult> cancel(long now, String jobId, String reason) {
        return cancels.cancelJob(now, jobId, reason);
    }

    @Override
    public CompletionStage<Pulse> heartbeat(Beat beat, long ttlMs) {
        return workers.heartbeat(beat, ttlMs, FlowRunner.CARRY_ON_AFTER_MS, FlowRunner.RECONCILE_GRACE_MS);
    }

    @Override
    public int relayOutbox(int limit) {
        return flowRelay.relayOutbox(keys.queue(), limit);
    }

    @Override
    public void carryOnFlows(long olderThanMs, int limit) {
        flowRelay.carryOnFlows(keys.queue(), olderThanMs, limit);
    }

    @Override
    public void materializeFlow(String flowId) {
        flowRelay.materialize(keys.queue(), flowId);
    }

    @Override
    public void refuseCycles(String parentId, Set<String> childRefs) {
        flowAncestry.refuseCycles(keys.queue(), parentId, childRefs);
    }

    @Override
    public void reconcileFlows(long graceMs, int limit) {
        flowReconciler.reconcile(keys.queue(), graceMs, limit);
    }

    @Override
    public List<ChildResult> children(String parentId, int pageSize) {
        return flowReads.allChildren(keys.queue(), parentId, pageSize);
    }

    @Override
    public int childrenCount(String parentId) {
        return flowReads.childrenCount(keys.queue(), parentId);
    }

    @Override
    public CompletionStage<Boolean> workerLeft(String name) {
        return workers.left(name);
    }

    @Override
    public CompletionStage<Void> updateProgress(String jobId, String progressJson) {
        return scripts.updateProgress(jobId, progressJson);
    }

    @Override
    public CompletionStage<Long> addLog(String jobId, String line, int keep) {
        return scripts.addLog(jobId, line, keep);
    }

    @Override
    public void advanceSchedulers(List<SchedulerUpdate> updates) {
        schedulers.advance(updates);
    }

    @Override
    public void register() {
        redisson.getSet(keys.registry(), StringCodec.INSTANCE).addAsync(keys.queue());
        RedisChecks.warnIfEvictingInBackground(redisson);
    }

    @Override
    public Marker openMarker(SmallClient.Connections events) {
        return new RedisMarker(redisson, keys.marker(), events);
    }

    /** BZPOPMIN on the shared small client; the hand-over after close on the application's client. */
    static final class RedisMarker implements Marker {
        private final SmallClient.Lease lease;
        private final RScoredSortedSet<String> marker;
        private final RScoredSortedSet<String> appMarker;

        RedisMarker(RedissonClient app, String markerKey, SmallClient.Connections events) {
            this.lease = SmallClient.acquire(app, events);
            this.marker = lease.client().getScoredSortedSet(markerKey, StringCodec.INSTANCE);
            this.appMarker = app.getScoredSortedSet(markerKey, StringCodec.INSTANCE);
        }

        @Override
        public CompletableFuture<String> pop(Duration timeout) {
            return marker.pollFirstAsync(timeout).toCompletableFuture();
        }

        @Override
        public CompletionStage<?> putBack() {
            return marker.addAsync(0, "0");
        }

        @Override
        public CompletionStage<?> handOver() {
            return appMarker.addAsync(0, "0");
        }

        @Override
        public void close() {
            lease.close();
        }
    }
}
