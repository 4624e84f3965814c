package io.bullpen;

/** What {@link Queue#getMetrics(MetricsType, int)} counts per minute. */
public enum MetricsType {

    /** Jobs that completed. */
    COMPLETED("completed"),
    /** Jobs that failed for good (out of attempts, unrecoverable, or stalled too often); retries are not counted. */
    FAILED("failed");

    private final String label;

    MetricsType(String label) {
        this.label = label;
    }

    /**
     * The word used in Redis keys ({@code <prefix>:{<queue>}:metrics:completed}) and the dashboard.
     *
     * @return "completed" or "failed"
     */
    public String label() {
        return label;
    }
}
