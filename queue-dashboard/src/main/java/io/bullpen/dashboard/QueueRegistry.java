package io.bullpen.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import io.bullpen.Queue;
import io.bullpen.internal.FlowReads;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.redisson.api.RedissonClient;

/**
 * The queues the dashboard shows: those in Bullpen's registry ({@link Queue#listQueues}) under
 * the configured prefix, limited to the configured names when there are any. Each queue is
 * built once, with {@link JsonNode} data so jobs of any type read.
 */
final class QueueRegistry {
    private final RedissonClient redisson;
    private final String prefix;
    private final Set<String> only;
    private final Map<String, Queue<JsonNode>> queues = new ConcurrentHashMap<>();
    private final FlowReads flowReads;

    /**
     * @param only the queue names to show, or null for every registered queue
     */
    QueueRegistry(RedissonClient redisson, String prefix, Set<String> only) {
        this.redisson = redisson;
        this.prefix = prefix;
        this.only = only == null ? null : Set.copyOf(only);
        this.flowReads = new FlowReads(redisson, prefix);
    }

    /** @return the names of the queues shown, sorted (reads the registry: one Redis call) */
    List<String> names() {
        return Queue.listQueues(redisson, prefix).stream()
                .filter(name -> only == null || only.contains(name))
                .sorted()
                .toList();
    }

    /**
     * @param name a queue name from a request
     * @return the queue
     * @throws HttpError 404 when the queue is not registered or not among the configured ones
     */
    Queue<JsonNode> require(String name) {
        if ((only != null && !only.contains(name)) || !Queue.listQueues(redisson, prefix).contains(name)) {
            throw HttpError.notFound("queue \"" + name + "\" not found");
        }
        return queue(name);
    }

    /**
     * @return whether a queue name is one this dashboard shows (a snapshot of the registry: one
     *     Redis call), for links to jobs of other queues (a flow's parents and children)
     */
    Predicate<String> shown() {
        Set<String> names = Set.copyOf(names());
        return names::contains;
    }

    /** @return the reads of flows (a parent's children count) */
    FlowReads flowReads() {
        return flowReads;
    }

    /** @return the (cached) queue of a registered name */
    Queue<JsonNode> queue(String name) {
        return queues.computeIfAbsent(name, n -> Queue.builder(redisson, n, JsonNode.class).prefix(prefix).build());
    }
}
