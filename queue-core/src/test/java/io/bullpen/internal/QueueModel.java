package io.bullpen.internal;

import io.bullpen.JobCounts;
import io.bullpen.Retention;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * An in-memory model of one queue's state machine (DESIGN.md sections 2-4) for
 * {@link QueueModelTest}: the same ids, sequence numbers, scores, list orders, fencing tokens and
 * retention decisions the Lua scripts produce, computed in plain Java.
 *
 * <p>Only what the model test exercises is modelled: no stalled jobs (locks outlive the test), no
 * rate limits, no events. Expiry deadlines are on Redis's clock: a fetch is given Redis's time
 * (the run keeps every deadline clear of it), and an expireAfter deadline, which the script
 * computes from Redis's time, is left pending ({@link #pendingDeadlines}) until the run has read
 * it and checked it lies within the call. Callers pass {@code now}; the model never reads a clock. Its types are in
 * {@link QueueModelTypes}, the admin changes in {@link QueueModelChanges}.
 */
final class QueueModel implements QueueModelTypes {
    /** 2^32: the priority multiplier of prioritized scores. */
    static final long PRIORITY_FACTOR = 1L << 32;
    /** Delayed scores are due * 4096 + (seq mod 4096). */
    static final long DELAY_FACTOR = 4096;
    /** The most delayed jobs one fetch promotes (the test's FetchArgs.promoteLimit). */
    static final int PROMOTE_LIMIT = 1000;
    /** The most jobs one retention rule removes per call (moveToFinished's retentionBatch). */
    static final int RETENTION_BATCH = 1000;

    /** Sorted-set order: score, then member string (Redis compares bytes; ids are ASCII). */
    private static final Comparator<Map.Entry<String, Long>> ZSET_ORDER =
            Comparator.<Map.Entry<String, Long>>comparingLong(Map.Entry::getValue).thenComparing(Map.Entry::getKey);

    final Map<String, Job> jobs = new LinkedHashMap<>();
    /** The wait list in LRANGE order: index 0 is the left end; workers take the right end. */
    final List<String> wait = new ArrayList<>();
    final Map<String, Long> prioritized = new HashMap<>();
    final Map<String, Long> delayed = new HashMap<>();
    final Map<String, Long> completed = new HashMap<>();
    final Map<String, Long> failed = new HashMap<>();
    /** active id -> lease expiry (take time + lockMs). */
    private final Map<String, Long> leases = new HashMap<>();
    private final long lockMs;
    private long idCounter;
    private long seq;
    private long fenceCounter;
    private boolean paused;
    /**
     * Meta holds limitedUntil (a processor's RateLimitedException put its job back): the take
     * ignores ahead while it is there; the first take after it passed deletes it.
     */
    boolean limitedUntilSet;
    /** Deduplication id -> the job that owns it (dedup:<id>; plain mode: until the owner ends). */
    private final Map<String, String> dedupOwners = new HashMap<>();
    /** The expiry set: job id -> deadline (epoch ms, Redis's clock) of a job that has not started. */
    final Map<String, Long> expiry = new HashMap<>();
    /** expireAfter deadlines the script set in the last call: job id -> ms after Redis's time in that call. */
    final Map<String, Long> pendingDeadlines = new LinkedHashMap<>();
    /** Statistics for the test's summary: jobs deleted by retention, delayed jobs promoted by fetches, jobs expired. */
    int retentionDeleted;
    int promotedByFetch;
    int expiredByFetch;

    private final QueueModelChanges changes = new QueueModelChanges(this);

    QueueModel(long lockMs) {
        this.lockMs = lockMs;
    }

    // ---------------------------------------------------------------- operations

    /** addJob: one result per spec, in order. */
    List<ScriptTypes.AddResult> add(long now, List<Options> specs) {
        List<ScriptTypes.AddResult> results = new ArrayList<>();
        for (Options o : specs) {
            String id;
            if (o.customId() == null) {
                id = Long.toString(++idCounter);
            } else if (jobs.containsKey(o.customId())) {
                results.add(new ScriptTypes.AddResult(o.customId(), false));
                continue;
            } else {
                id = o.customId();
            }
            if (o.dedupId() != null) {
                String owner = dedupOwners.putIfAbsent(o.dedupId(), id);
                if (owner != null) {
                    results.add(new ScriptTypes.AddResult(owner, false, true));
                    continue;
                }
            }
            Job job = new Job(id, o);
            jobs.put(id, job);
            if (o.expireAt() >= 0) {
                job.xp = o.expireAt();
                expiry.put(id, o.expireAt());
            } else if (o.expireAfterMs() > 0) {
                pendingDeadlines.put(id, Math.max(o.delayMs(), 0) + o.expireAfterMs());
            }
            if (o.delayMs() > 0) {
                addDelayed(job, now + o.delayMs());
            } else {
                pushReady(job, o.lifo());
            }
            results.add(new ScriptTypes.AddResult(id, true));
        }
        return results;
    }

