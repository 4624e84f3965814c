package io.bullpen;

import com.fasterxml.jackson.databind.JsonNode;
import io.bullpen.internal.JsonCodec;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.RedisCalls;
import io.bullpen.internal.WorkerScripts;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read behind {@link Queue#getWorkers()}: the workers' heartbeats (written by each worker
 * with workerHeartbeat) through getWorkers, which drops expired entries first. Package-private:
 * {@code Queue} is the API.
 */
final class QueueWorkers {
    private static final Logger log = LoggerFactory.getLogger(QueueWorkers.class);

    private final KeyScheme keys;
    private final WorkerScripts scripts;

    QueueWorkers(RedissonClient redisson, KeyScheme keys) {
        this.keys = keys;
        this.scripts = new WorkerScripts(redisson, keys);
    }

    List<WorkerInfo> getWorkers() {
        List<String> entries = RedisCalls.join(keys.queue(), "getWorkers", scripts.getWorkers());
        List<WorkerInfo> out = new ArrayList<>(entries.size());
        for (String entry : entries) {
            try {
                out.add(info(JsonCodec.mapper().readTree(entry)));
            } catch (Exception e) {
                // Written by a worker of another version, or by hand: skip it, list the others.
                log.warn("skipping a worker entry of queue {} that cannot be read: {}", keys.queue(), entry);
            }
        }
        return out;
    }

    private static WorkerInfo info(JsonNode n) {
        return new WorkerInfo(n.path("name").asText(), n.path("host").asText(), n.path("pid").asLong(),
                n.path("concurrency").asInt(), n.path("running").asInt(), n.path("paused").asBoolean(),
                Instant.ofEpochMilli(n.path("started").asLong()), Instant.ofEpochMilli(n.path("lastSeen").asLong()));
    }
}
