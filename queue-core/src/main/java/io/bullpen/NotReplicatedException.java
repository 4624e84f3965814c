package io.bullpen;

import java.time.Duration;

/**
 * A durable add (see {@link Queue.Builder#durableAdds(int, Duration)}) was applied on the master
 * but fewer replicas than required acknowledged it within the timeout. The jobs exist on the
 * master and will run unless the master fails before replicating them. Adding them again with
 * the same custom job ids ({@link JobOptions.Builder#jobId(String)}) is idempotent: a duplicate id
 * is not added twice.
 */
public class NotReplicatedException extends BullpenException {

    private static final long serialVersionUID = 1L;

    private final String queue;
    private final int required;
    private final Duration timeout;

    /**
     * Creates the exception.
     *
     * @param queue the queue name
     * @param required replicas the add had to reach
     * @param timeout how long it waited for them
     * @param cause the client's report (it names how many replicas acknowledged)
     */
    public NotReplicatedException(String queue, int required, Duration timeout, Throwable cause) {
        super("add to queue " + queue + " was not acknowledged by " + required + " replica(s) within " + timeout.toMillis()
                + " ms (" + cause.getMessage() + "): the jobs are on the master only and a failover now would lose "
                + "them; add them again with the same custom job ids to stay idempotent", cause);
        this.queue = queue;
        this.required = required;
        this.timeout = timeout;
    }

    /** @return the queue name */
    public String queue() {
        return queue;
    }

    /** @return the number of replicas the add had to reach */
    public int required() {
        return required;
    }

    /** @return how long the add waited for them */
    public Duration timeout() {
        return timeout;
    }
}
