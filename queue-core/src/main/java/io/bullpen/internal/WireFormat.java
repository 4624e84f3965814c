package io.bullpen.internal;

import com.fasterxml.jackson.databind.JavaType;
import io.bullpen.Backoff;
import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.Repeat;
import io.bullpen.Retention;
import java.util.Map;
import java.util.Objects;

/**
 * The stored form of jobs, job options and schedules, for the worker, the dashboard and the rest
 * of the internals: a job rebuilt from its hash, and the description maps (stored as JSON) that
 * every process rebuilds equal options from. The codec itself lives, package-private, next to
 * the types in {@code io.bullpen}, which installs it here ({@link #install}); the API offers none
 * of it. Descriptions hold only what differs from the defaults; a map read back may carry numbers
 * as Integer, Long or whole Doubles (as Jackson decodes them).
 */
public final class WireFormat {

    /** The codec, implemented in {@code io.bullpen}. */
    public interface Access {
        /** @see WireFormat#job */
        <T> Job<T> job(String id, Map<String, String> hash, JavaType dataType);

        /** @see WireFormat#withAttemptsMade */
        <T> Job<T> withAttemptsMade(Job<T> job, int attemptsMade);

        /** @see WireFormat#fields */
        Map<String, String> fields(Job<?> job);

        /** @see WireFormat#describe(JobOptions) */
        Map<String, Object> describe(JobOptions options);

        /** @see WireFormat#jobOptions */
        JobOptions jobOptions(Map<String, ?> description);

        /** @see WireFormat#describe(Backoff) */
        Map<String, Object> describe(Backoff backoff);

        /** @see WireFormat#backoff */
        Backoff backoff(Map<String, ?> description);

        /** @see WireFormat#describe(Retention) */
        Map<String, Object> describe(Retention retention);

        /** @see WireFormat#retention */
        Retention retention(Map<String, ?> description);

        /** @see WireFormat#describe(Repeat) */
        Map<String, Object> describe(Repeat repeat);

        /** @see WireFormat#repeat */
        Repeat repeat(Map<String, ?> description);

        /** @see WireFormat#withDefaults */
        JobOptions withDefaults(JobOptions defaults, JobOptions own);
    }

    private static volatile Access access;

    private WireFormat() {
    }

    /**
     * Called once, by {@code io.bullpen}'s class initialization.
     *
     * @param codec the codec
     * @throws IllegalStateException when a codec is installed already
     */
    public static synchronized void install(Access codec) {
        if (access != null) {
            throw new IllegalStateException("the wire format codec is installed already");
        }
        access = Objects.requireNonNull(codec, "codec");
    }

    private static Access access() {
        Access a = access;
        if (a == null) {
            try {
                // JobOptions' class initialization installs the codec.
                Class.forName(JobOptions.class.getName(), true, JobOptions.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
            a = access;
        }
        return a;
    }

    /**
     * Rebuilds a job from its Redis hash (field names in {@link JobFields}).
     *
     * @param id the job id
     * @param hash the job hash's fields
     * @param dataType the type to read the {@code data} field as
     * @param <T> the type of the job's data
     * @return the job
     * @throws io.bullpen.BullpenException when the data or options cannot be read
     */
    public static <T> Job<T> job(String id, Map<String, String> hash, JavaType dataType) {
        return access().job(id, hash, dataType);
    }

    /**
     * @param job a job
     * @param attemptsMade the number of ended attempts
     * @param <T> the type of the job's data
     * @return a copy of the job with another attemptsMade (same data object): the worker hands its
     *     listeners the job with the attempt that just ended counted
     */
    public static <T> Job<T> withAttemptsMade(Job<T> job, int attemptsMade) {
        return access().withAttemptsMade(job, attemptsMade);
    }

    /**
     * @param defaults a queue's default job options (checked as {@code Queue.Builder#defaultJobOptions} checks them)
     * @param own an add's options
     * @return the add's options with the defaults filled in where the add does not set them
     */
    public static JobOptions withDefaults(JobOptions defaults, JobOptions own) {
        return access().withDefaults(defaults, own);
    }

    /**
     * @param job a job
     * @return its hash fields, as read from Redis
     */
    public static Map<String, String> fields(Job<?> job) {
        return access().fields(job);
    }

    /**
     * @param options job options
     * @return their description: keys {@code delay} (ms, Long), {@code priority} and
     *     {@code attempts} (Integer), {@code backoff}, {@code jobId} (String), {@code lifo}
     *     (Boolean), {@code removeOnComplete} and {@code removeOnFail}, {@code timeout} (ms, Long),
     *     {@code group} (String), {@code deduplication}; the defaults describe as an empty map
     */
    public static Map<String, Object> describe(JobOptions options) {
        return access().describe(options);
    }

    /**
     * @param description a map from {@link #describe(JobOptions)}; unknown keys are ignored so that
     *     older processes read options written by newer ones
     * @return options equal to the ones described
     * @throws IllegalArgumentException if a value has the wrong type or is invalid
     */
    public static JobOptions jobOptions(Map<String, ?> description) {
        return access().jobOptions(description);
    }

    /**
     * @param backoff a backoff
     * @return its description: {@code {"type":"fixed","delay":ms}},
     *     {@code {"type":"exponential","delay":baseMs,"max":ms,"jitter":fraction}} or
     *     {@code {"type":"schedule","delays":[ms, ...]}}
     */
    public static Map<String, Object> describe(Backoff backoff) {
        return access().describe(backoff);
    }

    /**
     * @param description a map from {@link #describe(Backoff)}
     * @return a backoff equal to the one described
     * @throws IllegalArgumentException if the type is unknown or a value is missing or invalid
     */
    public static Backoff backoff(Map<String, ?> description) {
        return access().backoff(description);
    }

    /**
     * @param retention a retention
     * @return its description: {@code {"count":n}}, {@code {"age":ms}} or both; keep-all is empty
     */
    public static Map<String, Object> describe(Retention retention) {
        return access().describe(retention);
    }

    /**
     * @param description a map from {@link #describe(Retention)}
     * @return a retention equal to the one described
     */
    public static Retention retention(Map<String, ?> description) {
        return access().retention(description);
    }

    /**
     * @param repeat a schedule
     * @return its description, stored with the job scheduler (stable field names)
     */
    public static Map<String, Object> describe(Repeat repeat) {
        return access().describe(repeat);
    }

    /**
     * @param description a map from {@link #describe(Repeat)}
     * @return the schedule it describes
     */
    public static Repeat repeat(Map<String, ?> description) {
        return access().repeat(description);
    }
}
