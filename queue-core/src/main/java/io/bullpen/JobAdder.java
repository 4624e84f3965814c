package io.bullpen;

import com.fasterxml.jackson.databind.JavaType;
import io.bullpen.instrument.Instrumentation;
import io.bullpen.internal.AddLane;
import io.bullpen.internal.AddObservers;
import io.bullpen.internal.Completions;
import io.bullpen.internal.DataCheck;
import io.bullpen.internal.Instrumentations;
import io.bullpen.internal.JobFields;
import io.bullpen.internal.JsonCodec;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.RedisCalls;
import io.bullpen.internal.ScriptTypes.AddOutcome;
import io.bullpen.internal.ScriptTypes.AddResult;
import io.bullpen.internal.ScriptTypes.NewJob;
import io.bullpen.internal.Scripts;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.redisson.api.RMap;
import org.redisson.api.RedissonClient;

/** {@link Queue}'s add path and job reads: encodes, adds in one script call, builds the jobs. */
final class JobAdder<T> {
    /** The operations whose single adds share a call with other callers' (see {@link AddLane}). */
    private static final Set<String> COALESCED = Set.of("add", "addAndAwait");
    private final RedissonClient redisson;
    private final KeyScheme keys;
    private final Scripts scripts;
    private final JavaType dataType;
    private final Clock clock;
    private final int maxPayloadBytes;
    private final List<Instrumentation> instrumentations;
    private final Consumer<String> register;
    private final JobDefaults defaults;
    private final DataCheck dataCheck;
    private final AddLane lane;
    private final AddLane.Sender sender;

    JobAdder(RedissonClient redisson, KeyScheme keys, Scripts scripts, JavaType dataType, Clock clock,
            int maxPayloadBytes, List<Instrumentation> instrumentations, Consumer<String> register,
            JobDefaults defaults) {
        this.redisson = redisson;
        this.keys = keys;
        this.scripts = scripts;
        this.dataType = dataType;
        this.clock = clock;
        this.maxPayloadBytes = maxPayloadBytes;
        this.instrumentations = List.copyOf(instrumentations);
        this.register = register;
        this.defaults = defaults;
        this.dataCheck = DataCheck.of(keys.queue(), dataType);
        this.lane = AddLane.of(redisson, scripts.addLaneKey());
        this.sender = new AddLane.Sender() {
            @Override
            public long now() {
                return clock.millis();
            }

            @Override
            public CompletionStage<List<AddOutcome>> send(long now, List<NewJob> jobs, List<String> traceContexts) {
                return scripts.addCoalesced(now, jobs, traceContexts);
            }
        };
    }

    /** Redis's answers for the jobs of an add, and the time they were added at. */
    private record Reply(List<AddResult> results, long now) {
    }

    /** @return the queue's default job options, filled in by {@link #addAll} */
    JobDefaults defaults() {
        return defaults;
    }

    /** An upsert's observers (tracing headers for its iterations); null without instrumentations. */
    AddObservers observeUpsert(String jobName) {
        return instrumentations.isEmpty() ? null : AddObservers.start(instrumentations, keys.queue(), jobName, 1, false);
    }

    /**
     * The data of a job as JSON, checked so that a worker can read it back (see {@link DataCheck}).
     *
     * @param name the job's name; null for a data update
     * @throws IllegalArgumentException naming the queue and the job
     */
    String encodeData(String name, Object data) {
        return encodeData(name, null, data);
    }

    /** @param scheduler the job scheduler whose template holds the data, or null for an add */
    String encodeData(String name, String scheduler, Object data) {
        if (data == null) {
            dataCheck.check(keys.queue(), name, scheduler, null, null);
        }
        String json = JsonCodec.encodeData(name, data, maxPayloadBytes);
        if (data != null) {
            dataCheck.check(keys.queue(), name, scheduler, data, json);
        }
        return json;
    }

    CompletionStage<List<Job<T>>> addAll(String operation, List<JobSpec<T>> specs, Executor completion) {
        return addAll(operation, specs, 0, completion);
    }

