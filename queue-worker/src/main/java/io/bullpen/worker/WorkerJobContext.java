package io.bullpen.worker;

import io.bullpen.Job;
import io.bullpen.flow.ChildFailure;
import io.bullpen.flow.ChildResult;
import io.bullpen.flow.FlowJob;
import io.bullpen.internal.FlowPlan;
import java.util.ArrayList;
import java.util.List;
import io.bullpen.internal.Futures;
import io.bullpen.internal.JsonCodec;
import java.util.Optional;
import io.bullpen.internal.Validation;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/** The {@link JobContext} of one attempt. */
final class WorkerJobContext<T, R> implements JobContext<T> {
    private final ActiveJob<T> attempt;
    private final WorkerStore store;
    private final SafeListener<T, R> listener;
    private final WorkerSettings settings;

    WorkerJobContext(ActiveJob<T> attempt, WorkerStore store, SafeListener<T, R> listener, WorkerSettings settings) {
        this.attempt = attempt;
        this.store = store;
        this.listener = listener;
        this.settings = settings;
    }

    @Override
    public Job<T> job() {
        return attempt.job;
    }

    @Override
    public void updateProgress(Object progress) {
        String json = JsonCodec.encodeValue(progress, "progress of job " + attempt.id());
        Futures.join(store.updateProgress(attempt.id(), json));
        listener.progress(attempt.job, progress);
    }

    @Override
    public void log(String line) {
        Futures.join(store.addLog(attempt.id(), String.valueOf(line), settings.keepLogs()));
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

    @Override
    public void updateData(T data) {
        attempt.stageData(JsonCodec.encodeData(null, data, JsonCodec.DEFAULT_MAX_PAYLOAD_BYTES));
    }

    @Override
    public void delayUntil(Instant when) {
        Objects.requireNonNull(when, "when");
        try {
            attempt.stepDue(when.toEpochMilli());
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("delayUntil must fit in epoch milliseconds but was " + when, e);
        }
    }

    @Override
    public void delay(Duration delay) {
        Validation.nonNegative("delay", delay);
        attempt.stepDue(Math.addExact(settings.clock().millis(), Validation.toMillis("delay", delay)));
    }

    @Override
    public void addChildren(ChildFailure policy, FlowJob... children) {
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(children, "children");
        List<FlowJob.Edge> more = new ArrayList<>(children.length);
        for (FlowJob child : children) {
            more.add(new FlowJob.Edge(Objects.requireNonNull(child, "child"), policy));
        }
        // Checked now, so a bad child fails here and not when the attempt ends: the new children
        // encode (their data serializes), and with those staged before they make no cycle, among
        // themselves or with the jobs above this one.
        FlowPlan.ofChildren(more, "check", settings.defaultJobOptions()).chunks();
        FlowPlan all = FlowPlan.ofChildren(attempt.childrenWith(more), "check", settings.defaultJobOptions());
        store.refuseCycles(attempt.id(), all.customRefs());
        attempt.stageChildren(more);
    }

    @Override
    public void waitForChildren() {
        attempt.waitForChildren();
    }

    @Override
    public List<ChildResult> children() {
        return store.children(attempt.id(), CHILDREN_PAGE);
    }

    @Override
    public int childrenCount() {
        return store.childrenCount(attempt.id());
    }

    /** How many children {@link #children()} reads per call. */
    private static final int CHILDREN_PAGE = 500;
}
