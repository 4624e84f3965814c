package io.bullpen;

import io.bullpen.internal.RedisCalls;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.redisson.api.RedissonClient;

/**
 * The part of {@link Queue} that acts on jobs one by one or queue-wide: promote, retry, remove,
 * job schedulers, the chunked bulk operations, metrics, workers, cancel, deduplication, changing
 * a job and awaiting its result. Split off only to keep each class small; users see these methods
 * as {@link Queue}'s own.
 *
 * @param <T> the type of the jobs' data
 */
abstract class QueueJobControl<T> extends QueueFlowControl<T> {
    QueueJobControl(Queue.Builder<T> b) {
        super(b);
    }

    /**
     * Runs a delayed job now.
     *
     * @param id the job id
     * @throws JobNotFoundException when there is no such job
     * @throws JobStateException when the job is not delayed
     */
    public void promote(String id) {
        join("promote", scripts.promote(Objects.requireNonNull(id, "id")));
    }

    /**
     * Runs a failed job again, with a fresh set of attempts.
     *
     * @param id the job id
     * @throws JobNotFoundException when there is no such job
     * @throws JobStateException when the job is not failed
     */
    public void retry(String id) {
        join("retry", scripts.retryJob(Objects.requireNonNull(id, "id"), JobState.FAILED));
    }

    /**
     * Removes a job with its logs, in any state but active. An active job is refused with a
     * {@link JobLockedException}: a worker runs it and holds its lock, and removing it under the
     * worker would lose what the worker records. To stop a running job,
     * {@link #cancel(String, String) cancel} it instead: its processor is interrupted and the job
     * fails as cancelled, without retry; remove it then, if it should not stay in failed.
     *
     * @param id the job id
     * @return true when removed, false when there was no such job
     * @throws JobLockedException when the job is active and a worker holds its lock (cancel it instead)
     */
    public boolean remove(String id) {
        return join("remove", scripts.removeJob(Objects.requireNonNull(id, "id")));
    }

    /**
     * Creates or updates a repeating job: a scheduler that keeps exactly one pending iteration
     * (a job with the id {@code repeat-<id>-<due millis>}) and creates the next one when a worker
     * takes it. Calling it again with the same definition changes nothing, however many
     * producers do so at once; a new definition replaces the pending iteration. A scheduler a
     * configuration declared ({@link Queue#declaredBy(String)}) loses its owner's mark: the
     * configuration no longer removes it.
     *
     * @param id the scheduler id (same rules as job ids)
     * @param repeat when jobs run
     * @param template the jobs' name, data and options
     * @return whether anything changed
     * @throws IllegalArgumentException for an illegal id, data that cannot be serialized, a template
     *     without data (null) on a queue whose data type is not {@code Void} or {@code Object} (the
     *     message names the scheduler), an {@code endAt} before {@code startAt}, or a schedule with
     *     no run at all (a cron date that never comes, such as February 30, or an {@code endAt}
     *     before the first run); nothing is written
     */
    public boolean upsertJobScheduler(String id, Repeat repeat, JobTemplate<T> template) {
        return schedulers.upsert(id, repeat, template, null);
    }

    /**
     * @return every job scheduler of this queue, next to run first (ended ones last)
     */
    public List<JobScheduler> getJobSchedulers() {
        return schedulers.list();
    }

    /**
     * Deletes a job scheduler and its pending iteration (an iteration a worker is running
     * finishes normally).
     *
     * @param id the scheduler id
     * @return true when there was such a scheduler
     */
    public boolean removeJobScheduler(String id) {
        return schedulers.remove(id, null);
    }

    /**
     * Removes jobs of one state that are older than a grace period, with their hashes and logs.
     * Age is measured from when the job finished (COMPLETED, FAILED) or was added (DELAYED,
     * WAITING, PRIORITIZED), against this queue's clock. Works in chunks of at most 1,000 jobs
     * (jobs that move meanwhile may be skipped); when anything was removed, one {@code cleaned}
     * event (fields {@code count} and {@code state}) follows. WAITING covers the jobs without a
     * group; a group's waiting jobs are removed with {@link #drain(boolean)}, {@link #remove(String)}
     * or {@link #obliterate(boolean)}.
     *
     * @param grace jobs younger than this are kept ({@link Duration#ZERO}: all of them are old)
     * @param limit the most jobs removed; 0 = no limit
     * @param state COMPLETED, FAILED, DELAYED, WAITING or PRIORITIZED
     * @return how many jobs were removed
     * @throws IllegalArgumentException for ACTIVE or UNKNOWN, a negative grace or a negative limit
     */
    public long clean(Duration grace, int limit, JobState state) {
        return RedisCalls.call(name(), "clean", () -> admin.clean(clock.millis(), grace, limit, state));
    }

