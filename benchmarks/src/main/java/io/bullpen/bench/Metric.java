package io.bullpen.bench;

/**
 * One figure of the table.
 *
 * @param workload the workload that measures it (processing, adding, delayed, cost, scale)
 * @param label what it is, with its unit, e.g. "jobs/s, concurrency 10"
 * @param higherIsBetter true for rates, false for latencies and costs
 * @param decimals digits after the point when printed
 */
public record Metric(String workload, String label, boolean higherIsBetter, int decimals) {
    /**
     * @param workload the workload
     * @param label the label, with its unit
     * @param decimals digits after the point
     * @return a metric where more is better (a rate)
     */
    public static Metric higher(String workload, String label, int decimals) {
        return new Metric(workload, label, true, decimals);
    }

    /**
     * @param workload the workload
     * @param label the label, with its unit
     * @param decimals digits after the point
     * @return a metric where less is better (a latency or a cost)
     */
    public static Metric lower(String workload, String label, int decimals) {
        return new Metric(workload, label, false, decimals);
    }
}
