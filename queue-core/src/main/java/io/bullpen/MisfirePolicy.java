package io.bullpen;

/**
 * What a job scheduler does when its iterations could not run on time (no worker ran for a
 * while, so at least one whole period was missed).
 */
public enum MisfirePolicy {
    /** Run the overdue iteration once as soon as a worker takes it, then continue on schedule. */
    RUN_ONCE_NOW,
    /** Drop the overdue iteration and continue with the next time in the future. */
    SKIP_MISSED
}
