package io.bullpen;

/**
 * Base of Bullpen's domain failures: a job missing, in the wrong state, locked, or a lost lock.
 * Unchecked, so callers catch only what they can handle; catch this type to handle them all.
 * A {@link Queue} call that cannot reach Redis throws {@link QueueUnavailableException}, with
 * the client library's exception as its cause.
 */
public class BullpenException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception with a message.
     *
     * @param message what went wrong, naming the queue and job where there is one
     */
    public BullpenException(String message) {
        super(message);
    }

    /**
     * Creates an exception with a message and a cause.
     *
     * @param message what went wrong, naming the queue and job where there is one
     * @param cause the underlying failure
     */
    public BullpenException(String message, Throwable cause) {
        super(message, cause);
    }
}
