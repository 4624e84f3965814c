package io.bullpen;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JavaType;
import io.bullpen.instrument.Instrumentation;
import io.bullpen.internal.Futures;
import io.bullpen.internal.JsonCodec;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.MetaFields;
import io.bullpen.internal.QueueAdmin;
import io.bullpen.internal.QueueSettings;
import io.bullpen.internal.RedisCalls;
import io.bullpen.internal.ScriptTypes.RawJob;
import io.bullpen.internal.Validation;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import org.redisson.api.RedissonClient;


/**
 * A named queue of jobs in Redis: the producer and admin API. Add jobs (immediate, delayed,
 * prioritized, LIFO, with attempts and backoff), read them and their counts, and act on them
 * (promote, retry, remove, pause). Workers in any process take the jobs; each job is processed
 * at least once: a crash at any point loses no job, but a job whose worker dies mid-run is run
 * again.
 *
 * <p>Thread-safe; create one per queue name and share it. It does not own the
 * {@link RedissonClient}: closing the client is the caller's business. While Redis cannot be
 * reached every call throws {@link QueueUnavailableException}, naming the queue and the call.
 *
 * <pre>{@code
 * Queue<Order> orders = Queue.builder(redisson, "orders", Order.class).build();
 * Job<Order> job = orders.add("cancel-unpaid", order, JobOptions.builder()
 *         .delay(Duration.ofMinutes(30)).attempts(5)
 *         .backoff(Backoff.exponential(Duration.ofSeconds(1))).build());
 * }</pre>
 *
 * @param <T> the type of the jobs' data (serialized as JSON with Jackson)
 */
public final class Queue<T> extends QueueJobControl<T> {
    private Queue(Builder<T> b) {
        super(b);
    }

    /**
     * Starts building a queue whose job data is of a plain class.
     *
     * @param redisson the Redis client (any codec: Bullpen always uses its own)
     * @param name the queue name: 1-256 characters, no braces, colons or whitespace
     * @param dataType the class of the jobs' data: {@code build()} checks that Jackson can read it
     *     back (a concrete class, a record, or an abstract type with {@code @JsonTypeInfo}); {@code
     *     Void} or {@code Object} for jobs without data
     * @param <T> the type of the jobs' data
     * @return a builder
     * @throws IllegalArgumentException for an illegal queue name
     */
    public static <T> Builder<T> builder(RedissonClient redisson, String name, Class<T> dataType) {
        return new Builder<>(redisson, name, JsonCodec.type(Objects.requireNonNull(dataType, "dataType")));
    }

    /**
     * Starts building a queue whose job data is of a generic type, e.g.
     * {@code new TypeReference<List<Order>>() {}}.
     *
     * @param redisson the Redis client
     * @param name the queue name
     * @param dataType the generic type of the jobs' data
     * @param <T> the type of the jobs' data
     * @return a builder
     */
    public static <T> Builder<T> builder(RedissonClient redisson, String name, TypeReference<T> dataType) {
        return new Builder<>(redisson, name, JsonCodec.type(Objects.requireNonNull(dataType, "dataType")));
    }

    /**
     * @return the options filled in for every add where the add's own options do not set them
     *     (see {@link Builder#defaultJobOptions(JobOptions)}); {@link JobOptions#defaults()} when none
     */
    public JobOptions defaultJobOptions() {
        return adder.defaults().options();
    }

    /**
     * The settings and job schedulers of this queue as a configuration declares them, marked with
     * its owner, so that configuration can remove them once it no longer declares them (see
     * {@link DeclaredSettings}). Writes nothing by itself.
     *
     * @param owner the configuration's owner, e.g. the application's name
     * @return the declared settings of this queue for that owner
     * @throws IllegalArgumentException for a blank owner, one over 200 characters or with control characters
     */
    public DeclaredSettings<T> declaredBy(String owner) {
        return new DeclaredSettings<>(this, owner);
    }

    /** @return the prefix of the queue's Redis keys */
    public String prefix() {
        return keys.prefix();
    }

    /**
     * Adds a job with default options: it runs as soon as a worker is free, once.
     *
     * @param name the job name (free text, e.g. the kind of work)
     * @param data the job's data; serialized to JSON now. Null only on a queue of {@code Void} or
     *     {@code Object} (a worker of another type would get null)
     * @return the added job
     * @throws IllegalArgumentException naming the queue and the job when the data is null on a queue
     *     of another type, is not of the queue's data type (an unchecked call), cannot be serialized
     *     (a cycle, a class with no property Jackson can see) or read back as the queue's type (checked
     *     once per class), or is over the payload cap; nothing is written
     * @throws QueueUnavailableException when Redis cannot be reached
     */
    public Job<T> add(String name, T data) {
        return add(name, data, JobOptions.defaults());
    }

