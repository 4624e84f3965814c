package io.bullpen;

/**
 * A queue-wide action needs the queue to have no active jobs, e.g. obliterating it without
 * {@code force} while workers are running jobs.
 */
public class QueueBusyException extends BullpenException {

    private static final long serialVersionUID = 1L;

    private final String queue;
    private final long activeJobs;

    /**
     * Creates the exception; {@code ("orders", "obliterate", 3)} reads "cannot obliterate queue
     * orders: 3 jobs are active (pass force = true to obliterate it anyway)".
     *
     * @param queue the queue name
     * @param action the refused action as a verb, e.g. "obliterate"
     * @param activeJobs how many jobs were active when the action was refused
     */
    public QueueBusyException(String queue, String action, long activeJobs) {
        super("cannot " + action + " queue " + queue + ": " + activeJobs + (activeJobs == 1 ? " job is" : " jobs are")
                + " active (pass force = true to " + action + " it anyway)");
        this.queue = queue;
        this.activeJobs = activeJobs;
    }

    /**
     * The queue.
     *
     * @return the queue name
     */
    public String queue() {
        return queue;
    }

    /**
     * How many jobs were active.
     *
     * @return the number of active jobs when the action was refused
     */
    public long activeJobs() {
        return activeJobs;
    }
}
