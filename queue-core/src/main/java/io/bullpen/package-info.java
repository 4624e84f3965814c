/**
 * The Bullpen public API: Bull-style job queues on Redis.
 *
 * <p>A {@code Queue} adds jobs ({@link io.bullpen.JobSpec} with {@link io.bullpen.JobOptions})
 * and administers them; a {@code Job} is a snapshot of one job's stored state
 * ({@link io.bullpen.JobState}); {@link io.bullpen.Backoff} and {@link io.bullpen.Retention}
 * configure retries and how many finished jobs to keep; {@link io.bullpen.JobCounts} summarizes
 * a queue. Domain failures are unchecked subclasses of {@link io.bullpen.BullpenException}.
 *
 * <p>Processing is at-least-once: a job whose worker crashes or loses its lock is retried, so a
 * processor may see the same job more than once and should be idempotent.
 *
 * <p>Value types here are immutable and thread-safe. Workers live in {@code io.bullpen.worker};
 * {@code io.bullpen.internal} is not API.
 */
package io.bullpen;
