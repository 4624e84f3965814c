/**
 * Redisson as a peer: RBlockingQueue for processing and adding, RDelayedQueue for delayed
 * messages. A message is the string {@code "<n>:<due millis>"}; taking it is its processing
 * (there is no acknowledgement, no completed state and no event stream).
 */
package io.bullpen.bench.peer.redisson;
