package io.bullpen;

/**
 * What {@link Queue#cancel(String, String)} did. A job cancelled before it ran is failed for good
 * at once ({@code failedReason} {@code "cancelled: <reason>"}, a {@code failed} event with
 * {@code cancelled} = 1); an active job is flagged and its worker stops it.
 */
public enum CancelResult {
    /** The job was waiting (grouped or not, also in a paused queue or group): it is now failed. */
    CANCELLED_WAITING,
    /** The job was delayed (or backing off before a retry): it is now failed. */
    CANCELLED_DELAYED,
    /** The job was prioritized: it is now failed. */
    CANCELLED_PRIORITIZED,
    /**
     * The job is active: it is flagged, and its worker learns of it within about half a second,
     * interrupts the processor and fails the job as cancelled (unless the processor returns a
     * value anyway: then the job completes).
     */
    CANCEL_REQUESTED,
    /** The job had already completed or failed: nothing changed. */
    ALREADY_FINISHED,
    /** There is no such job. */
    NOT_FOUND
}
