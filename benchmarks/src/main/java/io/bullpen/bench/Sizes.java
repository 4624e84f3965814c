package io.bullpen.bench;

/**
 * How big each workload is: the sizes for a full run, reduced ones for {@code --quick}.
 *
 * @param processingJobs pre-added jobs processed at each concurrency
 * @param addOneJobs jobs added one at a time
 * @param addBulkJobs jobs added in bulk
 * @param bulkChunk jobs per bulk call
 * @param delayedJobs delayed jobs in the lateness workload
 * @param delayedLeadMs time from the producer's start to the first due time
 * @param delayedSpreadMs the due times spread uniformly over this span
 * @param costJobs jobs added and processed while CPU, commands and memory are measured
 * @param roundTripJobs jobs added and processed under MONITOR, to count round trips
 * @param scaleJobs delayed jobs pending at the large measurement point
 * @param scaleFirstStep delayed jobs pending at the small measurement point
 * @param scalePromoted jobs due soon, promoted and run at each measurement point
 * @param warmUpJobs jobs each driver adds and processes before it measures (JIT, V8, script caches)
 * @param processingWarmUpJobs jobs of the discarded pass {@code processing} runs at each concurrency
 *     before it measures that concurrency (without it, C2 was still compiling during the concurrency 1 run)
 * @param spreadJobs jobs of each {@code spread} pass (2 workers x concurrency 10)
 */
public record Sizes(int processingJobs, int addOneJobs, int addBulkJobs, int bulkChunk, int delayedJobs,
                    long delayedLeadMs, long delayedSpreadMs, int costJobs, int roundTripJobs, int scaleJobs,
                    int scaleFirstStep, int scalePromoted, int warmUpJobs, int processingWarmUpJobs, int spreadJobs) {

    /** @return the sizes of a full run */
    public static Sizes full() {
        return new Sizes(50_000, 10_000, 100_000, 1_000, 5_000, 1_000, 5_000, 20_000, 5_000, 1_000_000, 10_000, 5_000, 10_000,
                50_000, 2_000);
    }

    /** @return the sizes of {@code --quick} */
    public static Sizes quick() {
        return new Sizes(5_000, 2_000, 10_000, 1_000, 2_000, 1_000, 3_000, 2_000, 1_000, 100_000, 10_000, 2_000, 2_000,
                1_000, 1_000);
    }

    /**
     * @param count a count
     * @return it in short form: 10k, 1M
     */
    public static String shortCount(int count) {
        if (count >= 1_000_000 && count % 1_000_000 == 0) {
            return count / 1_000_000 + "M";
        }
        if (count >= 1_000 && count % 1_000 == 0) {
            return count / 1_000 + "k";
        }
        return Integer.toString(count);
    }
}
