package io.bullpen.flow;

import io.bullpen.JobState;
import io.bullpen.internal.JsonCodec;
import java.util.Objects;
import java.util.Optional;

/**
 * One child of a parent job as the parent sees it: its outcome, copied to the parent when the
 * child ended (so it stays readable after the child itself is removed by retention), or its
 * state while it is still pending. A child removed before it ended counts as failed with reason
 * {@code removed}.
 */
public final class ChildResult {
    private final String queue;
    private final String id;
    private final String name;
    private final JobState state;
    private final String returnValueJson;
    private final String failedReason;

    /**
     * Builds a child's result (Bullpen builds them from Redis; tests of processors may build their own).
     *
     * @param queue the child's queue
     * @param id the child's id
     * @param name the child's job name ("" when unknown)
     * @param state the child's state: {@link JobState#COMPLETED} or {@link JobState#FAILED} once it
     *     ended, else its state now ({@link JobState#UNKNOWN} when it could not be read)
     * @param returnValueJson the child's return value as JSON, null when none
     * @param failedReason why the child failed, null unless it did
     */
    public ChildResult(String queue, String id, String name, JobState state, String returnValueJson,
                       String failedReason) {
        this.queue = Objects.requireNonNull(queue, "queue");
        this.id = Objects.requireNonNull(id, "id");
        this.name = name == null ? "" : name;
        this.state = Objects.requireNonNull(state, "state");
        this.returnValueJson = returnValueJson;
        this.failedReason = failedReason;
    }

    /** @return the child's queue */
    public String queue() {
        return queue;
    }

    /** @return the child's job id */
    public String id() {
        return id;
    }

    /** @return the child's job name */
    public String name() {
        return name;
    }

    /** @return COMPLETED or FAILED once the child ended; else where it is now */
    public JobState state() {
        return state;
    }

    /** @return the child's return value as JSON, empty unless it completed with a non-null value */
    public Optional<String> returnValueJson() {
        return Optional.ofNullable(returnValueJson);
    }

    /**
     * @param type the class to read the return value as (Jackson)
     * @param <R> the type
     * @return the child's return value, empty unless it completed with a non-null value
     */
    public <R> Optional<R> returnValue(Class<R> type) {
        return returnValueJson().map(json -> JsonCodec.decode(json, JsonCodec.type(type)));
    }

    /** @return why the child failed for good ({@code removed} for a removed child), empty unless it failed */
    public Optional<String> failedReason() {
        return Optional.ofNullable(failedReason);
    }

    /** @return the child as a reference */
    public JobRef ref() {
        return new JobRef(queue, id);
    }

    @Override
    public String toString() {
        return "ChildResult{" + queue + ":" + id + " " + name + " " + state.label()
                + (failedReason != null ? " reason=" + failedReason : "") + "}";
    }
}
