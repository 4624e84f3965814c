package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.TestRedis;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Durable adds: an add completes only once replicas acknowledged it (WAIT on the same connection). */
@BullpenTest
class DurableAddTest {

    @Test
    void withoutEnoughReplicasTheAddThrowsAndTheJobIsOnTheMasterOnly(BullpenTestContext ctx, TestRedis redis) {
        Assumptions.assumeFalse(redis.isCluster(), "a standalone server has no replicas");
        // A fresh script cache: the first durable add also goes through the NOSCRIPT reload.
        ctx.redisson().getScript().scriptFlush();
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class)
                .durableAdds(1, Duration.ofMillis(200)).build();

        assertThatThrownBy(() -> queue.add("report", "x", JobOptions.builder().jobId("order-1").build()))
                .isInstanceOfSatisfying(NotReplicatedException.class, e -> {
                    assertThat(e.required()).isEqualTo(1);
                    assertThat(e.timeout()).isEqualTo(Duration.ofMillis(200));
                    assertThat(e.getMessage()).contains(queue.name(), "1 replica(s)", "200 ms", "same custom job ids");
                });

        assertThat(queue.getJobCounts().waiting()).as("applied on the master").isEqualTo(1);
        assertThat(queue.getJob("order-1")).isPresent();
        // Adding again with the same id is idempotent (and still not replicated here).
        assertThatThrownBy(() -> queue.add("report", "x", JobOptions.builder().jobId("order-1").build()))
                .isInstanceOf(NotReplicatedException.class);
        assertThat(queue.getJobCounts().waiting()).isEqualTo(1);
    }

    @Test
    void onAClusterTheAddWaitsForTheMastersReplica(BullpenTestContext ctx, TestRedis redis) {
        Assumptions.assumeTrue(redis.isCluster(), "needs a Redis Cluster with replicas (mvn -Pcluster)");
        Queue<String> durable = Queue.builder(ctx.redisson(), ctx.queueName(), String.class)
                .durableAdds(1, Duration.ofSeconds(5)).build();

        Job<String> one = durable.add("a", "1");
        List<Job<String>> bulk = durable.addBulk(List.of(JobSpec.of("b", "2"), JobSpec.of("c", "3")));

        assertThat(durable.getJob(one.id())).isPresent();
        assertThat(bulk).hasSize(2);
        assertThat(durable.getJobCounts().waiting()).isEqualTo(3);

        // Each master has one replica: asking for two cannot succeed.
        Queue<String> tooMany = Queue.builder(ctx.redisson(), ctx.queueName(), String.class)
                .durableAdds(2, Duration.ofMillis(300)).build();
        assertThatThrownBy(() -> tooMany.add("d", "4")).isInstanceOf(NotReplicatedException.class);
    }

    @Test
    void badSettingsAreRejectedWithTheirValue(BullpenTestContext ctx) {
        Queue.Builder<String> b = Queue.builder(ctx.redisson(), ctx.queueName(), String.class);
        assertThatThrownBy(() -> b.durableAdds(0, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0");
        assertThatThrownBy(() -> b.durableAdds(1, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PT0S");
        assertThatThrownBy(() -> b.durableAdds(1, Duration.ofMillis(-5)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-0.005");
    }
}
