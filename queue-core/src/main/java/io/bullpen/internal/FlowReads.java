package io.bullpen.internal;

import io.bullpen.JobState;
import io.bullpen.flow.ChildResult;
import io.bullpen.flow.JobNode;
import io.bullpen.internal.FlowScripts.ChildEntry;
import io.bullpen.internal.FlowScripts.ChildPage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.redisson.api.RedissonClient;

/**
 * Reads a parent's children for the queue API and the worker: the outcomes copied to the parent,
 * and for a child still pending its state now (read in the child's own queue). Not API.
 */
public final class FlowReads {
    private final RedissonClient redisson;
    private final String prefix;
    private final Map<String, Scripts> queues = new ConcurrentHashMap<>();
    private final Map<String, FlowScripts> flows = new ConcurrentHashMap<>();

    /**
     * @param redisson the client
     * @param prefix the key prefix of the queues
     */
    public FlowReads(RedissonClient redisson, String prefix) {
        this.redisson = redisson;
        this.prefix = prefix;
    }

    private FlowScripts flow(String queue) {
        return flows.computeIfAbsent(queue, q -> new FlowScripts(redisson, new KeyScheme(prefix, q)));
    }

    /** A page of a parent's children after {@code after} ("<queue>:<id>" of the last one seen; null = first page). */
    public List<ChildResult> children(String queue, String parentId, String after, int limit) {
        Validation.between("limit", limit, 1, 1000);
        ChildPage page = Futures.join(flow(queue).getChildren(parentId, after, after == null ? -1 : indexOf(after, queue,
                parentId), limit));
        List<ChildResult> out = new ArrayList<>(page.entries().size());
        long read = -1;
        while (true) {
            for (ChildEntry e : page.entries()) {
                out.add(result(e));
            }
            // Children a REMOVE edge dropped take no place in a page: read on until the page is full
            // or no child follows, so a short page always means the end.
            if (out.size() >= limit || page.last() || page.next() <= read) {
                return out;
            }
            read = page.next();
            page = Futures.join(flow(queue).getChildren(parentId, read, limit - out.size()));
        }
    }

    /**
     * The index of child {@code child} ("<queue>:<id>") among the parent's children, from the
     * child's own par entry (so the page script need not search the children), or -1.
     */
    private long indexOf(String child, String parentQueue, String parentId) {
        int colon = child.indexOf(':');
        if (colon <= 0) {
            return -1;
        }
        String parents = redisson.<String, String>getMap(RedisCalls.map(new KeyScheme(prefix, child.substring(0, colon))
                .job(child.substring(colon + 1)))).get(JobFields.PARENTS);
        if (parents == null) {
            return -1;
        }
        String entry = parentQueue + ":" + parentId + ":";
        for (String line : parents.split("\n")) {
            if (line.startsWith(entry) && line.indexOf(':', entry.length()) < 0) {
                try {
                    return Long.parseLong(line.substring(entry.length()));
                } catch (NumberFormatException e) {
                    return -1;
                }
            }
        }
        return -1;
    }

    /** Every child of a parent, read in pages of {@code pageSize}. */
    public List<ChildResult> allChildren(String queue, String parentId, int pageSize) {
        List<ChildResult> all = new ArrayList<>();
        long start = 0;
        while (true) {
            ChildPage page = Futures.join(flow(queue).getChildren(parentId, start, pageSize));
            for (ChildEntry e : page.entries()) {
                all.add(result(e));
            }
            if (page.last() || page.next() <= start) {
                return all;
            }
            start = page.next();
        }
    }

    /** @return how many children a parent has */
    public int childrenCount(String queue, String parentId) {
        return Futures.join(flow(queue).childrenCount(parentId));
    }

    /** The tree under a job, {@code depth} levels deep, at most {@code maxChildren} children per job. */
    public JobNode flow(String queue, String id, int depth, int maxChildren) {
        List<JobNode> children = new ArrayList<>();
        if (depth > 0) {
            for (ChildResult c : children(queue, id, null, Math.max(1, Math.min(maxChildren, 1000)))) {
                children.add(flow(c.queue(), c.id(), depth - 1, maxChildren));
            }
        }
        return new JobNode(queue, id, children);
    }

    private ChildResult result(ChildEntry e) {
        String child = e.child();
        int colon = child.indexOf(':');
        String queue = child.substring(0, colon);
        String id = child.substring(colon + 1);
        if (e.outcome() != null) {
            // <c|f><length of name>:<name><value>
            String o = e.outcome();
            int colonAt = o.indexOf(':');
            int nameLength = Integer.parseInt(o.substring(1, colonAt));
            String name = o.substring(colonAt + 1, colonAt + 1 + nameLength);
            String value = o.substring(colonAt + 1 + nameLength);
            if (o.charAt(0) == 'c') {
                return new ChildResult(queue, id, name, JobState.COMPLETED, "null".equals(value) ? null : value, null);
            }
            return new ChildResult(queue, id, name, JobState.FAILED, null, value);
        }
        Scripts scripts = queues.computeIfAbsent(queue, q -> new Scripts(redisson, new KeyScheme(prefix, q)));
        JobState state = Futures.join(scripts.getState(id));
        String name = redisson.<String, String>getMap(RedisCalls.map(new KeyScheme(prefix, queue).job(id)))
                .get(JobFields.NAME);
        return new ChildResult(queue, id, name, state, null, null);
    }
}
