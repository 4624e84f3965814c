package io.bullpen;

/** The reason an attempt failed when it ran past its job's {@code timeout}. */
public class JobTimeoutException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message "timed out after ...ms" */
    public JobTimeoutException(String message) {
        super(message);
    }
}
