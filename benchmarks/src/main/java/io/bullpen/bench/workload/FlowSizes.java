package io.bullpen.bench.workload;

import java.time.Duration;

/**
 * How big the flow-control workloads are: full sizes for a full run, small
 * ones for {@code --quick}.
 *
 * @param limiterJobs jobs processed under the rate limit
 * @param limiterWorkers workers sharing the limit
 * @param limiterConcurrency each worker's concurrency
 * @param limiterMax the limit: starts per second
 * @param wakeTrials trials per wake-up measurement (500 in a full run: its nearest-rank p99 is then the
 *     6th slowest sample, not the 3rd as with 200, so a stall or two of the machine moves it less)
 * @param waitWindow how long the commands of a worker waiting out a limit are counted
 * @param bigJobs the big group's jobs in the fairness workload
 * @param smallGroups the small groups added after it
 * @param smallJobs jobs per small group
 * @param fairConcurrency the worker's concurrency there
 * @param fairWork how long each job of the fairness workload takes
 * @param groupCostJobs jobs added and processed per variant of the group cost workload
 * @param groups how many groups those jobs are spread over
 */
record FlowSizes(int limiterJobs, int limiterWorkers, int limiterConcurrency, int limiterMax, int wakeTrials,
                 Duration waitWindow, int bigJobs, int smallGroups, int smallJobs, int fairConcurrency,
                 Duration fairWork, int groupCostJobs, int groups) {

    /** @return the sizes */
    static FlowSizes full() {
        return new FlowSizes(5_000, 4, 50, 200, 500, Duration.ofSeconds(35), 10_000, 20, 10, 10, Duration.ofMillis(5),
                20_000, 100);
    }

    /** @return small sizes for {@code --quick} and the smoke test */
    static FlowSizes quick() {
        return new FlowSizes(1_000, 4, 50, 200, 20, Duration.ofSeconds(2), 1_000, 20, 10, 10, Duration.ofMillis(2),
                2_000, 100);
    }
}
