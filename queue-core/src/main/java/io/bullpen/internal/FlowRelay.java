package io.bullpen.internal;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.bullpen.internal.FlowScripts.FlowRecord;
import io.bullpen.internal.FlowScripts.MoreChildren;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import org.redisson.api.BatchOptions;
import org.redisson.api.RBatch;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries flows across slots, idempotently, so any number of runners may do the same work:
 * <ol>
 * <li>materializes a committed flow: its stage ({@code flow:<flowId>} in the root's slot, a LIST
 *     of chunks, each the jobs of one queue, parents before children) is added chunk by chunk with
 *     addFlow (a repeated chunk adds nothing twice: ids are chosen before the stage is written),
 *     then the stage and its entry in {@code flows:pending} are deleted;</li>
 * <li>relays a queue's outbox: each child end bound for a parent in another slot is applied there
 *     with childEnded (idempotent by child) and only then removed from the outbox.</li>
 * </ol>
 * Not API.
 */
public final class FlowRelay {
    private static final Logger log = LoggerFactory.getLogger(FlowRelay.class);
    /** How long a stage lives before its commit: an add that dies before committing leaves nothing behind. */
    public static final long STAGE_TTL_MS = 3_600_000L;
    /** The most levels a relay follows a failure up a flow before leaving the rest to the heartbeat's relays. */
    static final int MAX_CASCADE = 16;

    private final RedissonClient redisson;
    private final String prefix;
    private final Clock clock;
    private final Map<String, FlowScripts> scripts = new ConcurrentHashMap<>();

    /**
     * One chunk of a staged flow: the jobs of one queue, or the next children of one parent of a
     * large fan-out.
     *
     * @param queue the queue
     * @param jobs the jobs, parents before children (empty for a chunk of children)
     * @param more the next children of a parent added by an earlier chunk; null for a chunk of jobs
     */
    public record Chunk(String queue, List<FlowRecord> jobs, MoreChildren more) {

        /** A chunk of jobs. */
        public Chunk(String queue, List<FlowRecord> jobs) {
            this(queue, jobs, null);
        }
    }

    /**
     * @param redisson the client
     * @param prefix the key prefix of the flow's queues
     * @param clock the clock for the scripts' now
     */
    public FlowRelay(RedissonClient redisson, String prefix, Clock clock) {
        this.redisson = redisson;
        this.prefix = Validation.prefix(prefix);
        this.clock = clock;
    }

    /** @return the flow scripts of a queue (cached) */
    public FlowScripts scripts(String queue) {
        return scripts.computeIfAbsent(queue, q -> new FlowScripts(redisson, new KeyScheme(prefix, q)));
    }

    /** Adds one chunk (one queue's jobs, or one parent's next children) directly: one atomic call. */
    public List<ScriptTypes.AddResult> add(Chunk chunk) {
        if (chunk.more() != null) {
            Futures.join(scripts(chunk.queue()).addFlowChildren(chunk.more()));
            return List.of();
        }
        return Futures.join(scripts(chunk.queue()).addFlow(clock.millis(), chunk.jobs()));
    }

    /**
     * Stages the chunks under {@code flowId} in the root queue's slot (expiring unless committed),
     * then commits with one O(1) atomic step: the stage is kept and the flow listed in the root
     * queue's flows:pending. Nothing of the flow is visible to workers until {@link #materialize}.
     * The stage is written one chunk per command (pipelined), so no command copies the whole flow.
     */
    public void stageAndCommit(String rootQueue, String flowId, List<Chunk> chunks) {
        KeyScheme root = new KeyScheme(prefix, rootQueue);
        String stage = root.flowPrefix() + flowId;
        List<Object> encoded = new ArrayList<>(chunks.size());
        for (Chunk c : chunks) {
            encoded.add(JsonCodec.encodeValue(c, "flow chunk"));
        }
        RBatch write = redisson.createBatch(BatchOptions.defaults().retryAttempts(0));
        for (Object chunk : encoded) {
            write.getList(stage, StringCodec.INSTANCE).addAsync(chunk);
        }
        write.getBucket(stage, StringCodec.INSTANCE).expireAsync(java.time.Duration.ofMillis(STAGE_TTL_MS));
        write.execute();
        RBatch commit = redisson.createBatch(BatchOptions.defaults().retryAttempts(0).executionMode(BatchOptions.ExecutionMode.IN_MEMORY_ATOMIC));
        commit.getBucket(stage, StringCodec.INSTANCE).clearExpireAsync();
        commit.getScoredSortedSet(root.flowsPending(), StringCodec.INSTANCE).addAsync(clock.millis(), flowId);
        commit.execute();
    }

