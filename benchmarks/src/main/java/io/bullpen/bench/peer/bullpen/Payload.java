package io.bullpen.bench.peer.bullpen;

/**
 * A benchmark job's data: {@code {"n": 42}}, as the other peers' jobs carry.
 *
 * @param n the job's index
 */
public record Payload(int n) {
}