    /**
     * Removes every job waiting to run (waiting and prioritized; delayed too when asked), with
     * their hashes and logs. Active, completed and failed jobs stay. When anything was removed,
     * one {@code cleaned} event (fields {@code count}, {@code state} = {@code waiting} and
     * {@code delayed} = {@code 1} or {@code 0}) follows; no {@code removed} event per job. (A
     * {@code drained} event means something else: a worker found the queue empty.)
     *
     * @param includeDelayed whether delayed jobs (and retries backing off) go too
     */
    public void drain(boolean includeDelayed) {
        RedisCalls.call(name(), "drain", () -> admin.drain(includeDelayed));
    }

    /**
     * Deletes the queue: every job (hash, lock, logs), every job scheduler, the state keys, meta,
     * events, metrics and the id and fencing counters, and removes the name from
     * {@link Queue#listQueues(RedissonClient, String)}. Pauses the queue first, so workers take nothing
     * meanwhile, then deletes in chunks of at most 1,000 jobs. Stop producers first: a job added
     * while this runs may be deleted too. Using this {@code Queue} afterwards starts an empty
     * queue of the same name.
     *
     * @param force also delete active jobs (their workers then fail to report them: job not
     *     found); without it the queue must have no active jobs
     * @throws QueueBusyException when jobs are active and {@code force} is false; the queue is
     *     then left as it was (resumed, if this call paused it)
     */
    public void obliterate(boolean force) {
        RedisCalls.call(name(), "obliterate", () -> admin.obliterate(force));
        registered.set(false);
    }

    /**
     * Runs every failed (or completed) job again with a fresh set of attempts, as
     * {@link #retry(String)} does, oldest finished first, in chunks of at most 1,000 jobs. Jobs
     * that finish again while this runs are not retried twice.
     *
     * @param state FAILED or COMPLETED
     * @return how many jobs were retried
     * @throws IllegalArgumentException for any other state
     */
    public long retryJobs(JobState state) {
        return RedisCalls.call(name(), "retryJobs", () -> admin.retryJobs(state));
    }

    /**
     * Runs every delayed job now (retries backing off included), earliest due first, as
     * {@link #promote(String)} does, in chunks of at most 1,000 jobs.
     *
     * @return how many jobs were promoted
     */
    public long promoteJobs() {
        return RedisCalls.call(name(), "promoteJobs", admin::promoteJobs);
    }

    /**
     * @param id a job id
     * @return the job's log lines, oldest first; empty when it has none or does not exist
     */
    public List<String> getJobLogs(String id) {
        return RedisCalls.call(name(), "getJobLogs", () -> admin.jobLogs(id));
    }

    /**
     * Per-minute counts of jobs that completed, or failed for good, over the last minutes. Counts
     * are kept for 24 hours and updated by the workers in the same script that finishes a job;
     * a minute is a whole UTC minute by the finishing worker's clock, and "now" is this queue's
     * clock (or the last counted minute, if that is later).
     *
     * @param type COMPLETED or FAILED
     * @param minutes how many minutes, the current one included: 1 to {@link QueueMetrics#MAX_MINUTES}
     * @return the counts, newest first, one per minute
     * @throws IllegalArgumentException when minutes is out of range
     */
    public QueueMetrics getMetrics(MetricsType type, int minutes) {
        return RedisCalls.call(name(), "getMetrics", () -> admin.metrics(clock.millis(), type, minutes));
    }

    // --- workers ---

    /**
     * Lists the queue's live workers, from the heartbeats each worker keeps in the queue's own
     * keys (no {@code CLIENT LIST}: works on Cluster, with restricted ACLs and on managed Redis).
     * A worker that closed is gone at once; one that died drops off 3 lock durations after its
     * last heartbeat. Entries that expired are deleted by this call.
     *
     * @return the live workers in name order (at most 1,000)
     */
    public List<WorkerInfo> getWorkers() {
        return workers.getWorkers();
    }

    // --- cancel ---

    /**
     * Cancels a job from any process. A waiting (also grouped, or in a paused queue or group),
     * delayed or prioritized job is taken out of its state and failed for good in the same call:
     * {@code failedReason} {@code "cancelled: <reason>"}, its removeOnFail retention applied, a
     * {@code failed} event with {@code cancelled} = 1. An active job is flagged: its worker learns
     * of it within about half a second, sets {@code ctx.isCancelled()}, interrupts the processor,
     * and the job fails as cancelled without a retry; a processor that returns a value anyway
     * completes the job (the cancel came too late). A job whose worker died fails as cancelled
     * when its stall is recovered.
     *
     * @param jobId the job id
     * @param reason why (at most 1,000 characters; may be empty)
     * @return what happened
     * @throws IllegalArgumentException for a blank id, or a null or too long reason; nothing is written
     */
    public CancelResult cancel(String jobId, String reason) {
        return cancels.cancel(jobId, reason);
    }

    // --- deduplication ---

    /**
     * The job that owns a deduplication id ({@link JobOptions.Builder#deduplication}): the one an
     * add with that id would return now.
     *
     * @param deduplicationId the deduplication id
     * @return the owner's job id, empty when no job owns the id (ended, or its ttl passed)
     * @throws IllegalArgumentException if the id is not a valid deduplication id, naming it
     * @throws QueueUnavailableException if Redis cannot be reached
     */
    public Optional<String> getDeduplicationJobId(String deduplicationId) {
        return join("getDeduplicationJobId", new QueueDeduplication(redisson, keys).ownerOf(deduplicationId));
    }

