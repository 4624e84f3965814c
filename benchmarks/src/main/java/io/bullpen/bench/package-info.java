/**
 * Bullpen's benchmark harness: {@link io.bullpen.bench.BenchMain} starts a Redis, runs each
 * workload for Bullpen and its peers (BullMQ in Node, Redisson in process) and prints one table
 * of medians, ranges and ratios.
 */
package io.bullpen.bench;
