package io.bullpen;

/**
 * A queue operation could not reach Redis: the server is down or unreachable (connection
 * refused, no connection could be opened) or did not answer in time. Thrown on every call while
 * it lasts, the first call on a new {@link Queue} included, without Redisson's retries: at once
 * when the connection is refused, otherwise after the client's {@code connectTimeout} or
 * {@code timeout} (Redisson's defaults: 10 s and 3 s). The cause is the client library's
 * exception.
 *
 * <p>Its subclass {@link RedisMemoryFullException} says Redis answered but refused a write at
 * its {@code maxmemory} limit.
 *
 * <p>After a timeout a write may still have been applied: adding again with the same custom
 * job id is safe (an existing id is not added twice).
 */
public class QueueUnavailableException extends BullpenException {

    private static final long serialVersionUID = 1L;

    private final String queue;
    private final String operation;

    /**
     * Creates the exception; {@code ("orders", "add", "Redis unavailable (Connection refused)", cause)}
     * reads "queue orders: add failed: Redis unavailable (Connection refused)".
     *
     * @param queue the queue name, or null for a call on no single queue
     * @param operation the {@link Queue} method that failed, e.g. "add"
     * @param reason what went wrong
     * @param cause the client library's exception
     */
    public QueueUnavailableException(String queue, String operation, String reason, Throwable cause) {
        super((queue == null ? "" : "queue " + queue + ": ") + operation + " failed: " + reason, cause);
        this.queue = queue;
        this.operation = operation;
    }

    /**
     * The queue.
     *
     * @return the queue name, or null for a call on no single queue ({@link Queue#listQueues})
     */
    public String queue() {
        return queue;
    }

    /**
     * The operation that failed.
     *
     * @return the {@link Queue} method's name, e.g. "add"
     */
    public String operation() {
        return operation;
    }
}
