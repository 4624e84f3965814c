package io.bullpen;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * A group of a queue as {@link Queue#getGroups(String, int)} reports it: its counts and its own
 * settings (an empty setting means the queue's default for groups applies).
 *
 * @param name the group
 * @param waiting its jobs ready to run
 * @param active its jobs holding a lease (running or taken)
 * @param paused whether the group is paused
 * @param concurrency its own concurrency limit, empty = the queue's default (or none)
 * @param rateLimit its own rate limit, empty = the queue's default (or none)
 * @param maxSize its max number of waiting jobs, empty = unlimited
 * @param weight its share in the round robin (default 1)
 */
public record GroupInfo(String name, long waiting, long active, boolean paused, OptionalLong concurrency,
        Optional<RateLimit> rateLimit, OptionalLong maxSize, int weight) {
}
