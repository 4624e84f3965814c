package io.bullpen.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.redisson.api.RScript.ReturnType;
import org.redisson.api.RedissonClient;

/**
 * The workers' heartbeat scripts of one queue (workerHeartbeat, workerLeft, getWorkers), one
 * method per script. Not API.
 */
public final class WorkerScripts {
    /** The most workers one getWorkers call lists (and the most expired entries it drops). */
    public static final int MAX_LISTED = 1000;

    private final ScriptRunner runner;
    private final ScriptKeys scriptKeys;

    /**
     * @param redisson the client
     * @param keys the queue's keys
     */
    public WorkerScripts(RedissonClient redisson, KeyScheme keys) {
        this.runner = new ScriptRunner(redisson);
        this.scriptKeys = new ScriptKeys(keys);
    }

    /**
     * What a worker says of itself in a heartbeat; the script adds {@code started} and
     * {@code lastSeen} from Redis's clock.
     */
    public record Beat(String name, String host, long pid, int concurrency, int running, boolean paused) {
        String json() {
            ObjectNode node = JsonCodec.mapper().createObjectNode();
            node.put("name", name).put("host", host).put("pid", pid).put("concurrency", concurrency)
                    .put("running", running).put("paused", paused);
            return node.toString();
        }
    }

    /**
     * What a heartbeat answers.
     *
     * @param redisNow Redis's clock in ms (the entry's lastSeen)
     * @param nextLeaseExpiry the earliest lease expiry of the queue's active jobs (ms, Redis's
     *     clock), -1 when none is active
     * @param flowWork the queue's flow work as bits: {@link #RELAY}, {@link #CARRY_ON}, {@link #RECONCILE}
     */
    public record Pulse(long redisNow, long nextLeaseExpiry, int flowWork) {
        /** Child ends wait in the queue's outbox. */
        public static final int RELAY = 1;
        /** A committed flow rooted in the queue is not fully created. */
        public static final int CARRY_ON = 2;
        /** A parent has waited long for its children. */
        public static final int RECONCILE = 4;
    }

    /**
     * workerHeartbeat: stores the worker's entry, alive for {@code ttlMillis}, and reads the
     * earliest lease expiry.
     *
     * @return Redis's clock and the earliest lease expiry
     */
    public CompletionStage<Pulse> heartbeat(Beat beat, long ttlMillis) {
        return heartbeat(beat, ttlMillis, Long.MAX_VALUE / 2, Long.MAX_VALUE / 2);
    }

    /**
     * workerHeartbeat, also asking whether there is flow work.
     *
     * @param carryOnMs a committed flow this old and not fully created is flow work
     * @param reconcileMs a parent that has waited this long for its children is flow work
     */
    public CompletionStage<Pulse> heartbeat(Beat beat, long ttlMillis, long carryOnMs, long reconcileMs) {
        return runner.<List<Object>>run("workerHeartbeat", ReturnType.LIST, scriptKeys.of("workerHeartbeat"), beat.name(),
                beat.json(), Long.toString(ttlMillis), Long.toString(carryOnMs), Long.toString(reconcileMs))
                .thenApply(reply -> new Pulse(((Number) reply.get(0)).longValue(), ((Number) reply.get(1)).longValue(),
                        reply.size() > 2 ? ((Number) reply.get(2)).intValue() : 0));
    }

    /**
     * workerLeft: removes the worker's entry at once.
     *
     * @return whether it was listed
     */
    public CompletionStage<Boolean> left(String name) {
        return runner.<Long>run("workerLeft", ReturnType.LONG, scriptKeys.of("workerLeft"), name)
                .thenApply(r -> r == 1);
    }

    /** getWorkers: drops expired entries, then returns the live ones (JSON) in name order. */
    public CompletionStage<List<String>> getWorkers() {
        return runner.<List<Object>>run("getWorkers", ReturnType.LIST, scriptKeys.of("getWorkers"),
                Integer.toString(MAX_LISTED)).thenApply(reply -> {
                    List<String> out = new ArrayList<>(reply.size());
                    reply.forEach(entry -> out.add(ScriptReplies.str(entry)));
                    return out;
                });
    }
}
