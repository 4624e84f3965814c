package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.Resp;
import io.bullpen.testing.TestRedis;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Durable adds: an add completes only once replicas acknowledged it (WAIT on the same connection);
 * with too few replicas connected it fails at once and writes nothing.
 */
@BullpenTest
class DurableAddTest {

    @Test
    void withNoReplicaConnectedTheAddFailsAtOnceAndWritesNothing(BullpenTestContext ctx, TestRedis redis) {
        Assumptions.assumeFalse(redis.isCluster(), "a standalone server has no replicas");
        // A fresh script cache: the replica count goes through the NOSCRIPT reload too.
        ctx.redisson().getScript().scriptFlush();
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class)
                .durableAdds(1, Duration.ofSeconds(5)).build();

        for (int i = 0; i < 2; i++) {
            long began = System.nanoTime();
            Throwable thrown = catchThrowable(() -> queue.add("report", "x", JobOptions.builder().jobId("order-1").build()));
            Duration took = Duration.ofNanos(System.nanoTime() - began);
            assertThat(thrown).isInstanceOfSatisfying(NotReplicatedException.class, e -> {
                assertThat(e.written()).isFalse();
                assertThat(e.required()).isEqualTo(1);
                assertThat(e.getMessage()).contains(queue.name(), "no replica is connected", "nothing was added");
            });
            assertThat(took).as("without waiting out the 5 s timeout").isLessThan(Duration.ofSeconds(2));
        }
        assertThatThrownBy(() -> queue.addBulk(List.of(JobSpec.of("a", "1"), JobSpec.of("b", "2"))))
                .isInstanceOfSatisfying(NotReplicatedException.class, e -> assertThat(e.written()).isFalse());

        assertThat(queue.getJob("order-1")).isEmpty();
        assertThat(queue.getJobCounts().waiting()).isZero();
    }

    @Test
    void whenTheReplicaDoesNotAcknowledgeInTimeTheAddThrowsWithTheJobOnTheMaster(BullpenTestContext ctx,
            TestRedis redis) throws Exception {
        Assumptions.assumeFalse(redis.isCluster(), "starts a replica of one server");
        Assumptions.assumeTrue(Files.isExecutable(Path.of(REDIS_SERVER)), "needs " + REDIS_SERVER);
        Resp.text(redis.uri(), "CONFIG", "SET", "repl-diskless-sync-delay", "0");
        Path dir = Files.createTempDirectory("replica");
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Process replica = new ProcessBuilder(REDIS_SERVER, "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString(),
                "--replicaof", redis.host(), Integer.toString(redis.port()))
                .redirectErrorStream(true).redirectOutput(dir.resolve("replica.log").toFile()).start();
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> info(redis.host(), port).contains("master_link_status:up"));
            Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class)
                    .durableAdds(1, Duration.ofMillis(300)).build();
            assertThat(queue.add("report", "x", JobOptions.builder().jobId("order-0").build()).id()).isEqualTo("order-0");

            signal(replica, "STOP");
            try {
                assertThatThrownBy(() -> queue.add("report", "x", JobOptions.builder().jobId("order-1").build()))
                        .isInstanceOfSatisfying(NotReplicatedException.class, e -> {
                            assertThat(e.written()).isTrue();
                            assertThat(e.timeout()).isEqualTo(Duration.ofMillis(300));
                            assertThat(e.getMessage()).contains(queue.name(), "written on the master", "1 replica(s)",
                                    "300 ms", "same custom job ids");
                        });
                assertThat(queue.getJob("order-1")).as("applied on the master").isPresent();
                // Adding again with the same id is idempotent (and still not acknowledged here).
                assertThatThrownBy(() -> queue.add("report", "x", JobOptions.builder().jobId("order-1").build()))
                        .isInstanceOfSatisfying(NotReplicatedException.class, e -> assertThat(e.written()).isTrue());
                assertThat(queue.getJobCounts().waiting()).isEqualTo(2);
            } finally {
                signal(replica, "CONT");
            }
        } finally {
            replica.destroy();
            replica.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static final String REDIS_SERVER = "/usr/bin/redis-server";

    private static String info(String host, int port) {
        try {
            return Resp.text(host, port, "INFO", "replication");
        } catch (Exception e) {
            return "";
        }
    }

    private static void signal(Process process, String signal) throws Exception {
        new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start().waitFor();
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
