package io.bullpen;

import java.time.Duration;

/**
 * A durable add (see {@link Queue.Builder#durableAdds(int, Duration)}) did not reach the
 * replicas it requires. {@link #written()} says which of two cases it is:
 * <ul>
 * <li>{@code false}: fewer replicas than required are connected to the master, so the add was
 *     refused at once and nothing was written (the queue asks Redis before an add when it has not
 *     seen enough replicas within the last second). Adding again once replicas are back is safe.</li>
 * <li>{@code true}: the add was applied on the master but fewer replicas than required
 *     acknowledged it within the timeout. The jobs exist on the master and will run unless the
 *     master fails before replicating them. Adding them again with the same custom job ids
 *     ({@link JobOptions.Builder#jobId(String)}) is idempotent: a duplicate id is not added twice.</li>
 * </ul>
 */
public class NotReplicatedException extends BullpenException {

    private static final long serialVersionUID = 1L;

    private final String queue;
    private final int required;
    private final Duration timeout;
    private final boolean written;

    /**
     * Creates the exception.
     *
     * @param queue the queue name
     * @param required replicas the add had to reach
     * @param timeout how long it waited for them
     * @param cause the client's report (it names how many replicas acknowledged)
     */
    public NotReplicatedException(String queue, int required, Duration timeout, Throwable cause) {
        super("add to queue " + queue + " was written on the master but not acknowledged by " + required
                + " replica(s) within " + timeout.toMillis() + " ms (" + cause.getMessage() + "): the jobs are on the "
                + "master only and a failover now would lose them; add them again with the same custom job ids to "
                + "stay idempotent", cause);
        this.queue = queue;
        this.required = required;
        this.timeout = timeout;
        this.written = true;
    }

    /**
     * Creates the exception for an add refused before anything was written: too few replicas are
     * connected to the master ({@link #written()} is false).
     *
     * @param queue the queue name
     * @param required replicas the add had to reach
     * @param timeout how long it would have waited for them
     * @param connected replicas connected to the master when the add was refused
     */
    public NotReplicatedException(String queue, int required, Duration timeout, int connected) {
        super("add to queue " + queue + " not written: " + (connected == 0 ? "no replica is connected"
                : "only " + connected + " replica(s) are connected") + " to its master, and durableAdds requires "
                + required + "; nothing was added. Add again once the replicas are back, or build the queue "
                + "without durableAdds", null);
        this.queue = queue;
        this.required = required;
        this.timeout = timeout;
        this.written = false;
    }

    /** @return the queue name */
    public String queue() {
        return queue;
    }

    /** @return the number of replicas the add had to reach */
    public int required() {
        return required;
    }

    /** @return how long the add waited (or would have waited) for them */
    public Duration timeout() {
        return timeout;
    }

    /**
     * Whether the add was written on the master.
     *
     * @return true when the jobs are on the master (only the acknowledgement was missing); false
     *     when the add was refused before writing anything, because too few replicas were connected
     */
    public boolean written() {
        return written;
    }
}