    /** An expireAfter deadline learnt from Redis (see {@link #pendingDeadlines}). */
    void deadline(String id, long deadline) {
        jobs.get(id).xp = deadline;
        expiry.put(id, deadline);
    }

    /**
     * moveToActive: promote due delayed jobs, fail the jobs whose expiry deadline is at or before
     * {@code redisNow} (Redis's time in the call), then take up to count unless paused.
     */
    Fetch moveToActive(long now, long redisNow, int count) {
        promoteDue(now);
        expireDue(now, redisNow);
        // The wake time is the earliest deadline left before the take (a job taken now may be it).
        long nextExpiry = expiry.values().stream().mapToLong(Long::longValue).min().orElse(-1);
        List<Taken> taken = new ArrayList<>();
        if (count > 0 && !paused) {
            // The script pops the whole batch first (wait, then prioritized), then reserves one
            // fencing token per popped job with one INCRBY.
            List<String> popped = new ArrayList<>();
            while (popped.size() < count && !wait.isEmpty()) {
                popped.add(wait.remove(wait.size() - 1));
            }
            while (popped.size() < count && !prioritized.isEmpty()) {
                String id = first(prioritized);
                prioritized.remove(id);
                popped.add(id);
            }
            long nextFence = fenceCounter + 1;
            fenceCounter += popped.size();
            for (String id : popped) {
                Job job = jobs.get(id);
                long fence = nextFence++;
                job.state = State.ACTIVE;
                job.fence = fence;
                job.attemptsStarted++;
                job.lockToken = "w:" + fence;
                leases.put(id, now + lockMs);
                // Its first attempt starts: it can no longer expire (field xp stays).
                expiry.remove(id);
                taken.add(new Taken(id, job.lockToken));
            }
        }
        // Wake times are reported only to a worker whose take came up short (or that took none).
        boolean short_ = count == 0 || taken.size() < count;
        return new Fetch(taken, short_ ? nextDelayedDue() : -1, short_ ? nextLeaseExpiry() : -1,
                short_ ? nextExpiry : -1);
    }

    /**
     * expireJobs: the deadlines at or before redisNow, earliest first (at most PROMOTE_LIMIT), leave
     * the set; each job that waits unstarted in wait, prioritized or delayed fails: failedReason
     * "expired", attemptsMade 0, finishedOn now, its removeOnFail retention, its dedup id freed.
     */
    private void expireDue(long now, long redisNow) {
        List<String> due = new ArrayList<>();
        for (Map.Entry<String, Long> e : sorted(expiry)) {
            if (e.getValue() > redisNow || due.size() >= PROMOTE_LIMIT) {
                break;
            }
            due.add(e.getKey());
        }
        for (String id : due) {
            expiry.remove(id);
            Job job = jobs.get(id);
            if (job == null || job.xp == null || job.attemptsStarted > 0) {
                continue;
            }
            switch (job.state) {
                case DELAYED -> delayed.remove(id);
                case PRIORITIZED -> prioritized.remove(id);
                case WAITING -> wait.remove(id);
                default -> {
                    continue;
                }
            }
            expiredByFetch++;
            job.expired = true;
            job.attemptsMade = 0;
            job.finishedOn = now;
            finishInto(job, State.FAILED, failed, now, job.opts.onFail());
            releaseDedup(job);
        }
    }

    /**
     * moveToFinished for a job the test holds. Returns the label of the state the job went to;
     * {@code next} receives the fetch result when {@code nextCount > 0}.
     */
    String finish(long now, long redisNow, String id, boolean ok, boolean unrecoverable, int nextCount,
                  List<Fetch> next) {
        Job job = jobs.get(id);
        if (job == null || job.state != State.ACTIVE) {
            throw new IllegalStateException("model: finishing " + id + " which is not active: " + job);
        }
        leases.remove(id);
        job.lockToken = null;
        job.attemptsMade++;
        String state;
        if (ok) {
            job.finishedOn = now;
            finishInto(job, State.COMPLETED, completed, now, job.opts.onComplete());
            releaseDedup(job);
            state = "completed";
        } else if (unrecoverable || job.cancel != null || job.attemptsMade >= job.opts.attempts()) {
            job.finishedOn = now;
            finishInto(job, State.FAILED, failed, now, job.opts.onFail());
            releaseDedup(job);
            state = "failed";
        } else if (job.opts.backoffMs() > 0) {
            addDelayed(job, now + job.opts.backoffMs());
            state = "delayed";
        } else {
            state = pushReady(job, job.opts.lifo());
        }
        if (nextCount > 0) {
            next.add(moveToActive(now, redisNow, nextCount));
        }
        return state;
    }

