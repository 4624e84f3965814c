package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bullpen.events.AddedEvent;
import io.bullpen.events.CompletedEvent;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.Resp;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.RedisKind;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A listener misses nothing still in the stream when its connection drops or Redis restarts. */
@BullpenTest
class QueueEventsResilienceTest {
    private static final Logger log = LoggerFactory.getLogger(QueueEventsResilienceTest.class);
    private static final int JOBS = 1_000;

    /** One completed delivery: the job, when Redis appended it and when it arrived (epoch ms). */
    private record Delivery(String jobId, long appendedAt, long deliveredAt) {
    }

    /**
     * Three kills of every normal connection: two while events stream in (the listener is reading
     * or handing on a batch, the driver is writing), and one while the listener is blocked in
     * XREAD with nothing to read, just before the next 500 jobs are added and completed.
     */
    @Test
    void aCompletedEventForEachOf1000JobsInOrderAcrossKilledConnections(BullpenTestContext ctx) throws Exception {
        assumeTrue(ctx.redis().kind() != RedisKind.EXTERNAL, "kills every client of the server");
        ctx.redis().assumeNotCluster("CLIENT KILL and CLIENT LIST go to one node, not the one owning the queue");
        RedissonClient client = ctx.redis().newClient();
        Queue<String> queue = Queue.builder(client, ctx.queueName(), String.class).build();
        JobDriver driver = new JobDriver(client, queue.name());
        List<Delivery> completed = new CopyOnWriteArrayList<>();
        List<long[]> kills = new ArrayList<>();
        int driverErrors = 0;
        try (QueueEvents events = QueueEvents.builder(client, queue.name()).build()) {
            events.onCompleted(e -> completed.add(new Delivery(e.jobId(), e.time().toEpochMilli(),
                    System.currentTimeMillis()))).start();
            long t0 = System.nanoTime();
            for (int half = 0; half < 2; half++) {
                queue.addBulk(IntStream.range(0, JOBS / 2).mapToObj(i -> JobSpec.of("job", "j" + i)).toList());
                CompletableFuture<Integer> running = CompletableFuture.supplyAsync(() -> driver.completeAll("\"ok\""));
                int killAt = half * JOBS / 2 + 300;
                await().atMost(Duration.ofSeconds(30)).until(() -> completed.size() >= killAt || running.isDone());
                kills.add(kill(ctx, completed));
                driverErrors += running.get(60, TimeUnit.SECONDS);
                if (half == 0) {
                    await().atMost(Duration.ofSeconds(30)).until(() -> completed.size() == JOBS / 2);
                    await().atMost(Duration.ofSeconds(10)).until(() -> blockedReads(ctx) == 1);
                    kills.add(kill(ctx, completed));
                }
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> completed.size() >= JOBS);
            long totalMs = (System.nanoTime() - t0) / 1_000_000;

            List<String> ids = completed.stream().map(Delivery::jobId).toList();
            List<String> expected = IntStream.rangeClosed(1, JOBS).mapToObj(Integer::toString).toList();
            Set<String> distinct = new HashSet<>(ids);
            long missing = expected.stream().filter(id -> !distinct.contains(id)).count();
            StringBuilder report = new StringBuilder();
            for (long[] k : kills) {
                if (k[0] >= completed.size()) {
                    // The driver can finish the whole half before the kill: nothing was streaming any more.
                    report.append(String.format("%n  kill after %d events: %d connections dropped (%d blocked in XREAD);"
                            + " no completed event came after it", k[0], k[1], k[3]));
                    continue;
                }
                Delivery next = completed.get((int) k[0]);
                report.append(String.format("%n  kill after %d events: %d connections dropped (%d blocked in XREAD); the"
                        + " next completed event was appended %d ms after the kill and delivered %d ms after that",
                        k[0], k[1], k[3], next.appendedAt() - k[2], next.deliveredAt() - next.appendedAt()));
            }
            log.info("CLIENT KILL test: {} completed events received for {} jobs in {} ms, {} missing, {} duplicated, "
                    + "in order: {}; driver recovered from {} failed calls{}", ids.size(), JOBS, totalMs, missing,
                    ids.size() - distinct.size(), ids.equals(expected), driverErrors, report);

            assertThat(ids).as("every job once, in order").containsExactlyElementsOf(expected);
            assertThat(kills).hasSize(3).allSatisfy(k -> assertThat(k[1]).as("connections killed").isPositive());
            assertThat(kills.get(1)[3]).as("the second kill hit a blocked XREAD").isEqualTo(1);
            assertThat(events.lastEventId()).isNotNull();
            assertThat(events.isRunning()).isTrue();
        }
    }

    /** CLIENT KILL TYPE normal; returns {events seen before, connections killed, when, blocked XREADs}. */
    private static long[] kill(BullpenTestContext ctx, List<Delivery> completed) throws IOException {
        long blocked = blockedReads(ctx);
        long seen = completed.size();
        long at = System.currentTimeMillis();
        return new long[] {seen, Long.parseLong(Resp.text(ctx.redis().uri(), "CLIENT", "KILL", "TYPE", "normal")), at, blocked};
    }

    private static long blockedReads(BullpenTestContext ctx) throws IOException {
        return Resp.text(ctx.redis().uri(), "CLIENT", "LIST").lines()
                .filter(l -> l.contains("cmd=xread") && l.contains("flags=b")).count();
    }

    @Test
    void keepsListeningAfterRedisRestarts(BullpenTestContext ctx) {
        assumeTrue(ctx.redis().kind() == RedisKind.PROCESS || ctx.redis().kind() == RedisKind.EMBEDDED,
                "needs a server the test can restart");
        RedissonClient client = ctx.redis().newClient();
        Queue<String> queue = Queue.builder(client, ctx.queueName(), String.class).build();
        List<AddedEvent> added = new CopyOnWriteArrayList<>();
        try (QueueEvents events = QueueEvents.builder(client, queue.name()).build().onAdded(added::add).start()) {
            queue.add("before", "x");
            await().atMost(Duration.ofSeconds(10)).until(() -> added.size() == 1);

            for (int round = 1; round <= 2; round++) {
                ctx.redis().stop();
                ctx.redis().start();
                long back = System.nanoTime();
                String name = "after-restart-" + round;
                // The server came back empty: the add may need the client to reconnect first.
                await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() -> queue.add(name, "y") != null);
                await().atMost(Duration.ofSeconds(20)).until(() -> added.stream().anyMatch(e -> e.name().equals(name)));
                log.info("after Redis restart {}: the next added event arrived {} ms after Redis was back", round,
                        (System.nanoTime() - back) / 1_000_000);
            }
            assertThat(added).extracting(AddedEvent::name).containsExactly("before", "after-restart-1", "after-restart-2");
            assertThat(events.isRunning()).isTrue();
        }
    }

    @Test
    void aListenerStartedBeforeTheStreamExistsGetsItsFirstEvents(BullpenTestContext ctx) {
        List<CompletedEvent> completed = new CopyOnWriteArrayList<>();
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        try (QueueEvents events = QueueEvents.builder(ctx.redisson(), queue.name()).build().onCompleted(completed::add)
                .start()) {
            assertThat(events.lastEventId()).isEqualTo("0-0");
            queue.add("job", "x");
            new JobDriver(ctx.redisson(), queue.name()).completeAll("42");
            await().atMost(Duration.ofSeconds(10)).until(() -> completed.size() == 1);
            assertThat(completed.get(0).returnValue(Integer.class)).isEqualTo(42);
        }
    }
}
