package io.bullpen;

/**
 * An action needs the job to be in another state, e.g. promoting a job that is not delayed or
 * retrying one that has not failed.
 */
public class JobStateException extends BullpenException {

    private static final long serialVersionUID = 1L;

    private final String queue;
    private final String jobId;
    private final String action;
    private final String requiredState;

    /**
     * Creates the exception; {@code ("orders", "7", "promote", "delayed")} reads
     * "cannot promote job 7 in queue orders: it is not delayed".
     *
     * @param queue the queue name
     * @param jobId the job's id
     * @param action the refused action as a verb, e.g. "promote"
     * @param requiredState the state the action needs, as a {@link JobState#label()} or a
     *     phrase that reads after "it is not", e.g. "delayed"
     */
    public JobStateException(String queue, String jobId, String action, String requiredState) {
        super("cannot " + action + " job " + jobId + " in queue " + queue + ": it is not "
                + requiredState);
        this.queue = queue;
        this.jobId = jobId;
        this.action = action;
        this.requiredState = requiredState;
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
     * The refused action.
     *
     * @return a verb such as "promote"
     */
    public String action() {
        return action;
    }

    /**
     * The state the action needs.
     *
     * @return e.g. "delayed"
     */
    public String requiredState() {
        return requiredState;
    }
}
