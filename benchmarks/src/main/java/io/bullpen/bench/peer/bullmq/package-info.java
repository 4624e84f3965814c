/**
 * BullMQ as a peer: one Node script per workload in {@code benchmarks/peers/bullmq/}, run as a
 * child process and driven over stdin/stdout with one JSON line per request and per reply.
 */
package io.bullpen.bench.peer.bullmq;