    /**
     * Adds the jobs in one script call ({@code addJob}); a single add of {@code add} or
     * {@code addAndAwait} goes through the queue's {@link AddLane} ({@code addCoalesced}), which
     * may send it with other threads' single adds in one call. What follows Redis's reply (building the jobs, reading a
     * deduplicated job's owner, the instrumentations) runs on {@code completion}, never on a
     * Redisson I/O thread: a synchronous add passes its own thread ({@code CallerRuns}), an
     * asynchronous one {@link Completions#executor()}; the returned stage completes there.
     *
     * @param awaitMs 0, or: the jobs are awaited (addAndAwait), their results kept this long
     * @param completion where the work after the reply runs
     */
    CompletionStage<List<Job<T>>> addAll(String operation, List<JobSpec<T>> specs, long awaitMs, Executor completion) {
        Objects.requireNonNull(specs, "specs");
        if (specs.isEmpty()) {
            return CompletableFuture.completedFuture(List.of());
        }
        List<NewJob> newJobs = new ArrayList<>(specs.size());
        for (JobSpec<T> spec : specs) {
            Objects.requireNonNull(spec, "job spec");
            JobOptions o = defaults.apply(spec.options(), true);
            Deduplication d = o.deduplication().orElse(null);
            long delayMs = d != null && d.debounceDuration().isPresent() ? d.debounceDuration().get().toMillis() : o.delay().toMillis();
            newJobs.add(new NewJob(o.jobId().orElse(null), spec.name(), encodeData(spec.name(), spec.data()),
                    JsonCodec.encodeOptions(o), delayMs, o.priority(), o.lifo(), o.group().orElse(null),
                    d == null ? null : d.id(), d == null ? 0 : d.ttlDuration().map(Duration::toMillis).orElse(0L),
                    d == null ? "" : (d.debounceDuration().isPresent() ? "d" : "") + (d.keepsLastIfActive() ? "k" : ""),
                    awaitMs));
        }
        try {
            register.accept(operation);
        } catch (QueueUnavailableException e) {
            return CompletableFuture.failedFuture(e);
        }
        List<Job<T>> added = new ArrayList<>();
        // Tracing: asked on the caller's thread (its context current), only with instrumentations.
        AddObservers observers = instrumentations.isEmpty() ? null
                : AddObservers.start(instrumentations, keys.queue(), specs.get(0).name(), specs.size(),
                        "addBulk".equals(operation));
        String traceContext = observers == null ? null : observers.traceContext();
        CompletionStage<Reply> call;
        if (specs.size() == 1 && COALESCED.contains(operation)) {
            // A single add may share its call with other threads' adds to this queue: its
            // outcome is its own (a full group fails this add alone). handleAsync moves to
            // completion whatever the outcome (a failure too), in one stage.
            call = lane.add(newJobs.get(0), traceContext, sender).handleAsync((a, error) -> {
                if (error != null) {
                    throw error instanceof CompletionException ce ? ce : new CompletionException(error);
                }
                if (a.outcome().error() != null) {
                    throw a.outcome().error();
                }
                return new Reply(List.of(a.outcome().result()), a.now());
            }, completion);
        } else {
            long now = clock.millis();
            call = Completions.on(completion, scripts.addJob(now, newJobs, traceContext))
                    .thenApply(results -> new Reply(results, now));
        }
        CompletionStage<List<Job<T>>> stage = RedisCalls.translated(keys.queue(), operation,
                call.thenCompose(reply -> jobs(reply, newJobs, added, traceContext, completion)));
        if (instrumentations.isEmpty()) {
            return stage;
        }
        // On the completion executor (the stage completes there), before the caller sees the jobs.
        return stage.whenComplete((jobs, error) -> {
            observers.ended(error != null ? List.of() : added.stream().map(Job::id).toList(), error);
            if (error == null) {
                for (Job<T> job : added) {
                    Instrumentations.each(instrumentations, "jobAdded", i -> i.jobAdded(keys.queue(), job.id(), job.name()));
                }
            }
        });
    }

