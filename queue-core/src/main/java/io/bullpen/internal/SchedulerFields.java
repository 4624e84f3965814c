package io.bullpen.internal;

/**
 * The fields of a job scheduler's hash ({@code <base>scheduler:<id>}): the one Java list of them.
 * Not API. {@code LuaVocabularyTest} checks the scripts against it, as for {@link JobFields}.
 */
public final class SchedulerFields {
    private SchedulerFields() {
    }

    /** The name of the jobs it makes. */
    public static final String NAME = "name";
    /** The data of the jobs it makes, as JSON. */
    public static final String DATA = "data";
    /** The options of the jobs it makes, as JSON. */
    public static final String OPTS = "opts";
    /** The priority of the jobs it makes. */
    public static final String PRIORITY = "priority";
    /** The repeat rule, as JSON. */
    public static final String REPEAT = "repeat";
    /** When the pending iteration is due, epoch ms; -1 when there is none. */
    public static final String NEXT = "next";
    /** The id of the pending iteration's job; empty when there is none. */
    public static final String JOB_ID = "jobId";
    /** The precomputed due time of the run after the pending one. */
    public static final String FOLLOWING = "following";
    /** How many iterations it has made. */
    public static final String ITERATIONS = "iterations";
    /** The most iterations it may make; absent for no limit. */
    public static final String LIMIT = "limit";
    /** The time after which it makes no more iterations; absent for none. */
    public static final String END_AT = "endAt";
    /** What to do with runs missed while no worker took them. */
    public static final String MISFIRE = "misfire";
    /**
     * Trace headers of the upsert that wrote the definition (as {@link JobFields#TRACE_CONTEXT}),
     * copied to every iteration; only when an instrumentation gave some. Absent otherwise.
     */
    public static final String TRACE_CONTEXT = "tc";
    /**
     * The owner of the configuration that declared the scheduler (see {@code DeclaredSettings});
     * absent when it was upserted through the API.
     */
    public static final String OWNER = "owner";
}
