package io.bullpen.internal;

/**
 * The fields of a job's hash ({@code <base>job:<id>}): the one Java list of them. Not API.
 *
 * <p>The Lua scripts spell these names as literals (like BullMQ's); {@code LuaVocabularyTest}
 * fails on any field a script reads or writes on a job hash that is not declared here, and on a
 * constant here that no script mentions. Adding a field: declare it here first.
 */
public final class JobFields {
    private JobFields() {
    }

    /** The job's name. Written by addJob and scheduler iterations. */
    public static final String NAME = "name";
    /** The job's data, as JSON; replaced by updateData and by a step job's staged data (moveToFinished). */
    public static final String DATA = "data";
    /** The job's non-default options as JSON; absent when all are defaults. */
    public static final String OPTS = "opts";
    /** When the job was added, epoch ms. */
    public static final String TIMESTAMP = "timestamp";
    /** The delay it was added with, ms; absent when none; set to 0 by a promote, to the new delay by changeDelay. */
    public static final String DELAY = "delay";
    /** Its priority; absent for 0 (plain wait list); set by changePriority. */
    public static final String PRIORITY = "priority";
    /** attemptsStarted: how many times a worker took the job (a give-back takes one off). */
    public static final String ATTEMPTS_STARTED = "ats";
    /** attemptsMade: how many attempts ended (completed, failed, or stalled past the limit). */
    public static final String ATTEMPTS_MADE = "atm";
    /** stalledCounter: how many times the job's lock expired while active. */
    public static final String STALLED_COUNTER = "stc";
    /** When the latest attempt started, epoch ms. */
    public static final String PROCESSED_ON = "processedOn";
    /** When the job finished, epoch ms. */
    public static final String FINISHED_ON = "finishedOn";
    /** processedBy: the name of the worker running the latest attempt, when it has one. */
    public static final String PROCESSED_BY = "pb";
    /** The latest progress, as JSON. */
    public static final String PROGRESS = "progress";
    /** The return value of a completed job, as JSON. */
    public static final String RETURN_VALUE = "returnValue";
    /** A flow child's parents: {@code <queue>:<id>} per parent, one per line; absent for a job without a parent. */
    public static final String PARENTS = "par";
    /** A flow parent's children dropped by a REMOVE edge (their failure): not counted as children. */
    public static final String REMOVED_CHILDREN = "rmk";
    /** A flow parent's children that have not ended yet (the bits set in its {@code deps} bitmap); absent at 0. */
    public static final String PENDING_CHILDREN = "pending";
    /** The flow still adding a large fan-out parent's children (addFlowChildren); absent once they are all recorded. */
    public static final String ADDING_FLOW = "flow";
    /** Why the job last failed. */
    public static final String FAILED_REASON = "failedReason";
    /** The latest stack traces, a JSON array of strings. */
    public static final String STACKTRACE = "stacktrace";
    /**
     * The fencing token of the attempt a worker holds. Never stored: a take adds it to the hash
     * it returns (it is the end of the lock token).
     */
    public static final String FENCE = "fence";
    /**
     * Milliseconds until the start a rate limit booked for a job just taken (its processedOn).
     * Never stored: a take adds it to the hash it returns when the start is in the future.
     */
    public static final String START_IN = "startIn";
    /** The job scheduler that made this job, for scheduler iterations. */
    public static final String SCHEDULER_ID = "schedulerId";
    /** The job's group, when it has one (JobOptions.group); absent otherwise. */
    public static final String GROUP = "grp";
    /** The reason a producer cancelled the job while it was active (cancelJob); absent otherwise. */
    public static final String CANCEL = "cancel";
    /**
     * The job's deduplication id (options {@code deduplication}): it owns {@code dedup:<id>} until
     * it ends. Written by addJob; read by the worker at take and passed back in the finish.
     */
    public static final String DEDUP_ID = "dedupId";
    /** Set on a job someone awaits: how long its kept result ({@code result:<id>}) lives, in ms. */
    public static final String AWAITED = "awaited";
    /** Set by awaitJob on a job already active when the await came (counted in meta's awaits). */
    public static final String AWAIT_LATE = "awaitLate";
    /**
     * Trace headers stored with the job at its add (W3C {@code traceparent} alone as its value, or a
     * JSON object of the headers, see {@code TraceHeaders}), only when an instrumentation gave some;
     * read by the worker at take and
     * handed to the instrumentation around every attempt. Absent otherwise.
     */
    public static final String TRACE_CONTEXT = "tc";
    /**
     * The lock token ({@code <worker token>:<fence>}) of the worker holding the active job; written
     * by the take, removed on every way out of active. The lease's score in {@code leases} is its
     * expiry (Redis's clock). The take's reply carries the token separately, not in the hash.
     */
    public static final String LOCK = "lock";
    /**
     * Take-ahead: "1" on a job a worker took beyond its free slots whose processor has not started
     * (leaseJob); "0" or absent otherwise. Cleared by the "started" record and every way out of
     * active; a stalled job with "1" never ran, so no stall is counted (recoverStalledJobs).
     */
    public static final String AHEAD = "ahd";
    /** Expiry deadline in epoch ms on Redis's clock: the first attempt must have started by then. */
    public static final String EXPIRES = "xp";
    /**
     * The lock token of the attempt whose outcome moveToFinished last accepted (written with the
     * outcome's own fields). A worker that sends a finish again after its connection dropped is
     * told the job's state instead of a lost lock when this is its token.
     */
    public static final String FINISHED_LOCK = "finishedLock";
}
