package io.bullpen.bench.peer;

import java.util.List;

/**
 * When each job of a rate-limited run started, seen two ways.
 *
 * @param processedOnMs each job's start as the queue recorded it (its {@code processedOn}), epoch ms
 * @param processorMicros each job's start by the processor's own clock (the moment it was called),
 *                        in microseconds from an arbitrary origin shared by the run
 */
public record Starts(List<Long> processedOnMs, List<Long> processorMicros) {
}
