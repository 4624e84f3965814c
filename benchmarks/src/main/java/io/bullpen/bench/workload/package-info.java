/**
 * The five workloads of the issue, each written once against
 * {@link io.bullpen.bench.peer.PeerDriver} and run the same way for every peer.
 */
package io.bullpen.bench.workload;
