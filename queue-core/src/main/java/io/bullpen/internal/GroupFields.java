package io.bullpen.internal;

/**
 * The fields of a group's hash ({@code <base>groupmeta:<g>}): its own settings and its state.
 * Not API. {@code LuaVocabularyTest} checks the scripts against it, as for {@link JobFields}.
 */
public final class GroupFields {
    private GroupFields() {
    }

    /** Its own concurrency cap (absent = the queue's default for groups, or none). */
    public static final String CONCURRENCY = "concurrency";
    /** Its own rate limit: max starts per window (absent = the default for groups, or none). */
    public static final String RATE_MAX = "rl:max";
    /** Its own rate limit's window, ms. */
    public static final String RATE_PER = "rl:per";
    /** Its own rate limit's burst (absent = 0). */
    public static final String RATE_BURST = "rl:burst";
    /** Max ready jobs; an add beyond it throws GroupFullException (absent = unlimited). */
    public static final String MAX_SIZE = "maxSize";
    /** Its share in fair queueing, 1-1000 (absent = 1). */
    public static final String WEIGHT = "weight";
    /** Present (value 1) while the group is paused. */
    public static final String PAUSED = "paused";
    /** State: its jobs holding a lease (absent = 0). */
    public static final String ACTIVE = "active";
    /** State: the GCRA theoretical arrival time of its rate limit, ms (Redis clock). */
    public static final String RATE_TAT = "rl:tat";
    /** State: no job starts before this time, ms (RateLimitedException.group). */
    public static final String LIMITED_UNTIL = "limitedUntil";
}
