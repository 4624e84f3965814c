package io.bullpen.flow;

import io.bullpen.JobOptions;
import io.bullpen.instrument.Instrumentation;
import io.bullpen.internal.AddObservers;
import io.bullpen.internal.FlowAncestry;
import io.bullpen.internal.FlowRelay;
import io.bullpen.internal.FlowRelay.Chunk;
import io.bullpen.internal.FlowPlan;
import io.bullpen.internal.Instrumentations;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.RedisCalls;
import io.bullpen.internal.ScriptTypes.AddResult;
import io.bullpen.internal.Validation;
import io.bullpen.internal.WireFormat;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.redisson.api.RedissonClient;

/**
 * Adds flows: trees or DAGs of {@link FlowJob}s in any queues, where each parent runs only after
 * its children have ended (by each edge's {@link ChildFailure} policy).
 *
 * <p>An add is all or nothing: every job is checked and serialized before anything is written
 * (a cycle is refused, naming the job: within the add, or across adds when an existing job, by
 * its custom id, would be added below one of its own descendants). A flow whose jobs are all in
 * one queue is added by one atomic script call (up to 1,000 jobs). A larger flow, or one over several queues (each queue is
 * its own Redis Cluster slot), is
 * staged under a flow id no worker sees, committed by one atomic step in the root's slot, and then
 * created queue by queue, parents before children; this producer carries its own add through
 * before returning, and a worker of the root's queue carries on a committed flow whose producer
 * died. Jobs without a custom id get an id chosen here ({@code f<flow id>-<n>}), so every step can
 * be repeated without adding anything twice.
 *
 * <pre>{@code
 * FlowProducer flows = FlowProducer.builder(redisson).prefix("bp").build();
 * JobNode root = flows.add(FlowJob.builder("reports", "assemble", new Report(7))
 *         .child(FlowJob.builder("pages", "render", new Page(1)).build())
 *         .build());
 * }</pre>
 *
 * <p>Thread-safe. It does not own the {@link RedissonClient}.
 */
public final class FlowProducer {
    private final String prefix;
    private final Clock clock;
    private final FlowRelay relay;
    private final FlowAncestry ancestry;
    private final Map<String, JobOptions> defaultJobOptions;
    private final RedissonClient redisson;
    private final List<Instrumentation> instrumentations;
    /** The queues this producer has put in the registry of queues (the dashboard lists them). */
    private final Set<String> registered = ConcurrentHashMap.newKeySet();

    private FlowProducer(Builder b) {
        this.redisson = b.redisson;
        this.prefix = b.prefix;
        this.clock = b.clock;
        this.relay = new FlowRelay(b.redisson, b.prefix, b.clock);
        this.ancestry = new FlowAncestry(b.redisson, b.prefix);
        this.defaultJobOptions = Map.copyOf(b.defaultJobOptions);
        this.instrumentations = List.copyOf(b.instrumentations);
    }

    /**
     * @param redisson the Redis client
     * @return a builder
     */
    public static Builder builder(RedissonClient redisson) {
        return new Builder(redisson);
    }

    /** @return the key prefix of the flows' queues */
    public String prefix() {
        return prefix;
    }

    /**
     * Adds one flow.
     *
     * @param root the root job (with its children, recursively)
     * @return the root as added, with its children
     * @throws IllegalArgumentException for a cycle (naming the job; also across adds: an existing
     *     job, by its custom id, added below one of its own descendants), data that cannot be
     *     serialized, or options flows do not support (deduplication); nothing is written
     */
    public JobNode add(FlowJob root) {
        Objects.requireNonNull(root, "root");
        return addBulk(List.of(root)).get(0);
    }

