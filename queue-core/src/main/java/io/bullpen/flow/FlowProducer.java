package io.bullpen.flow;

import io.bullpen.JobOptions;
import io.bullpen.internal.FlowRelay;
import io.bullpen.internal.FlowRelay.Chunk;
import io.bullpen.internal.FlowScripts.FlowRecord;
import io.bullpen.internal.FlowScripts.MoreChildren;
import io.bullpen.internal.JsonCodec;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.RedisCalls;
import io.bullpen.internal.Validation;
import io.bullpen.internal.WireFormat;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.redisson.api.RedissonClient;

/**
 * Adds flows: trees or DAGs of {@link FlowJob}s in any queues, where each parent runs only after
 * its children have ended (by each edge's {@link ChildFailure} policy).
 *
 * <p>An add is all or nothing: every job is checked and serialized before anything is written
 * (a cycle is refused, naming the job). A flow whose jobs are all in one queue is added by one
 * atomic script call (up to 100 jobs and 1,000 children per parent). A larger flow, or one over
 * several queues (each queue is its own Redis Cluster slot), is staged under a flow id no worker sees, committed by one atomic step in the root's slot, and then
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
    private final Map<String, JobOptions> defaultJobOptions;

    private FlowProducer(Builder b) {
        this.prefix = b.prefix;
        this.clock = b.clock;
        this.relay = new FlowRelay(b.redisson, b.prefix, b.clock);
        this.defaultJobOptions = Map.copyOf(b.defaultJobOptions);
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
     * @throws IllegalArgumentException for a cycle (naming the job), data that cannot be serialized,
     *     or options flows do not support (deduplication); nothing is written
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
            FlowPlan plan = FlowPlan.of(Objects.requireNonNull(root, "root"), "f" + UUID.randomUUID().toString()
                    .replace("-", "").substring(0, 16), defaultJobOptions);
            List<Chunk> chunks = plan.chunks();
            RedisCalls.call(root.queue(), "addFlow", () -> {
                if (chunks.size() == 1) {
                    relay.add(chunks.get(0));
                } else {
                    relay.stageAndCommit(root.queue(), plan.flowId(), chunks);
                    relay.materialize(root.queue(), plan.flowId());
                }
                // An existing child that had ended already told its new parent in another slot
                // through its queue's outbox: relay that now rather than wait for a worker.
                chunks.stream().map(Chunk::queue).distinct().forEach(queue -> relay.relayOutbox(queue, 100));
                return null;
            });
            nodes.add(plan.node(root));
        }
        return nodes;
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

        /** @return the producer */
        public FlowProducer build() {
            return new FlowProducer(this);
        }
    }

    /**
     * The most jobs one addFlow call adds: a larger flow is staged and added in calls of this
     * size, so no call blocks Redis for long (docs/flows.md has the figures).
     */
    static final int MAX_JOBS_PER_CALL = 100;

    /**
     * The most children (edges) one call records: a parent with more gets the rest in further
     * calls of this size (addFlowChildren), and a chunk of jobs closes before its edges pass it.
     */
    static final int MAX_CHILDREN_PER_CALL = 1000;

    /** A flow checked and encoded before anything is written: ids, depths, chunks. */
    static final class FlowPlan {
        private final String flowId;
        private final Map<FlowJob, Node> byJob = new IdentityHashMap<>();
        private final Map<String, Node> byCustomId = new LinkedHashMap<>();
        private final List<Node> order = new ArrayList<>();
        private int generated;

        private static final class Node {
            final FlowJob job;
            final String id;
            final List<String> parents = new ArrayList<>();
            final List<String> children = new ArrayList<>();
            /** The children's refs, to add each child once in O(1) (a fan-out has 100,000). */
            final Set<String> childRefs = new HashSet<>();
            int depth;
            int mark; // 0 new, 1 on the path, 2 done

            Node(FlowJob job, String id) {
                this.job = job;
                this.id = id;
            }

            String ref() {
                return job.queue() + ":" + id;
            }
        }

        private final Map<String, JobOptions> defaults;

        private FlowPlan(String flowId, Map<String, JobOptions> defaults) {
            this.flowId = flowId;
            this.defaults = defaults;
        }

        static FlowPlan of(FlowJob root, String flowId, Map<String, JobOptions> defaults) {
            FlowPlan plan = new FlowPlan(flowId, defaults);
            plan.visit(root, 0, new ArrayList<>());
            return plan;
        }

        String flowId() {
            return flowId;
        }

        private Node resolve(FlowJob job) {
            Node n = byJob.get(job);
            if (n != null) {
                return n;
            }
            String custom = job.jobId();
            if (custom != null) {
                n = byCustomId.get(job.queue() + ":" + custom);
                if (n == null) {
                    n = new Node(job, custom);
                    byCustomId.put(n.ref(), n);
                }
            } else {
                n = new Node(job, flowId + "-" + (++generated));
            }
            byJob.put(job, n);
            return n;
        }

        private Node visit(FlowJob job, int depth, List<String> path) {
            Node n = resolve(job);
            if (n.mark == 1) {
                throw new IllegalArgumentException("flow has a cycle: job " + n.ref() + " (" + job.name()
                        + ") is its own descendant via " + String.join(" -> ", path) + " -> " + n.ref());
            }
            boolean first = n.mark == 0; // marked on the path right below, never unmarked
            if (first) {
                order.add(n);
                check(job);
            }
            if (depth > n.depth || first) {
                n.depth = Math.max(n.depth, depth);
            }
            n.mark = 1;
            path.add(n.ref());
            for (FlowJob.Edge e : job.children()) {
                Node c = visit(e.child(), depth + 1, path);
                String edge = e.policy().code() + c.ref();
                if (n.childRefs.add(c.ref())) {
                    // The child's par entry names its place among the parent's children.
                    c.parents.add(n.ref() + ":" + n.children.size());
                    n.children.add(edge);
                }
            }
            path.remove(path.size() - 1);
            n.mark = 2;
            return n;
        }

        private static void check(FlowJob job) {
            if (job.options().deduplication().isPresent()) {
                throw new IllegalArgumentException("flow job " + job + " cannot use deduplication");
            }
        }

        /**
         * The jobs by queue, parents before children: one chunk per run of jobs of one queue (at
         * most {@link #MAX_JOBS_PER_CALL} jobs and {@link #MAX_CHILDREN_PER_CALL} children); a
         * parent with more children gets the rest in chunks of their own right after it, before
         * any child can exist.
         */
        List<Chunk> chunks() {
            List<Node> sorted = new ArrayList<>(order);
            sorted.sort((a, b) -> Integer.compare(a.depth, b.depth));
            List<Chunk> chunks = new ArrayList<>();
            String queue = null;
            List<FlowRecord> current = null;
            int edges = 0;
            for (Node n : sorted) {
                int first = Math.min(n.children.size(), MAX_CHILDREN_PER_CALL);
                if (current == null || !n.job.queue().equals(queue) || current.size() == MAX_JOBS_PER_CALL
                        || edges + first > MAX_CHILDREN_PER_CALL) {
                    queue = n.job.queue();
                    current = new ArrayList<>();
                    chunks.add(new Chunk(queue, current));
                    edges = 0;
                }
                boolean more = n.children.size() > first;
                current.add(record(n, first, more));
                edges += first;
                if (more) {
                    for (int start = first; start < n.children.size(); start += MAX_CHILDREN_PER_CALL) {
                        int end = Math.min(n.children.size(), start + MAX_CHILDREN_PER_CALL);
                        chunks.add(new Chunk(queue, List.of(), new MoreChildren(n.id, flowId, start,
                                end == n.children.size(), String.join("\n", n.children.subList(start, end)))));
                    }
                    current = null;
                }
            }
            return chunks;
        }

        private FlowRecord record(Node n, int children, boolean more) {
            FlowJob j = n.job;
            JobOptions queueDefaults = defaults.get(j.queue());
            JobOptions o = queueDefaults == null ? j.options() : WireFormat.withDefaults(queueDefaults, j.options());
            String data = JsonCodec.encodeData(j.name(), j.data(), JsonCodec.DEFAULT_MAX_PAYLOAD_BYTES);
            return new FlowRecord(n.id, j.name(), data, JsonCodec.encodeOptions(o), o.delay().toMillis(), o.priority(),
                    o.lifo(), o.group().orElse(null), String.join("\n", n.parents),
                    String.join("\n", n.children.subList(0, children)), more ? n.children.size() : 0, more ? flowId : "");
        }

        JobNode node(FlowJob job) {
            Node n = byJob.get(job);
            List<JobNode> children = new ArrayList<>();
            for (FlowJob.Edge e : job.children()) {
                children.add(node(e.child()));
            }
            return new JobNode(job.queue(), n.id, children);
        }
    }
}
