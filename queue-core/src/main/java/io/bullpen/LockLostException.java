package io.bullpen;

/**
 * A worker's lock on a job is gone: it expired (the job may already be running elsewhere after
 * stalled-job recovery) or another worker now holds it. The worker's result for the job is
 * rejected, which is why processing is at-least-once and processors should be idempotent.
 */
public class LockLostException extends BullpenException {

    private static final long serialVersionUID = 1L;

    /** How the lock was lost. */
    public enum Reason {
        /** No lock exists: it expired or the job was moved or removed meanwhile. */
        MISSING,
        /** A lock exists but with another worker's token. */
        HELD_BY_ANOTHER
    }

    private final String queue;
    private final String jobId;
    private final Reason reason;

    /**
     * Creates the exception; the message reads e.g. "lock on job 7 in queue orders is missing
     * (expired or released)".
     *
     * @param queue the queue name
     * @param jobId the job's id
     * @param reason how the lock was lost
     */
    public LockLostException(String queue, String jobId, Reason reason) {
        super("lock on job " + jobId + " in queue " + queue + " is "
                + (reason == Reason.HELD_BY_ANOTHER
                        ? "held by another worker"
                        : "missing (expired or released)"));
        this.queue = queue;
        this.jobId = jobId;
        this.reason = reason;
    }

    /**
     * The job's queue.
     *
     * @return the queue name
     */
    public String queue() {
        return queue;
    }

    /**
     * The job's id.
     *
     * @return the job id
     */
    public String jobId() {
        return jobId;
    }

    /**
     * How the lock was lost.
     *
     * @return the reason
     */
    public Reason reason() {
        return reason;
    }
}
