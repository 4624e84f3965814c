package io.bullpen.bench.peer;

/**
 * One pass of the {@code parent-child} workload: flows added one at a time, each a parent with
 * its children, while workers run both queues.
 *
 * @param seconds from the first add to the last parent's completion
 * @param parents parents completed (all of them, or the pass failed)
 */
public record ParentChildRun(double seconds, int parents) {
}
