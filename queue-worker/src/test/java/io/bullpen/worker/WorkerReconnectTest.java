package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.bullpen.Queue;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.RedisKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.slf4j.LoggerFactory;

/**
 * A job added once Redis is back after a restart starts within 0.5 s, however the restart fell
 * in the idle worker's blocking wait (default 5 s block timeout), and the worker logs one line
 * per outage when it is back.
 *
 * <p>Each round places the restart at a chosen point of the idle worker's current wait (sent as
 * the worker finished the previous job, so "restart into the wait" counts from that job's start)
 * and the add at a chosen time after Redis answers again. The hard case: the restart in the middle of a
 * wait and the add about 4.5 s later, after the worker gave that wait up but while Redis, which
 * received it again on the new connection, still holds it.
 */
@BullpenTest
class WorkerReconnectTest {
    private static final org.slf4j.Logger log = LoggerFactory.getLogger(WorkerReconnectTest.class);
    private static final long LIMIT_MS = 500;
    private static final String WORKER = "reconnect-worker";
    /** After its last job completed, the worker looks at the queue once more, then waits. */
    private static final long SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final Map<String, Long> startedAt = new ConcurrentHashMap<>();
    private final Logger waiterLog = (Logger) LoggerFactory.getLogger(MarkerWaiter.class);
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    @BeforeEach
    void capture() {
        appender.start();
        waiterLog.addAppender(appender);
    }

    @AfterEach
    void release() {
        waiterLog.detachAppender(appender);
    }

    /** Restart points: {kill after the wait was sent, add after Redis is back}, in ms. */
    @Test
    void aJobAddedAfterARestartStartsPromptly(BullpenTestContext ctx) throws Exception {
        restartRounds(ctx, new long[][] {{3_000, 4_500}, {500, 0}, {4_500, 1_000}});
    }

    @Test
    @Tag("chaos")
    void twentyRestartsInARow(BullpenTestContext ctx) throws Exception {
        List<long[]> rounds = new ArrayList<>();
        long[] kills = {300, 800, 1_600, 2_400, 3_200};
        long[] adds = {0, 150, 400, 900};
        for (int i = 0; i < 16; i++) {
            rounds.add(new long[] {kills[i % kills.length], adds[i % adds.length]});
        }
        for (long[] hard : new long[][] {{3_000, 4_500}, {3_500, 4_000}, {2_500, 4_800}, {4_000, 3_500}}) {
            rounds.add(hard);
        }
        restartRounds(ctx, rounds.toArray(long[][]::new));
    }

    private void restartRounds(BullpenTestContext ctx, long[][] rounds) throws Exception {
        assumeTrue(ctx.redis().kind() == RedisKind.PROCESS || ctx.redis().kind() == RedisKind.EMBEDDED,
                "needs a server the test can restart");
        RedissonClient producer = ctx.redis().newClient();
        Queue<String> queue = Queue.builder(producer, ctx.queueName(), String.class).build();
        List<String> report = new ArrayList<>();
        try (Worker<String, Object> worker = Worker.builder(ctx.redis().newClient(), queue.name(), String.class)
                .name(WORKER)
                .processor(c -> {
                    startedAt.putIfAbsent(c.job().data(), System.nanoTime());
                    return null;
                }).build().start()) {
            long previousStart = addAndAwaitStart(queue, "warm-up");
            long idleAt = awaitIdle(queue);
            long worst = 0;
            for (int round = 0; round < rounds.length; round++) {
                long killAfter = rounds[round][0];
                long addAfter = rounds[round][1];
                sleepUntil(Math.max(previousStart + TimeUnit.MILLISECONDS.toNanos(killAfter), idleAt + SETTLE_NANOS));
                ctx.redis().stop();
                ctx.redis().start(); // returns once the server answers PING
                long backAt = System.nanoTime();
                sleepUntil(backAt + TimeUnit.MILLISECONDS.toNanos(addAfter));
                String data = "round-" + round;
                long addedAt = addWhenPossible(queue, data);
                await("round " + round + " job starts").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(2))
                        .until(() -> startedAt.containsKey(data));
                previousStart = startedAt.get(data);
                idleAt = awaitIdle(queue);
                long latency = TimeUnit.NANOSECONDS.toMillis(previousStart - addedAt);
                worst = Math.max(worst, latency);
                report.add(String.format("round %d: restart %d ms into the wait, add %d ms after Redis was back (add took %d ms): "
                                + "started %d ms after the add", round, killAfter, addAfter,
                        TimeUnit.NANOSECONDS.toMillis(addedAt - backAt) - addAfter, latency));
            }
            log.info("after {} restarts the worst time from add to start was {} ms:\n{}", rounds.length, worst,
                    String.join("\n", report));
            assertThat(report).as("every job starts within %d ms of its add", LIMIT_MS)
                    .allSatisfy(line -> assertThat(Long.parseLong(line.replaceAll(".*started (-?\\d+) ms.*", "$1")))
                            .isLessThanOrEqualTo(LIMIT_MS));
            await("one reconnect line per restart").atMost(Duration.ofSeconds(5))
                    .until(() -> reconnectLines() >= rounds.length);
            assertThat(reconnectLines()).as("reconnect lines: %s", appender.list).isEqualTo(rounds.length);
        }
    }

    private long reconnectLines() {
        return appender.list.stream().filter(e -> e.getFormattedMessage().contains("worker " + WORKER + " reconnected"))
                .count();
    }

    /**
     * The restart must find the worker idle, in its wait: a result still on its way to Redis when
     * the connection drops is another case (it holds its slot until the response timeout).
     */
    private static long awaitIdle(Queue<String> queue) {
        await("the job completed").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(2))
                .until(() -> queue.getJobCounts().active() == 0 && queue.getJobCounts().waiting() == 0);
        return System.nanoTime();
    }

    private long addAndAwaitStart(Queue<String> queue, String data) {
        addWhenPossible(queue, data);
        await().atMost(Duration.ofSeconds(10)).until(() -> startedAt.containsKey(data));
        return startedAt.get(data);
    }

    /** Adds the job (retrying while the producer's client reconnects); returns when Redis had it. */
    private static long addWhenPossible(Queue<String> queue, String data) {
        return await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(5)).ignoreExceptions().until(() -> {
            queue.add("after-restart", data);
            return System.nanoTime();
        }, t -> true);
    }

    /** The scenario's timing: the restart and the add happen at chosen points, not when a condition holds. */
    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left = nanoTime - System.nanoTime();
        if (left > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }
}
