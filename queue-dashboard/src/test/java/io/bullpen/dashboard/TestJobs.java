package io.bullpen.dashboard;

import io.bullpen.Retention;
import io.bullpen.internal.Futures;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.ScriptTypes.FetchArgs;
import io.bullpen.internal.ScriptTypes.Finish;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.internal.Scripts;
import org.redisson.api.RedissonClient;

/**
 * Moves jobs as a worker would, with the scripts a worker uses, so the dashboard's tests need no
 * worker: take the next ready job, log, report progress, complete or fail it.
 */
final class TestJobs {
    static final String WORKER = "test-worker";
    private static final FetchArgs TAKE = new FetchArgs(1, "w", 30_000, WORKER, 100, 100, 1);

    private final Scripts scripts;

    TestJobs(RedissonClient redisson, String queue) {
        this(redisson, "bp", queue);
    }

    TestJobs(RedissonClient redisson, String prefix, String queue) {
        this.scripts = new Scripts(redisson, new KeyScheme(prefix, queue));
    }

    /** A job a test worker holds. */
    record Taken(String id, String lockToken) {
    }

    /** Takes the next ready job (it becomes active, locked for 30 s). */
    Taken take() {
        var result = Futures.join(scripts.moveToActive(System.currentTimeMillis(), TAKE));
        if (result.jobs().isEmpty()) {
            throw new AssertionError("no job is ready to take");
        }
        RawJob job = result.jobs().get(0);
        return new Taken(job.id(), job.lockToken());
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
        Futures.join(scripts.moveToFinished(now, TAKE.withCount(0),
                completed
                        ? new Finish.Completed(job.id(), job.lockToken(), 1, value, Retention.keepAll(), null, null,
                                null, 0)
                        : attempts <= 1
                        ? new Finish.Failed(job.id(), job.lockToken(), 1, value, stack, 10, Retention.keepAll(), null,
                                null, null, 0)
                        : new Finish.Retry(job.id(), job.lockToken(), 1, value, stack, 10, 0, false, null, null,
                                Retention.keepAll(), null, 0)));
    }
}
