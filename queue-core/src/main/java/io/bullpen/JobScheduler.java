package io.bullpen;

import java.time.Instant;
import java.util.Optional;

/**
 * A job scheduler as stored: it keeps exactly one pending iteration (a job with a deterministic
 * id) and creates the next one when a worker takes it.
 *
 * @param id the scheduler id given to upsertJobScheduler
 * @param name the name of the jobs it creates
 * @param repeat the schedule
 * @param nextRun when the pending iteration is due; empty when the schedule has ended
 * @param iterations how many jobs it has created so far
 * @param pendingJobId the id of the pending iteration, if any
 */
public record JobScheduler(String id, String name, Repeat repeat, Optional<Instant> nextRun, long iterations,
                           Optional<String> pendingJobId) {
}
