package io.bullpen.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.redisson.api.BatchOptions;
import org.redisson.api.BatchResult;
import org.redisson.api.RBatch;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * Reads where a job sits in the flows it belongs to: its ancestors, by following the {@code par}
 * fields upward, one batched read per level (the levels may be in any slots). Used to refuse, before
 * anything is written, an add that would make a job a child of its own descendant. Not API.
 */
public final class FlowAncestry {
    /** The most ancestors read: a larger flow above one job is not expected. */
    static final int MAX_ANCESTORS = 100_000;

    private final RedissonClient redisson;
    private final String prefix;

    /**
     * @param redisson the client
     * @param prefix the key prefix of the flows' queues
     */
    public FlowAncestry(RedissonClient redisson, String prefix) {
        this.redisson = redisson;
        this.prefix = Validation.prefix(prefix);
    }

    /**
     * The job and its ancestors, each with the path that reaches it.
     *
     * @param queue the job's queue
     * @param jobId the job
     * @return "<queue>:<id>" of the job and of every ancestor, mapped to the path from the
     *     ancestor down to the job ("a -> b -> job"), the job first
     */
    public Map<String, String> ancestors(String queue, String jobId) {
        String self = queue + ":" + jobId;
        Map<String, String> paths = new LinkedHashMap<>();
        paths.put(self, self);
        List<String> level = List.of(self);
        while (!level.isEmpty() && paths.size() < MAX_ANCESTORS) {
            RBatch batch = redisson.createBatch(BatchOptions.defaults());
            for (String ref : level) {
                int colon = ref.indexOf(':');
                String key = new KeyScheme(prefix, ref.substring(0, colon)).job(ref.substring(colon + 1));
                batch.getMap(key, StringCodec.INSTANCE).getAsync(JobFields.PARENTS);
            }
            BatchResult<?> reply = batch.execute();
            List<String> next = new ArrayList<>();
            for (int i = 0; i < level.size(); i++) {
                Object par = reply.getResponses().get(i);
                if (par == null) {
                    continue;
                }
                for (String line : par.toString().split("\n")) {
                    int last = line.lastIndexOf(':');
                    if (last <= 0) {
                        continue;
                    }
                    String parent = line.substring(0, last);
                    if (!paths.containsKey(parent)) {
                        paths.put(parent, parent + " -> " + paths.get(level.get(i)));
                        next.add(parent);
                    }
                }
            }
            level = next;
        }
        return paths;
    }

    /**
     * Refuses children that would make a cycle under {@code parent}: one of them (or one of their
     * descendants) is the parent itself or one of its ancestors.
     *
     * @param parentQueue the parent's queue
     * @param parentId the parent
     * @param childRefs "<queue>:<id>" of the jobs to add below the parent that may exist already
     * @throws IllegalArgumentException naming the job and the path, before anything is written
     */
    public void refuseCycles(String parentQueue, String parentId, Set<String> childRefs) {
        if (childRefs.isEmpty()) {
            return;
        }
        Map<String, String> above = ancestors(parentQueue, parentId);
        for (String ref : childRefs) {
            String path = above.get(ref);
            if (path != null) {
                throw new IllegalArgumentException("adding job " + ref + " below job " + parentQueue + ":" + parentId
                        + " would make a cycle: " + ref + " is " + (path.equals(ref) ? "that job itself"
                        : "its ancestor (" + path + ")"));
            }
        }
    }
}
