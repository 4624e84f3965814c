package io.bullpen.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.opentest4j.TestAbortedException;
import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisClusterMaster;
import org.redisson.api.redisnode.RedisNodes;
import org.redisson.client.codec.StringCodec;

/** The harness on a Redis Cluster: runs only there ({@code -Pcluster} or {@code BULLPEN_TEST_REDIS=cluster}). */
@BullpenTest
class ClusterHarnessTest {

    @BeforeEach
    void onlyOnACluster(TestRedis redis) {
        assumeTrue(redis.isCluster(), "needs a Redis Cluster: mvn -B verify -Pcluster, or BULLPEN_TEST_REDIS=cluster");
    }

    @Test
    void clientsAreClusterClientsSeededWithEveryNode(TestRedis redis, RedissonClient redisson) {
        assertThat(redisson.getConfig().isClusterConfig()).isTrue();
        assertThat(redis.newClient().getConfig().isClusterConfig()).isTrue();
        assertThat(redisson.getRedisNodes(RedisNodes.CLUSTER).getMasters()).hasSizeGreaterThanOrEqualTo(3);
        if (redis.nodeUris().size() == LocalRedisCluster.NODES) {
            // ReadMode.MASTER: Redisson keeps no replica connections, so ask the cluster itself.
            RedisClusterMaster any = redisson.getRedisNodes(RedisNodes.CLUSTER).getMasters().iterator().next();
            assertThat(any.clusterInfo()).containsEntry("cluster_state", "ok")
                    .containsEntry("cluster_known_nodes", Integer.toString(LocalRedisCluster.NODES))
                    .containsEntry("cluster_size", Integer.toString(LocalRedisCluster.MASTERS));
        }
        assertThat(redis.isRunning()).isTrue();
    }

    @Test
    void snapshotsAndInvariantsReadQueuesOnEveryMaster(BullpenTestContext ctx, RedissonClient redisson) {
        Set<String> mastersSeen = new HashSet<>();
        int masters = redisson.getRedisNodes(RedisNodes.CLUSTER).getMasters().size();
        for (int i = 0; i < 200 && mastersSeen.size() < masters; i++) {
            String queue = ctx.newQueueName();
            String base = "bp:{" + queue + "}:";
            redisson.getList(base + "wait", StringCodec.INSTANCE).add("1");
            redisson.getMap(base + "job:1", StringCodec.INSTANCE).put("name", "n" + i);
            QueueSnapshot snapshot = ctx.snapshot(queue);
            assertThat(snapshot.keys()).containsExactlyInAnyOrder("wait", "job:1");
            assertThat(snapshot.job("1")).containsEntry("name", "n" + i);
            ctx.assertInvariant(queue);
            int slot = redisson.getKeys().getSlot(base + "wait");
            for (RedisClusterMaster master : redisson.getRedisNodes(RedisNodes.CLUSTER).getMasters()) {
                if (master.clusterCountKeysInSlot(slot) > 0) {
                    mastersSeen.add(master.getAddr().toString());
                }
            }
        }
        assertThat(mastersSeen).as("queues read on each master").hasSize(masters);
    }

    @Test
    void serverLifecycleIsRefusedAndSingleServerTestsSkip(TestRedis redis) {
        assertThatThrownBy(redis::stop).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("CLUSTER");
        assertThatThrownBy(() -> redis.assumeNotCluster("CONFIG SET on one server"))
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("skipped on a Redis Cluster: CONFIG SET on one server");
    }

    @Test
    void eachClassStartsFromEmptyMastersOfTheSameCluster() {
        assumeTrue(RedisLauncher.setting(RedisLauncher.CLUSTER_URL_VARIABLE) == null,
                "only the harness's own cluster is flushed between classes, not REDIS_CLUSTER_URL");
        Writer.SEEN.clear();
        Reader.SEEN.clear();

        assertThat(run(Writer.class).getTestsSucceededCount()).isEqualTo(1);
        TestExecutionSummary reader = run(Reader.class);

        assertThat(reader.getTotalFailureCount()).as("%s", reader.getFailures().stream()
                .map(f -> f.getException().toString()).toList()).isZero();
        assertThat(reader.getTestsSucceededCount()).isEqualTo(1);
        assertThat(Reader.SEEN.get(0).nodeUris()).as("the same cluster").isEqualTo(Writer.SEEN.get(0).nodeUris());
    }

    private static TestExecutionSummary run(Class<?> testClass) {
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(testClass)).build(), listener);
        return listener.getSummary();
    }

    /** A class that leaves a key behind on the cluster; static nested, so surefire never runs it alone. */
    @BullpenTest
    static class Writer {
        static final List<TestRedis> SEEN = new ArrayList<>();

        @Test
        void write(TestRedis redis, RedissonClient redisson) {
            SEEN.add(redis);
            redisson.getBucket("bp:{left-behind}:id", StringCodec.INSTANCE).set("7");
        }
    }

    /** The next class: must not see the key. */
    @BullpenTest
    static class Reader {
        static final List<TestRedis> SEEN = new ArrayList<>();

        @Test
        void read(TestRedis redis, RedissonClient redisson) {
            SEEN.add(redis);
            assertThat(redisson.getBucket("bp:{left-behind}:id", StringCodec.INSTANCE).isExists()).isFalse();
            assertThat(redisson.getKeys().count()).as("keys on all masters").isZero();
        }
    }
}
