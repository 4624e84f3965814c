/**
 * The systems compared: a {@link io.bullpen.bench.peer.Peer} opens a
 * {@link io.bullpen.bench.peer.PeerDriver} that performs the workloads' operations its own way
 * (Bullpen and Redisson in this process, BullMQ in a Node child process).
 */
package io.bullpen.bench.peer;
