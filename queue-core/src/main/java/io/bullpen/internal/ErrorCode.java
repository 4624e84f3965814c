package io.bullpen.internal;

import io.bullpen.BullpenException;
import io.bullpen.GroupFullException;
import io.bullpen.JobLockedException;
import io.bullpen.JobNotFoundException;
import io.bullpen.JobStateException;
import io.bullpen.LockLostException;
import io.bullpen.QueueBusyException;

/**
 * The closed set of negative codes Bullpen's scripts return for domain errors, turned into
 * exceptions in exactly one place ({@link #toException}). Not API.
 */
public enum ErrorCode {
    /** The job's hash does not exist. */
    JOB_NOT_FOUND(-1),
    /** The job's lock is gone (expired, or the job was recovered as stalled). */
    LOCK_MISSING(-2),
    /** Another worker holds the job's lock. */
    LOCK_HELD_BY_ANOTHER(-3),
    /** The job is not in the state the operation needs. */
    JOB_NOT_IN_STATE(-5),
    /** The job is active and a worker holds its lock. */
    JOB_LOCKED(-6),
    /** Jobs are active and the queue-wide action needs none (obliterate without force). */
    QUEUE_HAS_ACTIVE_JOBS(-7),
    /** An add would put more waiting jobs in a group than its max size. */
    GROUP_FULL(-8);

    private final int code;

    ErrorCode(int code) {
        this.code = code;
    }

    /** @return the number the scripts return */
    public int code() {
        return code;
    }

    /**
     * @param code a negative script result
     * @return the matching error code
     * @throws IllegalStateException for a code outside the enum (a script/Java mismatch)
     */
    public static ErrorCode of(long code) {
        for (ErrorCode c : values()) {
            if (c.code == code) {
                return c;
            }
        }
        throw new IllegalStateException("unknown script error code " + code);
    }

    /**
     * The one translation from script codes to exceptions.
     *
     * @param code a negative script result
     * @param queue the queue name
     * @param jobId the job the script worked on (null for a queue-wide action)
     * @param action what was attempted, for {@link JobStateException} (e.g. "promote")
     * @param needed the state the action needs, for {@link JobStateException} (e.g. "delayed");
     *     for {@link #QUEUE_HAS_ACTIVE_JOBS} the number of active jobs; for {@link #GROUP_FULL} the
     *     group and its max size, separated by a newline
     * @return the exception to throw
     */
    public static BullpenException toException(long code, String queue, String jobId, String action, String needed) {
        return switch (of(code)) {
            case JOB_NOT_FOUND -> new JobNotFoundException(queue, jobId);
            case LOCK_MISSING -> new LockLostException(queue, jobId, LockLostException.Reason.MISSING);
            case LOCK_HELD_BY_ANOTHER -> new LockLostException(queue, jobId, LockLostException.Reason.HELD_BY_ANOTHER);
            case JOB_NOT_IN_STATE -> new JobStateException(queue, jobId, action, needed);
            case JOB_LOCKED -> new JobLockedException(queue, jobId);
            case QUEUE_HAS_ACTIVE_JOBS -> new QueueBusyException(queue, action, Long.parseLong(needed));
            case GROUP_FULL -> new GroupFullException(queue, needed.substring(0, needed.lastIndexOf('\n')),
                    Long.parseLong(needed.substring(needed.lastIndexOf('\n') + 1)));
        };
    }
}
