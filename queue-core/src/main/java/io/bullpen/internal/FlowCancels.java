package io.bullpen.internal;

import io.bullpen.CancelResult;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.redisson.api.RedissonClient;

/**
 * Cancels the children of a cancelled or removed flow parent, recursively: each pending child
 * that no other live parent waits for (not started: failed as cancelled at once; active: its
 * cancel flag), then its own children. Not atomic across queues: each child is one cancelJob call,
 * and a child that ended meanwhile is left alone. Not API.
 */
public final class FlowCancels {
    private final RedissonClient redisson;
    private final String prefix;
    private final Clock clock;
    private final Map<String, CancelScripts> scripts = new ConcurrentHashMap<>();

    /**
     * A parent's pending children, read before it is removed.
     *
     * @param queue the parent's queue
     * @param parentId the parent
     * @param children the pending children, {@code <queue>:<id>}
     */
    public record Pending(String queue, String parentId, List<String> children) {
    }

    /**
     * @param redisson the client
     * @param prefix the key prefix of the queues
     * @param clock the clock
     */
    public FlowCancels(RedissonClient redisson, String prefix, Clock clock) {
        this.redisson = redisson;
        this.prefix = prefix;
        this.clock = clock;
    }

    /** @return the children a parent still waits for (none for a job that is no flow parent) */
    public Pending pending(String queue, String parentId) {
        KeyScheme k = new KeyScheme(prefix, queue);
        List<Integer> indexes = PendingChildren.indexes(redisson, k.pendingChildren(parentId), Integer.MAX_VALUE);
        List<String> children = new ArrayList<>();
        var kids = redisson.<String>getList(RedisCalls.plain(k.children(parentId)));
        // The children's refs in ranges of 1,000 (a fan-out has 100,000: one read of all would
        // hold Redis for milliseconds), only the ranges that hold pending ones.
        int from = -1;
        List<String> range = List.of();
        for (int i : indexes) {
            if (i >= from + range.size() || i < from) {
                from = i - i % 1000;
                range = kids.range(from, from + 999);
            }
            if (i - from < range.size()) {
                children.add(range.get(i - from));
            }
        }
        return new Pending(queue, parentId, children);
    }

    /**
     * Cancels the pending children of a parent that no other live parent waits for, then theirs.
     *
     * @return how many jobs were cancelled (or flagged, when active)
     */
    public int cancelChildren(Pending parent, String reason) {
        int cancelled = 0;
        for (String child : parent.children()) {
            int colon = child.indexOf(':');
            String queue = child.substring(0, colon);
            String id = child.substring(colon + 1);
            if (anotherParentWaits(queue, id, parent.queue() + ":" + parent.parentId())) {
                continue;
            }
            Pending grandChildren = pending(queue, id);
            CancelResult r = Futures.join(cancelScripts(queue).cancelJob(clock.millis(), id, reason));
            if (r != CancelResult.NOT_FOUND && r != CancelResult.ALREADY_FINISHED) {
                cancelled += 1 + cancelChildren(grandChildren, reason);
            }
        }
        return cancelled;
    }

    /** Whether a parent of the child other than {@code except} still waits for it. */
    private boolean anotherParentWaits(String queue, String id, String except) {
        String parents = redisson.<String, String>getMap(RedisCalls.map(new KeyScheme(prefix, queue).job(id)))
                .get(JobFields.PARENTS);
        if (parents == null) {
            return false;
        }
        for (String line : parents.split("\n")) {
            String[] parts = line.split(":");
            if (parts.length < 3 || (parts[0] + ":" + parts[1]).equals(except)) {
                continue;
            }
            KeyScheme pk = new KeyScheme(prefix, parts[0]);
            boolean waiting = redisson.getScoredSortedSet(RedisCalls.plain(pk.waitingChildren())).contains(parts[1]);
            if (waiting && PendingChildren.isPending(redisson, pk.pendingChildren(parts[1]), Long.parseLong(parts[2]))) {
                return true;
            }
        }
        return false;
    }

    private CancelScripts cancelScripts(String queue) {
        return scripts.computeIfAbsent(queue, q -> new CancelScripts(redisson, new KeyScheme(prefix, q)));
    }
}
