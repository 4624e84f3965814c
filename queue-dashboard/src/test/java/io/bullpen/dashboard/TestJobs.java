package io.bullpen.dashboard;

import io.bullpen.Retention;
import io.bullpen.internal.FlowRelay;
import io.bullpen.internal.Futures;
import io.bullpen.internal.JobFields;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.ScriptTypes.FetchArgs;
import io.bullpen.internal.ScriptTypes.Finish;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.internal.Scripts;
import java.time.Clock;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * Moves jobs as a worker would, with the scripts a worker uses, so the dashboard's tests need no
 * worker: take the next ready job, log, report progress, complete or fail it.
 */
final class TestJobs {
    static final String WORKER = "test-worker";
    private static final FetchArgs TAKE = new FetchArgs(1, "w", 30_000, WORKER, 100, 100, 1);

    private final Scripts scripts;
    private final FlowRelay relay;
    private final String queue;

    TestJobs(RedissonClient redisson, String queue) {
        this(redisson, "bp", queue);
    }

    TestJobs(RedissonClient redisson, String prefix, String queue) {
        KeyScheme keys = new KeyScheme(prefix, queue);
        this.scripts = new Scripts(redisson, keys);
        // A worker registers its queue when it starts (jobs added by a FlowProducer do not).
        redisson.getSet(keys.registry(), StringCodec.INSTANCE).add(keys.queue());
        this.relay = new FlowRelay(redisson, prefix, Clock.systemUTC());
        this.queue = queue;
    }

    /** A job a test worker holds; {@code parent}: a flow child (its end tells its parents, as a worker's does). */
    record Taken(String id, String lockToken, boolean parent) {
    }

    /**
     * Tells the parents in other queues of this queue's flow children that ended (their ends wait
     * in this queue's outbox), as a worker's flow runner does.
     */
    void relayChildEnds() {
        relay.relayOutbox(queue, 100);
    }

    /** Takes the next ready job (it becomes active, locked for 30 s). */
    Taken take() {
        var result = Futures.join(scripts.moveToActive(System.currentTimeMillis(), TAKE));
        if (result.jobs().isEmpty()) {
            throw new AssertionError("no job is ready to take");
        }
        RawJob job = result.jobs().get(0);
        String parents = job.hash().get(JobFields.PARENTS);
        return new Taken(job.id(), job.lockToken(), parents != null && !parents.isEmpty());
    }

    void log(String id, String line) {
        Futures.join(scripts.addLog(id, line, -1));
    }

    void progress(String id, String json) {
        Futures.join(scripts.updateProgress(id, json));
    }

    /** Completes a taken job now with a return value (JSON). */
    void complete(Taken job, String returnJson) {
        complete(job, returnJson, System.currentTimeMillis());
    }

    /** Completes a taken job as of {@code finishedOn}. */
    void complete(Taken job, String returnJson, long finishedOn) {
        finish(job, true, returnJson, null, 1, finishedOn);
    }

    /** Fails a taken job for good now. */
    void fail(Taken job, String reason, String stacktrace) {
        fail(job, reason, stacktrace, System.currentTimeMillis());
    }

    /** Fails a taken job for good as of {@code finishedOn}. */
    void fail(Taken job, String reason, String stacktrace, long finishedOn) {
        finish(job, false, reason, stacktrace, 1, finishedOn);
    }

    /** Fails one attempt of a job allowed {@code attempts}: back to waiting while attempts remain. */
    void failAttempt(Taken job, String reason, String stacktrace, int attempts) {
        finish(job, false, reason, stacktrace, attempts, System.currentTimeMillis());
    }

    /** Takes the next job and completes it. */
    String completeNext(String returnJson) {
        Taken t = take();
        complete(t, returnJson);
        return t.id();
    }

    /** Takes the next job and fails it for good. */
    String failNext(String reason) {
        Taken t = take();
        fail(t, reason, "java.lang.IllegalStateException: " + reason + "\n\tat Test.run(Test.java:1)");
        return t.id();
    }

    private void finish(Taken job, boolean completed, String value, String stack, int attempts, long now) {
        Finish finish = completed
                ? new Finish.Completed(job.id(), job.lockToken(), 1, value, Retention.keepAll(), null, null, null, 0)
                : attempts <= 1
                ? new Finish.Failed(job.id(), job.lockToken(), 1, value, stack, 10, Retention.keepAll(), null,
                        null, null, 0)
                : new Finish.Retry(job.id(), job.lockToken(), 1, value, stack, 10, 0, false, null, null,
                        Retention.keepAll(), null, 0);
        Futures.join(scripts.moveToFinished(now, TAKE.withCount(0), finish.withParent(job.parent())));
    }
}