    /**
     * The jobs of Redis's answers: an added job as it was written (nothing read back), a
     * deduplicated or existing one read from Redis.
     *
     * @param added collects the jobs this add created
     */
    private CompletionStage<List<Job<T>>> jobs(Reply reply, List<NewJob> newJobs, List<Job<T>> added,
                                               String traceContext, Executor completion) {
        List<AddResult> results = reply.results();
        long now = reply.now();
        if (results.size() == 1 && results.get(0).added()) {
            Job<T> job = localJob(results.get(0).id(), newJobs.get(0), now, traceContext);
            added.add(job);
            return CompletableFuture.completedFuture(List.of(job));
        }
        List<CompletableFuture<Job<T>>> jobs = new ArrayList<>(results.size());
        for (int i = 0; i < results.size(); i++) {
            AddResult r = results.get(i);
            if (r.added()) {
                Job<T> job = localJob(r.id(), newJobs.get(i), now, traceContext);
                added.add(job);
                jobs.add(CompletableFuture.completedFuture(job));
            } else if (r.deduplicated()) {
                // The owner as it is now; one that ended since the add answered is
                // shown with the add's own fields under the owner's id.
                NewJob asked = newJobs.get(i);
                jobs.add(readJob(r.id(), completion).thenApply(owner -> owner.orElseGet(() -> localJob(r.id(), asked, now, null))
                        .asDeduplicated()).toCompletableFuture());
            } else {
                jobs.add(readJob(r.id(), completion).thenApply(existing -> existing.orElseThrow(
                        () -> new JobNotFoundException(keys.queue(), r.id()))).toCompletableFuture());
            }
        }
        return CompletableFuture.allOf(jobs.toArray(CompletableFuture[]::new))
                .thenApply(ignored -> jobs.stream().map(CompletableFuture::join).toList());
    }

    /** The job exactly as addJob stored it, without reading it back (its data decoded on first use). */
    private Job<T> localJob(String id, NewJob j, long now, String traceContext) {
        // Straight into an immutable map (which Job keeps as it is), no HashMap on the way.
        @SuppressWarnings("unchecked")
        Map.Entry<String, String>[] fields = new Map.Entry[8];
        int n = 0;
        fields[n++] = Map.entry(JobFields.NAME, j.name());
        fields[n++] = Map.entry(JobFields.DATA, j.data());
        fields[n++] = Map.entry(JobFields.TIMESTAMP, Long.toString(now));
        if (!j.opts().isEmpty()) {
            fields[n++] = Map.entry(JobFields.OPTS, j.opts());
        }
        if (j.delayMs() > 0) {
            fields[n++] = Map.entry(JobFields.DELAY, Long.toString(j.delayMs()));
        }
        if (j.priority() > 0) {
            fields[n++] = Map.entry(JobFields.PRIORITY, Integer.toString(j.priority()));
        }
        if (j.dedupId() != null) {
            fields[n++] = Map.entry(JobFields.DEDUP_ID, j.dedupId());
        }
        if (traceContext != null) {
            fields[n++] = Map.entry(JobFields.TRACE_CONTEXT, traceContext);
        }
        Map<String, String> hash = Map.ofEntries(Arrays.copyOf(fields, n));
        return Job.added(id, hash, JsonCodec.decodeOptions(j.opts()), dataType);
    }

    /** @param completion where the job is built from the reply (its data decoded) */
    CompletionStage<Optional<Job<T>>> readJob(String id, Executor completion) {
        Objects.requireNonNull(id, "id");
        RMap<String, String> hash = redisson.getMap(RedisCalls.map(keys.job(id)));
        return Completions.on(completion, hash.readAllMapAsync()).thenApply(fields -> fields.isEmpty()
                ? Optional.<Job<T>>empty()
                : Optional.of(Job.<T>fromHash(id, fields, dataType)));
    }
}
