/** Bullpen as a peer, through its public API only: Queue, JobOptions, JobSpec and Worker. */
package io.bullpen.bench.peer.bullpen;