    /**
     * Frees a deduplication id now, whatever its mode (also a ttl), and drops an add kept for after
     * its owner (keepLastIfActive): the next add with the id creates a job. The owner, if any,
     * keeps running.
     *
     * @param deduplicationId the deduplication id
     * @return true when a job owned the id
     * @throws IllegalArgumentException if the id is not a valid deduplication id, naming it
     * @throws QueueUnavailableException if Redis cannot be reached
     */
    public boolean removeDeduplicationKey(String deduplicationId) {
        return join("removeDeduplicationKey", new QueueDeduplication(redisson, keys).removeKey(deduplicationId));
    }

    // --- change a job ---

    /**
     * Gives a delayed job a new delay, counted from now; {@link Duration#ZERO} runs it now (as
     * {@link #promote(String)} does: while the queue is paused it waits, like an add). Emits
     * {@code delayChanged}.
     *
     * @param id the job id
     * @param delay the new delay from now, {@code >= 0}
     * @return the job's state afterwards: {@link JobState#DELAYED}, or where a zero delay put it
     * @throws IllegalArgumentException for a null or blank id or a negative delay; nothing is written
     * @throws JobNotFoundException when there is no such job
     * @throws JobStateException when the job is not delayed (the message names its state)
     */
    public JobState changeDelay(String id, Duration delay) {
        return jobChanges.changeDelay(id, delay);
    }

    /**
     * Gives a waiting or prioritized job a new priority: it moves between the wait list and
     * prioritized as 0 / non-0 requires, and goes after the jobs that already have that
     * priority; a job of a group is re-sorted within its group. Emits {@code priorityChanged}.
     *
     * @param id the job id
     * @param priority 0 (none) to {@link JobOptions#MAX_PRIORITY}, lower runs first
     * @return the job's state afterwards: {@link JobState#WAITING} or {@link JobState#PRIORITIZED}
     * @throws IllegalArgumentException for a null or blank id or a priority out of range; nothing is written
     * @throws JobNotFoundException when there is no such job
     * @throws JobStateException when the job is not waiting or prioritized (the message names its state)
     */
    public JobState changePriority(String id, int priority) {
        return jobChanges.changePriority(id, priority);
    }

    /**
     * Replaces the data of a job that has not finished (waiting, prioritized, delayed or active:
     * a running attempt keeps the data it read, the next attempt reads the new data). Emits
     * {@code dataUpdated}.
     *
     * @param id the job id
     * @param data the new data; serialized and size-checked as an add does
     * @throws IllegalArgumentException for a null or blank id, or data that is null (on a queue
     *     not of {@code Void} or {@code Object}), cannot be serialized or is over the payload cap;
     *     nothing is written
     * @throws JobNotFoundException when there is no such job
     * @throws JobStateException when the job is completed or failed
     */
    public void updateData(String id, T data) {
        jobChanges.updateData(id, data);
    }

    // --- awaiting a result ---

    /**
     * Awaits a job's result: the future completes with the processor's return value once the job
     * completes, or exceptionally with {@link JobFailedException} (its {@code failedReason}; also
     * for a cancelled job) once it fails for good, with {@link java.util.concurrent.TimeoutException}
     * after {@code timeout}, or with {@link JobNotFoundException} when the job does not exist and no
     * result of it is kept. A job that finished before the call answers from its hash or its kept
     * result. Results are never missed: the job is marked awaited and its finish keeps the result
     * in Redis (at least 1 h, longer than the timeout), which the awaiter re-reads after a dropped
     * connection. All awaits of a {@code RedissonClient} share one thread and one blocking
     * connection; futures complete on the common pool, never on Redisson's threads.
     *
     * @param jobId the job's id
     * @param resultType the class the return value (JSON) is read as
     * @param timeout how long to wait, &gt; 0
     * @param <R> the result type
     * @return the future result
     * @throws IllegalArgumentException for a blank id or a timeout that is not positive
     */
    public <R> CompletableFuture<R> awaitResult(String jobId, Class<R> resultType, Duration timeout) {
        return awaits.awaitResult(jobId, resultType, timeout);
    }

    /**
     * Adds a job and awaits its result (see {@link #awaitResult}): the add itself marks the job
     * awaited, so its worker keeps the result at the finish without an extra read.
     *
     * @param name the job name
     * @param data the job data
     * @param options the job's options
     * @param resultType the class the return value (JSON) is read as
     * @param timeout how long to wait for the result, &gt; 0
     * @param <R> the result type
     * @return the future result
     * @throws IllegalArgumentException for invalid data or options, or a timeout that is not positive
     */
    public <R> CompletableFuture<R> addAndAwait(String name, T data, JobOptions options, Class<R> resultType,
                                                Duration timeout) {
        return awaits.addAndAwait(name, data, options, resultType, timeout);
    }
}
