package io.bullpen;

import java.time.Instant;

/**
 * A live worker of a queue, as {@link Queue#getWorkers()} reports it from the worker's last
 * heartbeat. A worker sends one at start, every {@code min(lockDuration / 2, 5 s)} and when it
 * is paused or resumed; it leaves the list when it closes, and drops off 3 lock durations after
 * its last heartbeat when it dies.
 *
 * @param name the worker's name (see {@code Worker.Builder.name}); one entry per name
 * @param host the host name of the machine it runs on
 * @param pid the process id of its JVM
 * @param concurrency how many jobs it runs at once at most
 * @param running how many jobs it was running at its last heartbeat
 * @param paused whether it was paused (takes no jobs) at its last heartbeat
 * @param started when it started (Redis's clock)
 * @param lastSeen when its last heartbeat landed (Redis's clock)
 */
public record WorkerInfo(String name, String host, long pid, int concurrency, int running, boolean paused,
        Instant started, Instant lastSeen) {
}