    /**
     * Adds a job. With a custom {@link JobOptions#jobId()} that already exists, nothing is added and
     * the existing job is returned.
     *
     * @param name the job name
     * @param data the job's data
     * @param options delay, priority, attempts, backoff, custom id, retention...
     * @return the added (or existing) job
     */
    public Job<T> add(String name, T data, JobOptions options) {
        return Futures.join(addAsync(name, data, options));
    }

    /**
     * Adds a job without blocking the caller. Validation and serialization happen before this
     * returns (bad input throws here, and nothing is written).
     *
     * @param name the job name
     * @param data the job's data
     * @param options the job's options
     * @return the added (or existing) job, when Redis has answered
     */
    public CompletionStage<Job<T>> addAsync(String name, T data, JobOptions options) {
        return adder.addAll("add", List.of(JobSpec.of(name, data, options))).thenApply(jobs -> jobs.get(0));
    }

    /**
     * Adds many jobs in one atomic script call: either all are added or none (duplicate custom
     * ids are skipped and the existing jobs returned in their place). Very large lists block Redis
     * while they are written; add them in chunks of a few thousand.
     *
     * @param specs the jobs, in order
     * @return the jobs, in the same order
     */
    public List<Job<T>> addBulk(List<JobSpec<T>> specs) {
        return Futures.join(adder.addAll("addBulk", specs));
    }

    /**
     * @param id a job id
     * @return the job as stored now, or empty when there is no such job
     */
    public Optional<Job<T>> getJob(String id) {
        return join("getJob", adder.readJob(id));
    }

    /** @return the number of jobs in each state and whether the queue is paused, read atomically */
    public JobCounts getJobCounts() {
        return join("getJobCounts", scripts.getCounts());
    }

    /**
     * A page of the jobs in one state. Order: waiting newest first; active latest lock expiry
     * (most recently taken or extended) first; delayed next due first; prioritized next to run
     * first; completed and failed most recently finished first.
     *
     * @param state the state (not UNKNOWN)
     * @param start first index, from 0
     * @param end last index, inclusive (-1 = to the end)
     * @return the jobs
     */
    public List<Job<T>> getJobs(JobState state, long start, long end) {
        Objects.requireNonNull(state, "state");
        if (state == JobState.UNKNOWN) {
            throw new IllegalArgumentException("cannot list jobs in state UNKNOWN");
        }
        List<RawJob> raw = join("getJobs", scripts.getJobs(state, start, end));
        List<Job<T>> jobs = new ArrayList<>(raw.size());
        for (RawJob r : raw) {
            jobs.add(Job.fromHash(r.id(), r.hash(), dataType));
        }
        return jobs;
    }

    /**
     * @param id a job id
     * @return the job's state, {@link JobState#UNKNOWN} when there is no such job
     */
    public JobState getState(String id) {
        return join("getState", scripts.getState(Objects.requireNonNull(id, "id")));
    }

    /** Pauses the queue: jobs are still added, but workers take none until {@link #resume()}. */
    public void pause() {
        register("pause");
        join("pause", scripts.pause(true));
    }

    /** Resumes a paused queue and wakes its workers. */
    public void resume() {
        join("resume", scripts.pause(false));
    }

    /**
     * @return the approximate number of events the queue's stream keeps, as stored in Redis for
     *     every client of the queue (see {@link Builder#eventsMaxLength(long)}); 10,000 when none
     *     was set
     */
    public long getEventsMaxLength() {
        return RedisCalls.call(name(), "getEventsMaxLength", () -> QueueSettings.eventsMaxLength(redisson, keys));
    }

    /** @return whether the queue is paused */
    public boolean isPaused() {
        return join("isPaused", redisson.getMap(RedisCalls.map(keys.meta())).containsKeyAsync(MetaFields.PAUSED));
    }

    /**
     * The queues registered under the default prefix "bp": every queue that has had a job added
     * (or was paused) and was not obliterated since.
     *
     * @param redisson the Redis client
     * @return the queue names, sorted
     */
    public static Set<String> listQueues(RedissonClient redisson) {
        return listQueues(redisson, KeyScheme.DEFAULT_PREFIX);
    }

    /**
     * The queues registered under a key prefix.
     *
     * @param redisson the Redis client
     * @param prefix the key prefix the queues were built with
     * @return the queue names, sorted
     * @throws IllegalArgumentException for an illegal prefix
     */
    public static Set<String> listQueues(RedissonClient redisson, String prefix) {
        return RedisCalls.call(null, "listQueues", () -> QueueAdmin.listQueues(redisson, prefix));
    }

    /**
     * Builds a {@link Queue}.
     *
     * @param <T> the type of the jobs' data
     */
    public static final class Builder<T> {
        // Package-private: read by the QueueFlowControl constructor.
        final RedissonClient redisson;
        final String name;
        final JavaType dataType;
        String prefix = KeyScheme.DEFAULT_PREFIX;
        Clock clock = Clock.systemUTC();
        int maxPayloadBytes = JsonCodec.DEFAULT_MAX_PAYLOAD_BYTES;
        long eventsMaxLength;
        int addReplicas;
        Duration addReplicaTimeout = Duration.ZERO;
        final List<Instrumentation> instrumentations = new ArrayList<>();
        JobDefaults defaultJobOptions = JobDefaults.NONE;