    /**
     * moveToFinished's limited outcome (the processor threw RateLimitedException): the job goes
     * back to the front of its line without using an attempt (ats - 1), and meta gets
     * limitedUntil; a job cancelled while active fails for good instead (the attempt counts).
     * Returns the label of the state the job went to.
     */
    String limited(long now, long redisNow, String id, int nextCount, List<Fetch> next) {
        Job job = jobs.get(id);
        if (job == null || job.state != State.ACTIVE) {
            throw new IllegalStateException("model: limiting " + id + " which is not active: " + job);
        }
        leases.remove(id);
        job.lockToken = null;
        String state;
        if (job.cancel != null) {
            job.attemptsMade++;
            job.finishedOn = now;
            finishInto(job, State.FAILED, failed, now, job.opts.onFail());
            releaseDedup(job);
            state = "failed";
        } else {
            job.attemptsStarted--;
            // Its processor was called: it started, so its deadline field goes.
            job.xp = null;
            limitedUntilSet = true;
            state = pushReady(job, true);
        }
        if (nextCount > 0) {
            next.add(moveToActive(now, redisNow, nextCount));
        }
        return state;
    }

    /**
     * Whether a worker's take would get a job now: the queue is not paused and a job is ready or
     * a delayed one is due (the take promotes it). A queue limit here is at most a few ms long,
     * within the take's booking horizon, so it holds no job back.
     */
    boolean runnable(long now) {
        if (paused) {
            return false;
        }
        if (!wait.isEmpty() || !prioritized.isEmpty()) {
            return true;
        }
        long due = nextDelayedDue();
        return due >= 0 && due <= now;
    }

    /** As {@link #runnable(long)}, for a take at Redis time {@code redisNow}: a job it expires does not count. */
    boolean runnable(long now, long redisNow) {
        if (paused) {
            return false;
        }
        long maxScore = (now + 1) * DELAY_FACTOR - 1;
        for (Job j : jobs.values()) {
            boolean ready = j.state == State.WAITING || j.state == State.PRIORITIZED
                    || j.state == State.DELAYED && delayed.get(j.id) <= maxScore;
            Long deadline = expiry.get(j.id);
            if (ready && (deadline == null || deadline > redisNow)) {
                return true;
            }
        }
        return false;
    }

    /** Ends or removal: the id is freed when it still names this job. */
    void releaseDedup(Job job) {
        if (job.opts.dedupId() != null) {
            dedupOwners.remove(job.opts.dedupId(), job.id);
        }
    }

    /** Deduplication id -> owner, as the dedup:<id> keys should hold. */
    Map<String, String> dedupOwners() {
        return new java.util.TreeMap<>(dedupOwners);
    }

    // Admin changes (removeJob, cancelJob, promote, changeDelay, changePriority, updateData,
    // retryJob) live in QueueModelChanges.

    Outcome remove(String id) {
        return changes.remove(id);
    }

    io.bullpen.CancelResult cancel(long now, String id, String reason) {
        return changes.cancel(now, id, reason);
    }

    Outcome promote(String id) {
        return changes.promote(id);
    }

    Outcome changeDelay(long now, String id, long delayMs) {
        return changes.changeDelay(now, id, delayMs);
    }

    Outcome changePriority(String id, int priority) {
        return changes.changePriority(id, priority);
    }

    Outcome updateData(String id, String data) {
        return changes.updateData(id, data);
    }

    Outcome retryFailed(String id) {
        return changes.retryFailed(id);
    }

    /** pause(true) / pause(false): whether the flag changed. */
    boolean pause(boolean pause) {
        boolean changed = paused != pause;
        paused = pause;
        return changed;
    }

    // ---------------------------------------------------------------- internals

    void addDelayed(Job job, long due) {
        seq++;
        delayed.put(job.id, due * DELAY_FACTOR + (seq % DELAY_FACTOR));
        job.state = State.DELAYED;
    }

