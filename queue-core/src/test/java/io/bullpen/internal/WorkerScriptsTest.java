package io.bullpen.internal;

import static io.bullpen.internal.ScriptFixture.join;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.bullpen.internal.WorkerScripts.Beat;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RMap;
import org.redisson.api.RScoredSortedSet;
import org.redisson.api.redisnode.RedisNode;
import org.redisson.api.redisnode.RedisNodes;
import org.redisson.client.codec.StringCodec;

/** workerHeartbeat, workerLeft and getWorkers: the live-workers list, judged by Redis's clock. */
@BullpenTest
class WorkerScriptsTest {
    private ScriptFixture f;
    private WorkerScripts workers;
    private boolean cluster;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        f = new ScriptFixture(ctx);
        workers = new WorkerScripts(f.redisson, f.k);
        cluster = ctx.redis().isCluster();
    }

    private long redisNow() {
        RedisNode node = cluster
                ? f.redisson.getRedisNodes(RedisNodes.CLUSTER).getMasters().iterator().next()
                : f.redisson.getRedisNodes(RedisNodes.SINGLE).getInstance();
        var t = node.time();
        return t.getSeconds() * 1000L + t.getMicroseconds() / 1000;
    }

    private RMap<String, String> hash() {
        return f.redisson.getMap(f.k.workers(), StringCodec.INSTANCE);
    }

    private RScoredSortedSet<String> seen() {
        return f.redisson.getScoredSortedSet(f.k.workersSeen(), StringCodec.INSTANCE);
    }

    private static JsonNode json(String s) throws Exception {
        return JsonCodec.mapper().readTree(s);
    }

    @Test
    void aHeartbeatStoresTheEntryAndItsExpiryOnRedisClock() throws Exception {
        long before = redisNow();
        long now = join(workers.heartbeat(new Beat("w1", "host-a", 42, 8, 3, false), 90_000)).redisNow();
        long after = redisNow();

        assertThat(now).isBetween(before, after);
        JsonNode entry = json(hash().get("w1"));
        assertThat(entry.path("name").asText()).isEqualTo("w1");
        assertThat(entry.path("host").asText()).isEqualTo("host-a");
        assertThat(entry.path("pid").asLong()).isEqualTo(42);
        assertThat(entry.path("concurrency").asInt()).isEqualTo(8);
        assertThat(entry.path("running").asInt()).isEqualTo(3);
        assertThat(entry.path("paused").asBoolean()).isFalse();
        assertThat(entry.path("started").asLong()).isEqualTo(now);
        assertThat(entry.path("lastSeen").asLong()).isEqualTo(now);
        assertThat(seen().getScore("w1")).isEqualTo((double) (now + 90_000));
    }

    @Test
    void aHeartbeatSaysWhetherThereIsFlowWorkSoThatNoWorkerPollsForIt() throws Exception {
        Beat beat = new Beat("w1", "h", 1, 1, 0, false);
        assertThat(join(workers.heartbeat(beat, 90_000, 5_000, 60_000)).flowWork()).as("none").isZero();

        long now = redisNow();
        f.redisson.getList(RedisCalls.plain(f.k.flowOutbox())).add("{}");
        f.zadd(f.k.flowsPending(), "recent", now);
        f.zadd(f.k.waitingChildren(), "young-parent", now);
        assertThat(join(workers.heartbeat(beat, 90_000, 5_000, 60_000)).flowWork()).as("an entry to relay")
                .isEqualTo(WorkerScripts.Pulse.RELAY);

        f.zadd(f.k.flowsPending(), "old", now - 10_000);
        f.zadd(f.k.waitingChildren(), "old-parent", now - 120_000);
        assertThat(join(workers.heartbeat(beat, 90_000, 5_000, 60_000)).flowWork())
                .isEqualTo(WorkerScripts.Pulse.RELAY | WorkerScripts.Pulse.CARRY_ON | WorkerScripts.Pulse.RECONCILE);
    }

    @Test
    void aLaterHeartbeatKeepsStartedAndMovesLastSeenAndTheExpiry() throws Exception {
        long first = join(workers.heartbeat(new Beat("w1", "h", 1, 2, 0, false), 90_000)).redisNow();
        long second;
        do {
            second = join(workers.heartbeat(new Beat("w1", "h", 1, 2, 1, true), 90_000)).redisNow();
        } while (second == first);

        JsonNode entry = json(hash().get("w1"));
        assertThat(entry.path("started").asLong()).isEqualTo(first);
        assertThat(entry.path("lastSeen").asLong()).isEqualTo(second);
        assertThat(entry.path("running").asInt()).isEqualTo(1);
        assertThat(entry.path("paused").asBoolean()).isTrue();
        assertThat(seen().getScore("w1")).isEqualTo((double) (second + 90_000));
    }

    @Test
    void anExpiredEntryOfTheSameNameIsAnotherLife() throws Exception {
        hash().put("w1", "{\"name\":\"w1\",\"started\":5,\"lastSeen\":5}");
        seen().add(10, "w1");

        long now = join(workers.heartbeat(new Beat("w1", "h", 1, 1, 0, false), 90_000)).redisNow();

        assertThat(json(hash().get("w1")).path("started").asLong()).isEqualTo(now);
    }

    @Test
    void getWorkersListsLiveEntriesInNameOrderAndDeletesExpiredOnes() throws Exception {
        join(workers.heartbeat(new Beat("b", "h", 1, 4, 0, false), 90_000));
        join(workers.heartbeat(new Beat("a", "h", 2, 1, 1, true), 90_000));
        hash().put("dead", "{\"name\":\"dead\"}");
        seen().add(redisNow() - 1, "dead");

        List<String> live = join(workers.getWorkers());

        assertThat(live).hasSize(2);
        assertThat(json(live.get(0)).path("name").asText()).isEqualTo("a");
        assertThat(json(live.get(1)).path("name").asText()).isEqualTo("b");
        assertThat(hash().keySet()).containsExactlyInAnyOrder("a", "b");
        assertThat(seen().readAll()).containsExactlyInAnyOrder("a", "b");
    }

    @Test
    void aHeartbeatAlsoDropsExpiredEntriesOfDeadWorkers() {
        for (int i = 0; i < 15; i++) {
            hash().put("dead-" + i, "{}");
            seen().add(1_000 + i, "dead-" + i);
        }

        join(workers.heartbeat(new Beat("w1", "h", 1, 1, 0, false), 90_000));

        // At most 10 per heartbeat: the oldest expiries go first.
        assertThat(seen().size()).isEqualTo(6);
        assertThat(hash().size()).isEqualTo(6);
        join(workers.heartbeat(new Beat("w1", "h", 1, 1, 0, false), 90_000));
        assertThat(seen().readAll()).containsExactly("w1");
        assertThat(hash().keySet()).containsExactly("w1");
    }

    @Test
    void workerLeftRemovesTheEntryAtOnceAndSaysWhetherItWasListed() {
        join(workers.heartbeat(new Beat("w1", "h", 1, 1, 0, false), 90_000));
        join(workers.heartbeat(new Beat("w2", "h", 1, 1, 0, false), 90_000));

        assertThat(join(workers.left("w1"))).isTrue();
        assertThat(join(workers.left("w1"))).isFalse();

        assertThat(hash().keySet()).containsExactly("w2");
        assertThat(seen().readAll()).containsExactly("w2");
        assertThat(join(workers.getWorkers())).hasSize(1);
    }

    @Test
    void noWorkersIsAnEmptyList() {
        assertThat(join(workers.getWorkers())).isEmpty();
        assertThat(f.redisson.getKeys().countExists(f.k.workers(), f.k.workersSeen())).isZero();
    }

    @Test
    void theKeysCarryTheQueuesHashTag() {
        assertThat(f.k.workers()).isEqualTo(f.k.base() + "workers").contains("{" + f.k.queue() + "}");
        assertThat(f.k.workersSeen()).isEqualTo(f.k.base() + "workers:seen");
    }

    @Test
    void aHeartbeatAnswersTheEarliestLeaseExpiryOrMinusOneWithoutActiveJobs() {
        assertThat(join(workers.heartbeat(new Beat("w1", "h", 1, 1, 0, false), 90_000)).nextLeaseExpiry()).isEqualTo(-1);
        // Lapsed leases, at the scores given: a dead worker's.
        f.job("a").active("a", "w:1", 0, 5_000_000);
        f.job("b").active("b", "w:2", 0, 4_000_000);

        WorkerScripts.Pulse pulse = join(workers.heartbeat(new Beat("w1", "h", 1, 1, 0, false), 90_000));

        assertThat(pulse.nextLeaseExpiry()).isEqualTo(4_000_000);
        assertThat(pulse.redisNow()).isGreaterThan(4_000_000);
    }
}
