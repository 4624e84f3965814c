package io.bullpen;

/**
 * No job with the given id exists in the queue: never added, already removed, or trimmed by
 * its retention policy.
 */
public class JobNotFoundException extends BullpenException {

    private static final long serialVersionUID = 1L;

    private final String queue;
    private final String jobId;

    /**
     * Creates the exception; the message reads "job 7 not found in queue orders".
     *
     * @param queue the queue name
     * @param jobId the missing job's id
     */
    public JobNotFoundException(String queue, String jobId) {
        super("job " + jobId + " not found in queue " + queue);
        this.queue = queue;
        this.jobId = jobId;
    }

    /**
     * The queue that was searched.
     *
     * @return the queue name
     */
    public String queue() {
        return queue;
    }

    /**
     * The id that was not found.
     *
     * @return the job id
     */
    public String jobId() {
        return jobId;
    }
}