    /** To prioritized (priority > 0) or wait (RPUSH when front, else LPUSH); returns the state label. */
    String pushReady(Job job, boolean front) {
        if (job.priority > 0) {
            seq++;
            prioritized.put(job.id, job.priority * PRIORITY_FACTOR + seq);
            job.state = State.PRIORITIZED;
            return "prioritized";
        }
        if (front) {
            wait.add(job.id);
        } else {
            wait.add(0, job.id);
        }
        job.state = State.WAITING;
        return "waiting";
    }

    private void promoteDue(long now) {
        long maxScore = (now + 1) * DELAY_FACTOR - 1;
        List<String> due = new ArrayList<>();
        for (Map.Entry<String, Long> e : sorted(delayed)) {
            if (e.getValue() > maxScore || due.size() >= PROMOTE_LIMIT) {
                break;
            }
            due.add(e.getKey());
        }
        for (String id : due) {
            promotedByFetch++;
            delayed.remove(id);
            pushReady(jobs.get(id), false);
        }
    }

    void finishInto(Job job, State state, Map<String, Long> set, long now, Retention r) {
        if (r.count() == 0) {
            jobs.remove(job.id);
            retentionDeleted++;
            return;
        }
        job.state = state;
        set.put(job.id, now);
        if (r.maxAgeMillis() >= 0) {
            int removed = 0;
            for (Map.Entry<String, Long> e : sorted(set)) {
                if (e.getValue() > now - r.maxAgeMillis() || removed >= RETENTION_BATCH) {
                    break;
                }
                set.remove(e.getKey());
                jobs.remove(e.getKey());
                retentionDeleted++;
                removed++;
            }
        }
        if (r.count() >= 0) {
            int excess = Math.min(set.size() - r.count(), RETENTION_BATCH);
            List<Map.Entry<String, Long>> order = sorted(set);
            for (int i = 0; i < excess; i++) {
                String id = order.get(i).getKey();
                set.remove(id);
                jobs.remove(id);
                retentionDeleted++;
            }
        }
    }

    private long nextDelayedDue() {
        if (delayed.isEmpty()) {
            return -1;
        }
        return Math.floorDiv(delayed.get(first(delayed)), DELAY_FACTOR);
    }

    private long nextLeaseExpiry() {
        return leases.values().stream().mapToLong(Long::longValue).min().orElse(-1);
    }

    private static String first(Map<String, Long> zset) {
        return sorted(zset).get(0).getKey();
    }

    private static List<Map.Entry<String, Long>> sorted(Map<String, Long> zset) {
        List<Map.Entry<String, Long>> entries = new ArrayList<>(Map.copyOf(zset).entrySet());
        entries.sort(ZSET_ORDER);
        return entries;
    }

    /** A zset as the snapshot shows it: member -> score, ascending (score, member). */
    private static LinkedHashMap<String, Double> view(Map<String, Long> zset) {
        LinkedHashMap<String, Double> out = new LinkedHashMap<>();
        for (Map.Entry<String, Long> e : sorted(zset)) {
            out.put(e.getKey(), (double) e.getValue());
        }
        return out;
    }

    // ---------------------------------------------------------------- views for assertions

    List<String> waiting() {
        return List.copyOf(wait);
    }

    LinkedHashMap<String, Double> prioritized() {
        return view(prioritized);
    }

    LinkedHashMap<String, Double> delayed() {
        return view(delayed);
    }

    LinkedHashMap<String, Double> completed() {
        return view(completed);
    }

    LinkedHashMap<String, Double> failed() {
        return view(failed);
    }

    LinkedHashMap<String, Double> leases() {
        return view(leases);
    }

    /** Active ids, sorted (active is compared as a set). */
    TreeSet<String> active() {
        return new TreeSet<>(leases.keySet());
    }

    /** Ids that have a job hash, sorted. */
    TreeSet<String> jobIds() {
        return new TreeSet<>(jobs.keySet());
    }

    Job job(String id) {
        return jobs.get(id);
    }

    Map<String, Job> jobs() {
        return jobs;
    }

    boolean isPaused() {
        return paused;
    }

    JobCounts counts() {
        return new JobCounts(wait.size(), leases.size(), delayed.size(), prioritized.size(), completed.size(),
                failed.size(), paused);
    }

    /** Ids in one state, sorted by id, for picking random targets. */
    List<String> idsIn(State state) {
        List<String> ids = new ArrayList<>();
        for (Job j : jobs.values()) {
            if (j.state == state) {
                ids.add(j.id);
            }
        }
        ids.sort(Comparator.naturalOrder());
        return ids;
    }

    /** The lock token the model says the test holds for an active job. */
    String lockToken(String id) {
        return jobs.get(id).lockToken;
    }
}
