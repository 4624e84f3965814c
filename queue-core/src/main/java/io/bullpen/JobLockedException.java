package io.bullpen;

/**
 * The job is active and locked by a worker, so it cannot be changed from outside (e.g.
 * removed) until the worker finishes it or its lock expires. To stop a running job, cancel it
 * ({@code Queue.cancel(jobId, reason)}): its processor is interrupted and it fails as cancelled.
 */
public class JobLockedException extends BullpenException {

    private static final long serialVersionUID = 1L;

    private final String queue;
    private final String jobId;

    /**
     * Creates the exception; the message reads "job 7 in queue orders is active and locked by a
     * worker".
     *
     * @param queue the queue name
     * @param jobId the locked job's id
     */
    public JobLockedException(String queue, String jobId) {
        super("job " + jobId + " in queue " + queue + " is active and locked by a worker");
        this.queue = queue;
        this.jobId = jobId;
    }

    /**
     * Creates the exception for a refused action; the message reads "cannot remove job 7 in
     * queue orders: it is active and locked by a worker".
     *
     * @param queue the queue name
     * @param jobId the locked job's id
     * @param action the refused action as a verb, e.g. "remove"
     */
    public JobLockedException(String queue, String jobId, String action) {
        super("cannot " + action + " job " + jobId + " in queue " + queue
                + ": it is active and locked by a worker");
        this.queue = queue;
        this.jobId = jobId;
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
     * The locked job's id.
     *
     * @return the job id
     */
    public String jobId() {
        return jobId;
    }
}
