package io.bullpen.internal;

import io.bullpen.JobOptions;
import io.bullpen.flow.ChildFailure;
import io.bullpen.flow.FlowJob;
import io.bullpen.flow.JobNode;
import io.bullpen.internal.FlowRelay.Chunk;
import io.bullpen.internal.FlowScripts.FlowRecord;
import io.bullpen.internal.FlowScripts.MoreChildren;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A flow checked and encoded before anything is written: ids, depths, chunks. Either a whole flow
 * under a new root ({@link #of}, for {@code FlowProducer}), or children added at runtime under an
 * existing parent ({@link #ofChildren}, for a processor's {@code addChildren}). A cycle among the
 * jobs of the plan (two jobs with the same custom id, one below the other) is refused, naming the
 * jobs. Not API.
 */
public final class FlowPlan {
    /**
     * The most jobs one addFlow call adds: a larger flow is staged and added in calls of this
     * size, so no call blocks Redis for long (docs/flows.md has the figures).
     */
    public static final int MAX_JOBS_PER_CALL = 100;

    /**
     * The most children (edges) one call records: a parent with more gets the rest in further
     * calls of this size (addFlowChildren), and a chunk of jobs closes before its edges pass it.
     */
    public static final int MAX_CHILDREN_PER_CALL = 1000;

    private final String flowId;
    private final Map<FlowJob, Node> byJob = new IdentityHashMap<>();
    private final Map<String, Node> byCustomId = new LinkedHashMap<>();
    private final List<Node> order = new ArrayList<>();
    /** Runtime children: "<policy><queue>:<id>" per new edge of the existing parent. */
    private final List<String> rootEdges = new ArrayList<>();
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
    /** The add's trace headers as stored ({@link TraceHeaders}), on every job; null for none. */
    private String traceContext;

    private FlowPlan(String flowId, Map<String, JobOptions> defaults) {
        this.flowId = flowId;
        this.defaults = defaults;
    }

    /**
     * Gives every job of the plan the add's trace headers (field tc); call before {@link #chunks}.
     *
     * @param traceContext the headers as stored ({@link TraceHeaders#encode}); null for none
     * @return this plan
     */
    public FlowPlan traceContext(String traceContext) {
        this.traceContext = traceContext;
        return this;
    }

    /**
     * A new flow under {@code root}.
     *
     * @param flowId the flow's id (stage key, and the prefix of the ids chosen here)
     * @param defaults per queue, the default job options
     * @throws IllegalArgumentException for a cycle or a job flows cannot add
     */
    public static FlowPlan of(FlowJob root, String flowId, Map<String, JobOptions> defaults) {
        FlowPlan plan = new FlowPlan(flowId, defaults);
        plan.visit(root, 0, new ArrayList<>());
        return plan;
    }

    /**
     * Children added at runtime under an existing parent: each edge's child (with its own
     * children) is a job of the plan whose parents start with the placeholder {@code #<k>} (k: the
     * edge's place among the new edges), replaced by the parent and the child's index there when
     * the finish records them (stageChildren.lua). A child given twice is one edge.
     *
     * @param edges the new edges, in order
     * @throws IllegalArgumentException for a cycle among the children or a job flows cannot add
     */
    public static FlowPlan ofChildren(List<FlowJob.Edge> edges, String flowId, Map<String, JobOptions> defaults) {
        FlowPlan plan = new FlowPlan(flowId, defaults);
        for (FlowJob.Edge e : edges) {
            Node c = plan.visit(e.child(), 1, new ArrayList<>());
            String ref = c.ref();
            if (plan.rootEdges.stream().noneMatch(x -> x.substring(1).equals(ref))) {
                c.parents.add(0, "#" + plan.rootEdges.size());
                plan.rootEdges.add(code(e.policy()) + ref);
            }
        }
        return plan;
    }

    /** @return a new flow id: "f" and 16 random hex digits */
    public static String newFlowId() {
        return "f" + java.util.UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    }

    /** @return how many jobs the plan adds (a job given twice, or under two parents, counts once) */
    public int jobCount() {
        return order.size();
    }

    /** @return the id of every job of the plan, each once, in the order they were first met */
    public List<String> jobIds() {
        return order.stream().map(n -> n.id).toList();
    }

    /** @return the flow's id */
    public String flowId() {
        return flowId;
    }

    /** @return "<queue>:<id>" of every job of the plan with a custom id (the only ones that may exist already) */
    public Set<String> customRefs() {
        return byCustomId.keySet();
    }

    /**
     * For each job of the plan with a custom id and children, the jobs with custom ids below it
     * ("<queue>:<id>"): an existing one among its ancestors would make a cycle (see
     * {@link FlowAncestry#refuseCycles}).
     */
    public Map<String, Set<String>> customDescendants() {
        Map<Node, Set<String>> below = new IdentityHashMap<>();
        Map<String, Set<String>> out = new LinkedHashMap<>();
        for (Node n : byCustomId.values()) {
            Set<String> d = descendants(n, below);
            if (!d.isEmpty()) {
                out.put(n.ref(), d);
            }
        }
        return out;
    }

    private Set<String> descendants(Node n, Map<Node, Set<String>> memo) {
        Set<String> known = memo.get(n);
        if (known != null) {
            return known;
        }
        Set<String> d = new java.util.LinkedHashSet<>();
        for (FlowJob.Edge e : n.job.children()) {
            Node c = byJob.get(e.child());
            if (byCustomId.containsKey(c.ref())) {
                d.add(c.ref());
            }
            d.addAll(descendants(c, memo));
        }
        memo.put(n, d);
        return d;
    }

    /**
     * The children of {@link #ofChildren} encoded for moveToFinished's {@code children} field:
     * {@code <flowId>\n<edges>\n\n<chunks>} (see stageChildren.lua).
     */
    public String encodeChildren() {
        StringBuilder out = new StringBuilder(flowId).append('\n').append(String.join("\n", rootEdges)).append("\n\n");
        List<Chunk> chunks = chunks();
        for (int i = 0; i < chunks.size(); i++) {
            if (i > 0) {
                out.append('\n');
            }
            out.append(JsonCodec.encodeValue(chunks.get(i), "flow chunk"));
        }
        return out.toString();
    }

    /** @return the one-letter code of an edge policy, as stored in Redis */
    public static String code(ChildFailure policy) {
        return switch (policy) {
            case FAIL_PARENT -> "F";
            case IGNORE -> "I";
            case REMOVE -> "R";
            case CONTINUE -> "C";
        };
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
            String edge = code(e.policy()) + c.ref();
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
    public List<Chunk> chunks() {
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
                String.join("\n", n.children.subList(0, children)), more ? n.children.size() : 0, more ? flowId : "", traceContext);
    }

    /** @return {@code job} as added, with its children */
    public JobNode node(FlowJob job) {
        Node n = byJob.get(job);
        List<JobNode> children = new ArrayList<>();
        for (FlowJob.Edge e : job.children()) {
            children.add(node(e.child()));
        }
        return new JobNode(job.queue(), n.id, children);
    }
}