    /**
     * Adds several flows; each is all or nothing (flows over one queue each are added in one call
     * per queue).
     *
     * @param roots the root jobs
     * @return the roots as added, in the same order
     */
    public List<JobNode> addBulk(List<FlowJob> roots) {
        Objects.requireNonNull(roots, "roots");
        List<JobNode> nodes = new ArrayList<>(roots.size());
        for (FlowJob root : roots) {
            FlowPlan plan = FlowPlan.of(Objects.requireNonNull(root, "root"), FlowPlan.newFlowId(), defaultJobOptions);
            // Tracing and metrics see a flow add as one bulk add (only with instrumentations).
            AddObservers endings = AddObservers.start(instrumentations, root.queue(), root.name(), plan.jobCount(), true);
            plan.traceContext(endings.traceContext());
            List<String[]> added = new ArrayList<>(); // queue, id, name of each job added here
            try {
                List<Chunk> chunks = plan.chunks();
                // An existing job added below one of its own descendants (custom ids across adds) is refused.
                plan.customDescendants().forEach((parent, below) -> {
                    int colon = parent.indexOf(':');
                    ancestry.refuseCycles(parent.substring(0, colon), parent.substring(colon + 1), below);
                });
                RedisCalls.call(root.queue(), "addFlow", () -> {
                    register(chunks);
                    if (chunks.size() == 1) {
                        collect(chunks.get(0), relay.add(chunks.get(0)), added);
                    } else {
                        relay.stageAndCommit(root.queue(), plan.flowId(), chunks);
                        relay.materialize(root.queue(), plan.flowId(), (chunk, results) -> collect(chunk, results, added));
                    }
                    // An existing child that had ended already told its new parent in another slot
                    // through its queue's outbox: relay that now rather than wait for a worker.
                    chunks.stream().map(Chunk::queue).distinct().forEach(queue -> relay.relayOutbox(queue, 100));
                    return null;
                });
            } catch (RuntimeException | Error e) {
                endings.ended(List.of(), e);
                throw e;
            }
            if (!instrumentations.isEmpty()) {
                endings.ended(added.stream().map(a -> a[1]).toList(), null);
                for (String[] a : added) {
                    Instrumentations.each(instrumentations, "jobAdded", i -> i.jobAdded(a[0], a[1], a[2]));
                }
            }
            nodes.add(plan.node(root));
        }
        return nodes;
    }

    private static void collect(Chunk chunk, List<AddResult> results, List<String[]> added) {
        for (int i = 0; i < results.size(); i++) {
            if (results.get(i).added()) {
                added.add(new String[] {chunk.queue(), results.get(i).id(), chunk.jobs().get(i).name()});
            }
        }
    }

    /**
     * Puts the flow's queues in the registry of queues, as a {@code Queue}'s first add does, so a
     * queue that only gets jobs through flows is listed too (the dashboard reads the registry).
     */
    private void register(List<Chunk> chunks) {
        chunks.stream().map(Chunk::queue).distinct().filter(q -> !registered.contains(q)).forEach(q -> {
            redisson.getSet(RedisCalls.plain(new KeyScheme(prefix, q).registry())).add(q);
            registered.add(q);
        });
    }

    /**
     * Carries on the flows committed under a root queue whose adder stopped before they were fully
     * created (workers do this on their own; exposed for tools).
     *
     * @param rootQueue the root jobs' queue
     * @return how many flows were carried on
     */
    int carryOn(String rootQueue) {
        return relay.carryOnFlows(rootQueue, 0, 100);
    }

    /** Builds a {@link FlowProducer}. */
    public static final class Builder {
        private final RedissonClient redisson;
        private String prefix = KeyScheme.DEFAULT_PREFIX;
        private Clock clock = Clock.systemUTC();
        private final Map<String, JobOptions> defaultJobOptions = new LinkedHashMap<>();
        private final List<Instrumentation> instrumentations = new ArrayList<>();

        private Builder(RedissonClient redisson) {
            this.redisson = Objects.requireNonNull(redisson, "redisson");
        }

        /**
         * @param prefix the key prefix of the queues (default "bp")
         * @return this builder
         */
        public Builder prefix(String prefix) {
            this.prefix = Validation.prefix(prefix);
            return this;
        }

        /**
         * @param clock the clock for job timestamps (tests)
         * @return this builder
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Options filled in for every flow job of a queue where the job's own options do not set
         * them, as {@code Queue.Builder#defaultJobOptions} does for plain adds (give the same as
         * the queue's).
         *
         * @param queue the queue
         * @param options the default options (no job id, no deduplication)
         * @return this builder
         * @throws IllegalArgumentException for an illegal queue name or defaults setting a job id or a deduplication
         */
        public Builder defaultJobOptions(String queue, JobOptions options) {
            Objects.requireNonNull(options, "options");
            WireFormat.withDefaults(options, JobOptions.defaults());
            defaultJobOptions.put(Validation.queueName(queue), options);
            return this;
        }

        /**
         * Adds an observer of the flows this producer adds (several may be added), as
         * {@code Queue.Builder#instrumentation} does for a queue's adds: each flow add is one bulk
         * add ({@link Instrumentation#addStarting} once, on the adding thread, with the root's queue
         * and name and the flow's job count), the headers it puts are stored with every job of the
         * flow, {@link Instrumentation#jobAdded} is called for each job added, and
         * {@link Instrumentation.Adding#ended} with their ids when the add returns or fails.
         *
         * @param instrumentation the observer
         * @return this builder
         */
        public Builder instrumentation(Instrumentation instrumentation) {
            instrumentations.add(Objects.requireNonNull(instrumentation, "instrumentation"));
            return this;
        }

        /** @return the producer */
        public FlowProducer build() {
            return new FlowProducer(this);
        }
    }
}