        private Builder(RedissonClient redisson, String name, JavaType dataType) {
            this.redisson = Objects.requireNonNull(redisson, "redisson");
            this.name = Validation.queueName(name);
            this.dataType = dataType;
        }

        /**
         * @param prefix the prefix of every key of the queue (default "bp")
         * @return this builder
         */
        public Builder<T> prefix(String prefix) {
            this.prefix = Validation.prefix(prefix);
            return this;
        }

        /**
         * @param clock the clock for timestamps and due times (tests pass a settable one)
         * @return this builder
         */
        public Builder<T> clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * @param bytes the largest job data accepted, as UTF-8 JSON (default 512 KiB)
         * @return this builder
         */
        public Builder<T> maxPayloadBytes(int bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("maxPayloadBytes must be >= 1 but was " + bytes);
            }
            this.maxPayloadBytes = bytes;
            return this;
        }

        /**
         * Caps the queue's events stream at about {@code length} events (default 10,000; Redis
         * trims whole stream nodes of 100 entries, so it may keep up to about 100 more). A setting
         * of the queue, not of this client: it is stored in Redis when this {@code Queue} is first
         * used (an add, a pause or a job scheduler upsert) and from then on every client of the
         * queue applies it, workers and other {@code Queue}s included. A {@code Queue} built
         * without it leaves the stored value alone; the last one stored wins.
         *
         * @param length approximate number of events kept in the queue's stream, at least 1
         * @return this builder
         * @see Queue#getEventsMaxLength()
         */
        public Builder<T> eventsMaxLength(long length) {
            if (length < 1) {
                throw new IllegalArgumentException("eventsMaxLength must be >= 1 but was " + length);
            }
            this.eventsMaxLength = length;
            return this;
        }

        /**
         * Durable adds: every add (single or bulk) completes only once {@code replicas} replicas
         * acknowledged it (Redis {@code WAIT} on the same connection), so an acknowledged job
         * survives a failover of the master (Redis Cluster or Sentinel), which asynchronous
         * replication alone does not promise. Costs one replication round trip per add call, and
         * at most once a second one more call that counts the connected replicas. With fewer
         * replicas connected than required, the add throws {@link NotReplicatedException} at once
         * and writes nothing ({@code written()} false); when fewer answer within {@code timeout},
         * it throws after the timeout with the jobs on the master ({@code written()} true): add
         * them again with the same custom ids to stay idempotent. Off by default.
         *
         * @param replicas replicas to reach, at least 1
         * @param timeout how long to wait for them, more than zero
         * @return this builder
         */
        public Builder<T> durableAdds(int replicas, Duration timeout) {
            if (replicas < 1) {
                throw new IllegalArgumentException("durableAdds replicas must be >= 1 but was " + replicas);
            }
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("durableAdds timeout must be > 0 but was " + timeout);
            }
            this.addReplicas = replicas;
            this.addReplicaTimeout = timeout;
            return this;
        }

        /**
         * Adds an observer of the jobs this queue adds (several may be added); see
         * {@link Instrumentation} for the threads it is called on.
         *
         * @param instrumentation the observer
         * @return this builder
         */
        public Builder<T> instrumentation(Instrumentation instrumentation) {
            instrumentations.add(Objects.requireNonNull(instrumentation, "instrumentation"));
            return this;
        }

        /**
         * Options for every job this {@code Queue} adds (add, addBulk, addAndAwait, and the
         * templates of the job schedulers it upserts), filled in option by option where the add's
         * own options did not set that option: an option the add set wins, even when set to its
         * default value ({@code attempts(1)} over a default of 5). A default that would clash with
         * the add's own options is left out (a default priority for a LIFO add, a default LIFO for a
         * prioritized add, a default delay for a debounced add or a scheduler's template). A setting
         * of this client, not of the queue in Redis: the added jobs store the merged options, so
         * workers need no configuration. Costs no Redis call.
         *
         * @param options the defaults, e.g. {@code JobOptions.builder().attempts(5)
         *     .backoff(Backoff.exponential(Duration.ofSeconds(1))).build()}
         * @return this builder
         * @throws IllegalArgumentException when the options set a custom job id or a deduplication
         *     (each names one job: as a default every add after the first would be a no-op)
         */
        public Builder<T> defaultJobOptions(JobOptions options) {
            this.defaultJobOptions = JobDefaults.of(options);
            return this;
        }

        /**
         * @return the queue; nothing is written to Redis until it is first used
         * @throws IllegalArgumentException naming the queue and its data type when Jackson cannot
         *     read that type back (an abstract type without type information, a type Jackson does
         *     not support, a class it finds no way to create): a worker could not read its jobs
         */
        public Queue<T> build() {
            return new Queue<>(this);
        }
    }
}
