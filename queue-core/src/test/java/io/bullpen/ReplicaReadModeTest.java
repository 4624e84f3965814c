package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.TestRedis;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Assumptions;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.redisson.config.ReadMode;

/**
 * With Redisson's default read mode for cluster clients (replicas), Bullpen's read scripts still
 * run on the master: they see the latest state and never fail with NOSCRIPT on a replica. Runs
 * under the {@code cluster} profile only.
 */
@BullpenTest
class ReplicaReadModeTest {

    @Test
    void readsWorkWithAClientThatReadsFromReplicas(BullpenTestContext ctx, TestRedis redis) {
        Assumptions.assumeTrue(redis.isCluster(), "needs a Redis Cluster (mvn -Pcluster)");
        Config config = new Config();
        config.useClusterServers()
                .addNodeAddress(redis.nodeUris().toArray(String[]::new))
                .setReadMode(ReadMode.SLAVE);
        RedissonClient replicaReads = Redisson.create(config);
        try {
            Queue<String> queue = Queue.builder(replicaReads, ctx.queueName(), String.class).build();
            Job<String> job = queue.add("read-me", "payload");
            queue.add("other", "x", JobOptions.builder().delay(java.time.Duration.ofHours(1)).build());

            // Read straight after the write: a replica might not have it yet; the master has.
            assertThat(queue.getJobCounts().waiting()).isEqualTo(1);
            assertThat(queue.getJobCounts().delayed()).isEqualTo(1);
            assertThat(queue.getJob(job.id())).hasValueSatisfying(j -> assertThat(j.data()).isEqualTo("payload"));
            assertThat(queue.getState(job.id())).isEqualTo(JobState.WAITING);
            List<Job<String>> waiting = queue.getJobs(JobState.WAITING, 0, 10);
            assertThat(waiting).extracting(Job::id).containsExactly(job.id());
        } finally {
            replicaReads.shutdown();
        }
    }
}
