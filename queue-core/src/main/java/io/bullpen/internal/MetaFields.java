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
}
