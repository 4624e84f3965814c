package io.bullpen.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisNode;
import org.redisson.api.redisnode.RedisNodes;
import org.redisson.config.Config;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks of the server a queue runs on, done once per client (queues, workers and event
 * listeners on one client share it). Warns when the eviction policy lets Redis drop keys under
 * memory pressure: an evicted job hash or state key loses jobs silently. Never fails the caller
 * (managed services often forbid CONFIG). Not API.
 */
public final class RedisChecks {
    private static final Logger log = LoggerFactory.getLogger(RedisChecks.class);
    private static final java.util.Set<RedissonClient> CHECKED =
            java.util.Collections.synchronizedSet(java.util.Collections.newSetFromMap(new java.util.WeakHashMap<>()));

    private RedisChecks() {
    }

    /** Logs a warning per master whose maxmemory-policy is not noeviction (once per client). */
    public static void warnIfEvicting(RedissonClient redisson) {
        if (CHECKED.add(redisson)) {
            check(redisson);
        }
    }

    /**
     * As {@link #warnIfEvicting}, on a short-lived thread of its own (only the first time for a
     * client): for a caller that must not wait on Redis, such as a worker's start, and never on
     * the caller's thread, which may be one of Redisson's I/O threads.
     */
    public static void warnIfEvictingInBackground(RedissonClient redisson) {
        if (CHECKED.add(redisson)) {
            Thread thread = new Thread(() -> check(redisson), "bullpen-redis-check");
            thread.setDaemon(true);
            thread.start();
        }
    }

    private static void check(RedissonClient redisson) {
        try {
            for (RedisNode node : masters(redisson)) {
                String policy = policy(node);
                if (policy != null && !policy.equals("noeviction")) {
                    log.warn("Redis at {} has maxmemory-policy {}: under memory pressure Redis may evict job keys and "
                            + "lose jobs; set maxmemory-policy noeviction", node.getAddr(), policy);
                }
            }
        } catch (RuntimeException e) {
            log.debug("could not read maxmemory-policy", e);
        }
    }

    private static String policy(RedisNode node) {
        try {
            Map<String, String> config = node.getConfig("maxmemory-policy");
            String policy = config.get("maxmemory-policy");
            if (policy != null) {
                return policy;
            }
        } catch (RuntimeException e) {
            log.debug("CONFIG GET refused by {}; trying INFO", node.getAddr(), e);
        }
        return node.info(RedisNode.InfoSection.MEMORY).get("maxmemory_policy");
    }

    private static List<RedisNode> masters(RedissonClient redisson) {
        Config config = redisson.getConfig();
        List<RedisNode> nodes = new ArrayList<>();
        if (config.isClusterConfig()) {
            nodes.addAll(redisson.getRedisNodes(RedisNodes.CLUSTER).getMasters());
        } else if (config.isSentinelConfig()) {
            nodes.add(redisson.getRedisNodes(RedisNodes.SENTINEL_MASTER_SLAVE).getMaster());
        } else if (config.isSingleConfig()) {
            nodes.add(redisson.getRedisNodes(RedisNodes.SINGLE).getInstance());
        } else {
            nodes.add(redisson.getRedisNodes(RedisNodes.MASTER_SLAVE).getMaster());
        }
        return nodes;
    }
}
