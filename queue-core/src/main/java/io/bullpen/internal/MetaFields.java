package io.bullpen.internal;

/**
 * The fields of a queue's meta hash ({@code <base>meta}): the one Java list of them. Not API.
 * {@code LuaVocabularyTest} checks the scripts against it, as for {@link JobFields}.
 */
public final class MetaFields {
    private MetaFields() {
    }

    /** Present (value 1) while the queue is paused. */
    public static final String PAUSED = "paused";
    /** The approximate cap of the events stream, written by setQueueSettings. */
    public static final String EVENTS_MAX_LENGTH = "eventsMaxLength";
    /** The sequence that orders prioritized and delayed jobs added in the same millisecond. */
    public static final String SEQUENCE = "seq";
    /** Prefix of {@code mm:<kind>}: the current metrics minute of a kind ("completed", "failed"). */
    public static final String METRICS_MINUTE_PREFIX = "mm:";
    /** Prefix of {@code mc:<kind>}: the count of the current metrics minute of a kind. */
    public static final String METRICS_COUNT_PREFIX = "mc:";

    /** Global concurrency: at most this many jobs active at once (absent = no cap), see limitTake. */
    public static final String CONCURRENCY = "concurrency";
    /** Rate limit: starts allowed per window (with {@link #RATE_PER}; absent = no rate limit). */
    public static final String RATE_MAX = "rl:max";
    /** Rate limit: the window in ms. */
    public static final String RATE_PER = "rl:per";
    /** Rate limit: extra starts allowed after idling (absent = 0). */
    public static final String RATE_BURST = "rl:burst";
    /** Rate limit state: the GCRA theoretical arrival time (Redis clock, ms, fractional). */
    public static final String RATE_TAT = "rl:tat";
    /**
     * The owner of the configuration that declared the rate limit (see {@code DeclaredSettings});
     * absent when the API or the dashboard wrote it.
     */
    public static final String RATE_OWNER = "rl:owner";
    /** The owner of the configuration that declared the global concurrency; absent as for {@link #RATE_OWNER}. */
    public static final String CONCURRENCY_OWNER = "concurrency:owner";
    /** No job starts before this time (Redis clock, ms): set by a processor's RateLimitedException. */
    public static final String LIMITED_UNTIL = "limitedUntil";

    /** "1" once the queue had a grouped job: turns the group path of the take on. */
    public static final String GROUPS = "groups";
    /** The virtual time of fair queueing: the start tag of the group served last. */
    public static final String GROUP_VIRTUAL_TIME = "gvt";
    /**
     * Grouped jobs made ready, ever, and their sequence in {@code group:<g>} (FIFO): one counter
     * for both. {@code gin - gout} grouped jobs are ready, for the waiting count.
     */
    public static final String GROUP_IN = "gin";
    /** Grouped ready jobs that left their group (taken, removed, cancelled, drained, re-sorted). */
    public static final String GROUP_OUT = "gout";
    /**
     * "1" once a group setting, a default for groups or a group's manual limit was written (never
     * cleared): until then every group runs unlimited and no script reads a group's settings.
     */
    public static final String GROUP_SETTINGS = "gsettings";
    /** The default concurrency of groups without their own. */
    public static final String GROUP_CONCURRENCY = "g:concurrency";
    /** The default rate limit of groups without their own: max starts per window. */
    public static final String GROUP_RATE_MAX = "g:rl:max";
    /** The default rate limit's window, ms. */
    public static final String GROUP_RATE_PER = "g:rl:per";
    /** The default rate limit's burst (absent = 0). */
    public static final String GROUP_RATE_BURST = "g:rl:burst";
    /**
     * "1" while a flow-control field (a limit, {@code limitedUntil}, {@link #GROUPS} or {@link
     * #GROUP_SETTINGS}) may be set: the scripts read those fields only then (readMeta), so a
     * queue without flow control pays no field reads for them.
     */
    public static final String FLOW = "flow";
    /**
     * "1" while the queue's expiry set may hold a deadline (set by an add with a deadline, cleared
     * by expireJobs when the set is empty): only then does the take read the set, so queues
     * without expiring jobs pay nothing for it.
     */
    public static final String EXPIRY = "expiry";
    /** Awaits registered on jobs that were already active: finishes read awaited per job while > 0. */
    public static final String AWAITS = "awaits";
}