    /**
     * Adds a committed flow's chunks in order, each idempotently, then forgets the stage. Safe to
     * run from several processes at once and to repeat after a crash. The stage is read one chunk
     * per command, so no reply holds the whole flow.
     *
     * @return true when the flow is fully added (or was already)
     */
    public boolean materialize(String rootQueue, String flowId) {
        return materialize(rootQueue, flowId, (chunk, results) -> { });
    }

    /**
     * As {@link #materialize(String, String)}, handing each chunk of jobs added here, with its
     * results, to {@code added} (on the calling thread).
     *
     * @return true when the flow is fully added (or was already)
     */
    public boolean materialize(String rootQueue, String flowId,
                               BiConsumer<Chunk, List<ScriptTypes.AddResult>> added) {
        KeyScheme root = new KeyScheme(prefix, rootQueue);
        String stage = root.flowPrefix() + flowId;
        var staged = redisson.<String>getList(RedisCalls.plain(stage));
        int size = staged.size();
        for (int i = 0; i < size; i++) {
            String text = staged.get(i);
            if (text == null) {
                break; // another runner finished the flow and deleted the stage
            }
            JsonNode node = JsonCodec.decode(text, JsonCodec.type(JsonNode.class));
            Chunk chunk = JsonCodec.mapper().convertValue(node, new TypeReference<Chunk>() { });
            List<ScriptTypes.AddResult> results = add(chunk);
            if (!results.isEmpty()) {
                added.accept(chunk, results);
            }
        }
        RBatch done = redisson.createBatch(BatchOptions.defaults().retryAttempts(0).executionMode(BatchOptions.ExecutionMode.IN_MEMORY_ATOMIC));
        done.getScoredSortedSet(root.flowsPending(), StringCodec.INSTANCE).removeAsync(flowId);
        done.getBucket(stage, StringCodec.INSTANCE).unlinkAsync();
        done.execute();
        return true;
    }

    /**
     * Materializes the flows of a root queue committed at least {@code olderThanMs} ago and not yet
     * fully added (their adder died or is slow).
     *
     * @return how many flows were carried on
     */
    public int carryOnFlows(String rootQueue, long olderThanMs, int limit) {
        KeyScheme root = new KeyScheme(prefix, rootQueue);
        var pending = redisson.<String>getScoredSortedSet(RedisCalls.plain(root.flowsPending()))
                .valueRange(Double.NEGATIVE_INFINITY, true, clock.millis() - olderThanMs, true, 0, limit);
        int n = 0;
        for (String flowId : pending) {
            materialize(rootQueue, flowId);
            n++;
        }
        return n;
    }

    /**
     * Applies up to {@code limit} entries of a queue's outbox to their parents, each then removed.
     * A parent that a failed child's end failed tells its own parents in turn, through its own
     * queue's outbox when they are in other slots: those outboxes are relayed next, level by level
     * up the flow (at most {@link #MAX_CASCADE} levels, up to {@code limit} entries each), so a
     * failure climbs a flow over several slots in this call rather than one level per heartbeat
     * of a worker of each queue on the way.
     *
     * @return how many entries of {@code queue}'s own outbox were relayed
     */
    public int relayOutbox(String queue, int limit) {
        Set<String> failedInto = new LinkedHashSet<>();
        int n = relayOwnOutbox(queue, limit, failedInto);
        for (int level = 0; level < MAX_CASCADE && !failedInto.isEmpty(); level++) {
            Set<String> queues = failedInto;
            failedInto = new LinkedHashSet<>();
            for (String parentQueue : queues) {
                relayOwnOutbox(parentQueue, limit, failedInto);
            }
        }
        return n;
    }

    /** One queue's outbox; adds to {@code failedInto} the queues of the parents a failed child's end was applied to. */
    private int relayOwnOutbox(String queue, int limit, Set<String> failedInto) {
        FlowScripts own = scripts(queue);
        List<String> entries = Futures.join(own.outbox(limit));
        int n = 0;
        for (String entry : entries) {
            JsonNode e = JsonCodec.decode(entry, JsonCodec.type(JsonNode.class));
            String parent = e.path("p").asText();
            int colon = parent.indexOf(':');
            String parentQueue = parent.substring(0, colon);
            String parentId = parent.substring(colon + 1);
            long applied = Futures.join(scripts(parentQueue).childEnded(clock.millis(), parentId, e.path("i").asLong(),
                    e.path("c").asText(),
                    e.path("n").asText(), e.path("s").asText(), e.path("v").asText()));
            if (applied < 0) {
                log.debug("Flow relay: parent {} of child {} does not exist; its end is dropped", parent, e.path("c").asText());
            } else if (applied == 1 && "failed".equals(e.path("s").asText())) {
                failedInto.add(parentQueue);
            }
            Futures.join(own.removeFromOutbox(entry));
            n++;
        }
        return n;
    }
}
