package io.bullpen.worker;

import io.bullpen.Job;
import io.bullpen.internal.Futures;
import io.bullpen.internal.JsonCodec;
import java.util.Optional;

/** The {@link JobContext} of one attempt. */
final class WorkerJobContext<T, R> implements JobContext<T> {
    private final WorkerRuntime<T, R> rt;
    private final ActiveJob<T> attempt;

    WorkerJobContext(WorkerRuntime<T, R> rt, ActiveJob<T> attempt) {
        this.rt = rt;
        this.attempt = attempt;
    }

    @Override
    public Job<T> job() {
        return attempt.job;
    }

    @Override
    public void updateProgress(Object progress) {
        String json = JsonCodec.encodeValue(progress, "progress of job " + attempt.id());
        Futures.join(rt.scripts.updateProgress(attempt.id(), json));
        rt.listener.progress(attempt.job, progress);
    }

    @Override
    public void log(String line) {
        Futures.join(rt.scripts.addLog(attempt.id(), String.valueOf(line), rt.settings.keepLogs()));
    }

    @Override
    public long fencingToken() {
        return attempt.job.fencingToken();
    }

    @Override
    public boolean isCancelled() {
        return attempt.cancelled();
    }

    @Override
    public Optional<String> cancellationReason() {
        return Optional.ofNullable(attempt.cancelReason());
    }
}
