package io.bullpen;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Where a job is in its life. Every existing job is in exactly one of the seven stored states;
 * {@link #UNKNOWN} answers a lookup of an id that does not exist.
 *
 * <p>One vocabulary end to end: {@link #label()} is the word used in events, the dashboard and
 * the docs, {@link #key()} the suffix of the Redis key that holds the state's ids.
 */
public enum JobState {

    /** Ready to run, in the plain wait list (no priority). */
    WAITING("wait", "waiting"),
    /** Ready to run, ordered by priority. */
    PRIORITIZED("prioritized", "prioritized"),
    /** Waiting for its due time: added with a delay, or backing off before a retry. */
    DELAYED("delayed", "delayed"),
    /** Being processed by a worker that holds its lock. */
    ACTIVE("leases", "active"),
    /**
     * A parent job of a flow waiting for its children to end: it is ready (or delayed, by its own
     * delay counted from then) once none is pending. See {@code io.bullpen.flow}.
     */
    WAITING_CHILDREN("waiting-children", "waiting-children"),
    /** Finished successfully. */
    COMPLETED("completed", "completed"),
    /** Finished without success: out of attempts, or failed unrecoverably. */
    FAILED("failed", "failed"),
    /** No job with the id exists (never added, removed, or trimmed by retention). */
    UNKNOWN(null, "unknown");

    private final String key;
    private final String label;

    JobState(String key, String label) {
        this.key = key;
        this.label = label;
    }

    /**
     * The suffix of the Redis key holding the ids in this state, as in
     * {@code <prefix>:{<queue>}:wait}. Active jobs are the members of the {@code leases} sorted set
     * (job id to lock expiry).
     *
     * @return "wait", "prioritized", "delayed", "leases", "waiting-children", "completed" or "failed"
     * @throws UnsupportedOperationException for {@link #UNKNOWN}, which has no key
     */
    public String key() {
        if (key == null) {
            throw new UnsupportedOperationException(
                    "job state " + label + " has no Redis key: no job is stored in it");
        }
        return key;
    }

    /**
     * The lower-case word for this state used in events and the dashboard.
     *
     * @return "waiting", "prioritized", "delayed", "active", "waiting-children", "completed", "failed"
     *     or "unknown"
     */
    public String label() {
        return label;
    }

    /**
     * Whether a job in this state has finished (completed or failed).
     *
     * @return true for {@link #COMPLETED} and {@link #FAILED}
     */
    public boolean isFinished() {
        return this == COMPLETED || this == FAILED;
    }

    /**
     * The state with the given {@link #label()}.
     *
     * @param label a label such as "waiting"; case-sensitive
     * @return the state
     * @throws IllegalArgumentException if no state has this label (null included)
     */
    public static JobState fromLabel(String label) {
        for (JobState state : values()) {
            if (state.label.equals(label)) {
                return state;
            }
        }
        throw new IllegalArgumentException("unknown job state "
                + (label == null ? "null" : "\"" + label + "\"") + "; expected one of "
                + Arrays.stream(values()).map(JobState::label).collect(Collectors.joining(", ")));
    }
}
