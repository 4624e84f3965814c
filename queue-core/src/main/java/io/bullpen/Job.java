package io.bullpen;

import com.fasterxml.jackson.databind.JavaType;
import io.bullpen.internal.JobFields;
import io.bullpen.internal.JsonCodec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A job as stored in Redis at the moment it was read: an immutable snapshot. Read it again with
 * {@link Queue#getJob(String)} to see later changes.
 *
 * @param <T> the type of the job's data
 */
public final class Job<T> {
    private final String id;
    private final String name;
    /** The data, or {@link #UNREAD} until {@link #data()} first decodes {@code hash}'s JSON as {@link #lazyType}. */
    private volatile Object data;
    /** The type to decode the data as on first use; null when the data was decoded up front. */
    private final JavaType lazyType;
    private final JobOptions options;
    private final Map<String, String> hash;
    private final boolean deduplicated;

    private Job(String id, String name, T data, JobOptions options, Map<String, String> hash) {
        this(id, name, data, options, hash, false);
    }

    private Job(String id, String name, T data, JobOptions options, Map<String, String> hash, boolean deduplicated) {
        this(id, name, data, null, options, hash, deduplicated);
    }

    private Job(String id, String name, Object data, JavaType lazyType, JobOptions options, Map<String, String> hash,
                boolean deduplicated) {
        this.id = id;
        this.name = name;
        this.data = data;
        this.lazyType = lazyType;
        this.options = options;
        this.hash = Map.copyOf(hash);
        this.deduplicated = deduplicated;
    }

    /** Marks data not decoded yet. */
    private static final Object UNREAD = new Object();

    /** This job as the answer to an add that it deduplicated. */
    Job<T> asDeduplicated() {
        return new Job<>(id, name, data, lazyType, options, hash, true);
    }

    /**
     * A job this client just added, built from the fields it wrote: its data JSON is decoded on
     * the first {@link #data()} call, not here. The JSON was just encoded from the caller's data,
     * of a class checked to read back (see {@code DataCheck}); an add that nobody reads the
     * returned job's data of then pays no decoding.
     */
    static <T> Job<T> added(String id, Map<String, String> hash, JobOptions options, JavaType dataType) {
        Objects.requireNonNull(id, "id");
        return new Job<>(id, hash.getOrDefault(JobFields.NAME, ""), UNREAD, dataType, options, hash, false);
    }

    /**
     * Rebuilds a job from its Redis hash (field names in {@link JobFields}: name, data, opts,
     * timestamp, ...). The worker reaches it through {@code io.bullpen.internal.WireFormat}.
     *
     * @param id the job id
     * @param hash the job hash's fields
     * @param dataType the type to read the {@code data} field as
     * @param <T> the type of the job's data
     * @return the job
     * @throws BullpenException when the data or options cannot be read
     */
    static <T> Job<T> fromHash(String id, Map<String, String> hash, JavaType dataType) {
        Objects.requireNonNull(id, "id");
        String dataJson = hash.get(JobFields.DATA);
        T data;
        try {
            data = JsonCodec.decode(dataJson, dataType);
        } catch (BullpenException e) {
            throw new BullpenException("cannot read the data of job " + id + ": " + e.getMessage(), e);
        }
        return new Job<>(id, hash.getOrDefault(JobFields.NAME, ""), data, JsonCodec.decodeOptions(hash.get(JobFields.OPTS)), hash);
    }

    /** @return the job id: a decimal number for automatic ids, or the custom id */
    public String id() {
        return id;
    }

    /** @return the job name given when it was added */
    public String name() {
        return name;
    }

    /**
     * @return the job's data
     * @throws BullpenException when the data of a job returned by an add cannot be read back as
     *     the queue's type (decoded on first use)
     */
    @SuppressWarnings("unchecked")
    public T data() {
        Object d = data;
        if (d == UNREAD) {
            synchronized (this) {
                d = data;
                if (d == UNREAD) {
                    try {
                        d = JsonCodec.decode(hash.get(JobFields.DATA), lazyType);
                    } catch (BullpenException e) {
                        throw new BullpenException("cannot read the data of job " + id + ": " + e.getMessage(), e);
                    }
                    data = d;
                }
            }
        }
        return (T) d;
    }

    /** @return the data as the JSON stored in Redis */
    public String dataJson() {
        return hash.get(JobFields.DATA);
    }

    /** @return the options the job was added with */
    public JobOptions options() {
        return options;
    }

    /** @return when the job was added */
    public Instant timestamp() {
        return Instant.ofEpochMilli(longField(JobFields.TIMESTAMP, 0));
    }

    /** @return the delay the job was added with (zero once promoted by hand) */
    public Duration delay() {
        return Duration.ofMillis(longField(JobFields.DELAY, 0));
    }

    /** @return the priority (0 = none; lower runs first) */
    public int priority() {
        return (int) longField(JobFields.PRIORITY, 0);
    }

    /** @return how many times a worker has started this job */
    public int attemptsStarted() {
        return (int) longField(JobFields.ATTEMPTS_STARTED, 0);
    }

    /** @return how many attempts have ended (completed or failed) */
    public int attemptsMade() {
        return (int) longField(JobFields.ATTEMPTS_MADE, 0);
    }

    /**
     * A copy of this snapshot with another attemptsMade; a worker hands its listeners the job with
     * the attempt that just ended counted.
     *
     * @param attemptsMade the number of ended attempts
     * @return the copy (same data object)
     */
    Job<T> withAttemptsMade(int attemptsMade) {
        // One pass into an immutable map, which the constructor's copy keeps as it is.
        String value = Integer.toString(attemptsMade);
        @SuppressWarnings("unchecked")
        Map.Entry<String, String>[] fields = new Map.Entry[hash.size() + (hash.containsKey(JobFields.ATTEMPTS_MADE) ? 0 : 1)];
        int i = 0;
        for (Map.Entry<String, String> field : hash.entrySet()) {
            fields[i++] = field.getKey().equals(JobFields.ATTEMPTS_MADE) ? Map.entry(field.getKey(), value) : field;
        }
        if (i < fields.length) {
            fields[i] = Map.entry(JobFields.ATTEMPTS_MADE, value);
        }
        return new Job<>(id, name, data, lazyType, options, Map.ofEntries(fields), false);
    }

    /** @return how many times the job was recovered after its worker lost the lock */
    public int stalledCount() {
        return (int) longField(JobFields.STALLED_COUNTER, 0);
    }

    /** @return when the latest attempt started, if one has */
    public Optional<Instant> processedOn() {
        return instantField(JobFields.PROCESSED_ON);
    }

    /** @return when the job completed or finally failed, if it has */
    public Optional<Instant> finishedOn() {
        return instantField(JobFields.FINISHED_ON);
    }

    /**
     * @return the worker that started the latest attempt, when that worker was given a name
     *     ({@code Worker.Builder#name}); as in BullMQ, an unnamed worker stores none, which keeps
     *     every job's hash smaller
     */
    public Optional<String> processedBy() {
        return Optional.ofNullable(hash.get(JobFields.PROCESSED_BY));
    }

    /** @return the latest progress as JSON, if any was reported */
    public Optional<String> progressJson() {
        return Optional.ofNullable(hash.get(JobFields.PROGRESS));
    }

    /** @return the latest progress read as {@code type}, if any was reported */
    public <P> Optional<P> progress(Class<P> type) {
        return progressJson().map(json -> JsonCodec.decode(json, JsonCodec.type(type)));
    }

    /**
     * @return the processor's return value as JSON, once completed; empty when it returned null
     *     (a null return value is not stored)
     */
    public Optional<String> returnValueJson() {
        return Optional.ofNullable(hash.get(JobFields.RETURN_VALUE));
    }

    /** @return the processor's return value read as {@code type}, once completed */
    public <R> Optional<R> returnValue(Class<R> type) {
        return returnValueJson().map(json -> JsonCodec.decode(json, JsonCodec.type(type)));
    }

    /** @return why the latest attempt failed, if it did */
    public Optional<String> failedReason() {
        return Optional.ofNullable(hash.get(JobFields.FAILED_REASON));
    }

    /**
     * @return the parents of this job in flows (a child shared by several parents, a DAG, has
     *     several), in the order they were added; empty for a job without a parent
     */
    public List<io.bullpen.flow.JobRef> parents() {
        String text = hash.get(JobFields.PARENTS);
        if (text == null || text.isEmpty()) {
            return List.of();
        }
        List<io.bullpen.flow.JobRef> refs = new java.util.ArrayList<>();
        for (String line : text.split("\n")) {
            // <queue>:<id>:<index> (neither queue names nor job ids contain a colon)
            String[] parts = line.split(":");
            if (parts.length >= 2) {
                refs.add(new io.bullpen.flow.JobRef(parts[0], parts[1]));
            }
        }
        return List.copyOf(refs);
    }

    /** @return stack traces of failed attempts, oldest first (capped) */
    public List<String> stacktrace() {
        return JsonCodec.decodeStrings(hash.get(JobFields.STACKTRACE));
    }

    /**
     * @return the fencing token of the attempt this job was taken for, on the job a worker runs
     *     (it grows with every attempt across the queue); 0 on a job read with
     *     {@code Queue#getJob} and friends: the token lives in the attempt's lock, not in the
     *     stored job, which keeps finished jobs small
     */
    public long fencingToken() {
        return longField(JobFields.FENCE, 0);
    }

    /** @return the job scheduler that created this job, if any */
    public Optional<String> schedulerId() {
        return Optional.ofNullable(hash.get(JobFields.SCHEDULER_ID));
    }

    /**
     * @return true on the job an add returned when that add created no job because this job owns
     *     its deduplication id ({@link JobOptions.Builder#deduplication}); the add may have
     *     replaced this job's data (debounce) or been kept for after it (keepLastIfActive).
     *     False on every other job
     */
    public boolean isDeduplicated() {
        return deduplicated;
    }

    /** @return the deduplication id this job owns or owned, if it was added with one */
    public Optional<String> deduplicationId() {
        return Optional.ofNullable(hash.get(JobFields.DEDUP_ID));
    }

    /** @return the hash fields, as stored in Redis */
    Map<String, String> rawFields() {
        return hash;
    }

    private long longField(String field, long absent) {
        String v = hash.get(field);
        return v == null || v.isEmpty() ? absent : Long.parseLong(v);
    }

    private Optional<Instant> instantField(String field) {
        String v = hash.get(field);
        return v == null || v.isEmpty() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(Long.parseLong(v)));
    }

    @Override
    public String toString() {
        return "Job{id=" + id + ", name=" + name + ", fields=" + hash.keySet() + "}";
    }
}
