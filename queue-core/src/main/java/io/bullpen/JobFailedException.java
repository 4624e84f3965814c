package io.bullpen;

/**
 * An awaited job failed for good ({@link Queue#awaitResult}, {@link Queue#addAndAwait}): its
 * attempts ran out, it was unrecoverable, or it was cancelled. Retried attempts do not complete
 * an await; only the final failure does.
 */
public class JobFailedException extends BullpenException {

    private static final long serialVersionUID = 1L;

    /** The prefix of a cancelled job's failed reason. */
    static final String CANCELLED_PREFIX = "cancelled: ";

    private final String jobId;
    private final String failedReason;
    private final boolean cancelled;

    /**
     * Creates the exception; the message reads "job 7 failed: boom".
     *
     * @param jobId the job
     * @param failedReason the job's failed reason
     * @param cancelled whether the job failed because it was cancelled
     */
    public JobFailedException(String jobId, String failedReason, boolean cancelled) {
        super("job " + jobId + " failed: " + failedReason);
        this.jobId = jobId;
        this.failedReason = failedReason;
        this.cancelled = cancelled;
    }

    /**
     * The job that failed.
     *
     * @return its id
     */
    public String jobId() {
        return jobId;
    }

    /**
     * The job's failed reason, as stored with the job.
     *
     * @return the reason; "cancelled: ..." for a cancelled job
     */
    public String failedReason() {
        return failedReason;
    }

    /**
     * Whether the job was cancelled rather than failing on its own.
     *
     * @return true for a cancelled job
     */
    public boolean cancelled() {
        return cancelled;
    }
}
