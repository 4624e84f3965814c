package io.bullpen;

/**
 * Thrown by a processor to fail the job at once, skipping its remaining attempts (for errors a
 * retry cannot fix, such as invalid data).
 */
public class UnrecoverableJobException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message why the job cannot succeed */
    public UnrecoverableJobException(String message) {
        super(message);
    }

    /**
     * @param message why the job cannot succeed
     * @param cause the underlying error
     */
    public UnrecoverableJobException(String message, Throwable cause) {
        super(message, cause);
    }
}
