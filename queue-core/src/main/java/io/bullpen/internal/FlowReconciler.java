package io.bullpen.internal;

import io.bullpen.JobState;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds parents of one queue that still wait for children that have in fact ended (their end was
 * lost: a crash between a finish and its relay, a failover that lost acknowledged writes) or no
 * longer exist (removed by hand or lost: they count as failed with reason {@code removed}; the
 * flows committed in the queue and not yet created, such as children a processor added, are
 * created first), and
 * applies those ends with childEnded, which moves the parent on. Idempotent and leader-free: any
 * number of workers may run it at once. Each repair is logged at WARN naming the queue and job.
 * Not API.
 */
public final class FlowReconciler {
    private static final Logger log = LoggerFactory.getLogger(FlowReconciler.class);
    /** Pending children examined per parent per pass. */
    private static final int CHILDREN_PER_PARENT = 1000;

    private final RedissonClient redisson;
    private final String prefix;
    private final Clock clock;
    private final FlowRelay relay;
    private final Map<String, Scripts> queues = new ConcurrentHashMap<>();

    /**
     * @param redisson the client
     * @param prefix the key prefix of the queues
     * @param clock the clock
     */
    public FlowReconciler(RedissonClient redisson, String prefix, Clock clock) {
        this.redisson = redisson;
        this.prefix = prefix;
        this.clock = clock;
        this.relay = new FlowRelay(redisson, prefix, clock);
    }

    /**
     * One pass over the parents of {@code queue} that have waited at least {@code graceMs}.
     *
     * @param limit the most parents examined
     * @return the repairs made, one line each ("<queue>:<parent> <- <child> <state>")
     */
    public List<String> reconcile(String queue, long graceMs, int limit) {
        KeyScheme k = new KeyScheme(prefix, queue);
        Collection<String> parents = redisson.<String>getScoredSortedSet(RedisCalls.plain(k.waitingChildren()))
                .valueRange(Double.NEGATIVE_INFINITY, true, clock.millis() - graceMs, true, 0, limit);
        List<String> repaired = new ArrayList<>();
        boolean carriedOn = false;
        for (String parentId : parents) {
            List<Integer> pending = PendingChildren.indexes(redisson, k.pendingChildren(parentId), CHILDREN_PER_PARENT,
                    // From a random place: a parent with more pending children than one pass examines
                    // gets each of them examined in time.
                    ThreadLocalRandom.current().nextInt(Integer.MAX_VALUE));
            var kids = redisson.<String>getList(RedisCalls.plain(k.children(parentId)));
            for (int index : pending) {
                String child = kids.get(index);
                if (child == null) {
                    continue;
                }
                int colon = child.indexOf(':');
                String childQueue = child.substring(0, colon);
                String childId = child.substring(colon + 1);
                KeyScheme ck = new KeyScheme(prefix, childQueue);
                JobState state = Futures.join(scripts(childQueue).getState(childId));
                if (state == JobState.UNKNOWN && !carriedOn) {
                    // Not created yet, perhaps: children a processor added are staged in its own
                    // queue's flows:pending until the relay creates them. Create those first.
                    carriedOn = true;
                    if (relay.carryOnFlows(queue, 0, 100) > 0) {
                        state = Futures.join(scripts(childQueue).getState(childId));
                    }
                }
                String value;
                String endedAs;
                if (state == JobState.COMPLETED) {
                    endedAs = "completed";
                    value = redisson.<String, String>getMap(RedisCalls.map(ck.job(childId))).get(JobFields.RETURN_VALUE);
                    value = value == null ? "null" : value;
                } else if (state == JobState.FAILED) {
                    endedAs = "failed";
                    value = redisson.<String, String>getMap(RedisCalls.map(ck.job(childId))).get(JobFields.FAILED_REASON);
                    value = value == null ? "failed" : value;
                } else if (state == JobState.UNKNOWN) {
                    endedAs = "failed";
                    value = "removed";
                } else {
                    continue;
                }
                String name = redisson.<String, String>getMap(RedisCalls.map(ck.job(childId))).get(JobFields.NAME);
                long applied = Futures.join(relay.scripts(queue).childEnded(clock.millis(), parentId, index, child,
                        name == null ? "" : name, endedAs, value));
                if (applied == 1) {
                    String line = queue + ":" + parentId + " <- " + child + " " + ("removed".equals(value)
                            && state == JobState.UNKNOWN ? "removed" : endedAs);
                    log.warn("Flow reconciler: parent job {} of queue {} was still waiting for child {}, which had "
                            + "{}; applied its end", parentId, queue, child, state == JobState.UNKNOWN ? "gone" : endedAs);
                    repaired.add(line);
                }
            }
        }
        return repaired;
    }

    private Scripts scripts(String queue) {
        return queues.computeIfAbsent(queue, q -> new Scripts(redisson, new KeyScheme(prefix, q)));
    }
}
