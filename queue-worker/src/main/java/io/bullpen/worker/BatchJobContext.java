package io.bullpen.worker;

import io.bullpen.Job;
import io.bullpen.flow.ChildFailure;
import io.bullpen.flow.ChildResult;
import io.bullpen.flow.FlowJob;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The {@link JobContext} of one job in a batch: its own progress, log, data, cancel flag and
 * children, as a per-job attempt has them; a delay or a wait for children, which would end this
 * job's attempt apart from its batch, is refused.
 */
final class BatchJobContext<T> implements JobContext<T> {
    private final JobContext<T> job;

    BatchJobContext(JobContext<T> job) {
        this.job = job;
    }

    @Override
    public Job<T> job() {
        return job.job();
    }

    @Override
    public void updateProgress(Object progress) {
        job.updateProgress(progress);
    }

    @Override
    public void log(String line) {
        job.log(line);
    }

    @Override
    public long fencingToken() {
        return job.fencingToken();
    }

    @Override
    public boolean isCancelled() {
        return job.isCancelled();
    }

    @Override
    public Optional<String> cancellationReason() {
        return job.cancellationReason();
    }

    @Override
    public void updateData(T data) {
        job.updateData(data);
    }

    @Override
    public void delayUntil(Instant when) {
        throw new UnsupportedOperationException("a job of a batch cannot be delayed (job " + job.job().id()
                + "): fail it with batch.fail(ctx, new RateLimitedException(...)) to run it again later");
    }

    @Override
    public void delay(Duration delay) {
        throw new UnsupportedOperationException("a job of a batch cannot be delayed (job " + job.job().id()
                + "): fail it with batch.fail(ctx, new RateLimitedException(...)) to run it again later");
    }

    @Override
    public List<ChildResult> children() {
        return job.children();
    }

    @Override
    public int childrenCount() {
        return job.childrenCount();
    }

    @Override
    public void addChildren(ChildFailure policy, FlowJob... children) {
        job.addChildren(policy, children);
    }

    @Override
    public void waitForChildren() {
        throw new UnsupportedOperationException("a job of a batch cannot wait for its children (job "
                + job.job().id() + "): use a per-job processor for parents that wait");
    }
}
