package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.RedisKind;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisException;

/**
 * With Redis down, every Queue call fails at once with a {@link QueueUnavailableException} that
 * names the queue and the operation and keeps the client's exception as its cause; the first call
 * on a new Queue too (its registration used to sit through Redisson's retries for 5-6 s).
 */
@BullpenTest
class QueueUnavailableTest {
    record Order(String id) {
    }

    /** Measured: 5-125 ms per call here; Redisson's retry path took 4.5-6.6 s. */
    private static final Duration AT_ONCE = Duration.ofSeconds(2);

    private BullpenTestContext ctx;
    private RedissonClient client;
    private Queue<Order> orders;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        assumeTrue(ctx.redis().kind() == RedisKind.PROCESS || ctx.redis().kind() == RedisKind.EMBEDDED,
                "stops the server");
        this.ctx = ctx;
        this.client = ctx.redis().newClient();
        this.orders = Queue.builder(client, ctx.queueName(), Order.class).build();
    }

    private Map<String, ThrowingCallable> everyCall() {
        Map<String, ThrowingCallable> calls = new LinkedHashMap<>();
        calls.put("add", () -> orders.add("charge", new Order("A-1")));
        calls.put("addBulk", () -> orders.addBulk(List.of(JobSpec.of("charge", new Order("A-2")))));
        calls.put("getJob", () -> orders.getJob("1"));
        calls.put("getJobCounts", () -> orders.getJobCounts());
        calls.put("getJobs", () -> orders.getJobs(JobState.WAITING, 0, -1));
        calls.put("getState", () -> orders.getState("1"));
        calls.put("isPaused", () -> orders.isPaused());
        calls.put("pause", () -> orders.pause());
        calls.put("resume", () -> orders.resume());
        calls.put("promote", () -> orders.promote("1"));
        calls.put("retry", () -> orders.retry("1"));
        calls.put("remove", () -> orders.remove("1"));
        calls.put("upsertJobScheduler", () -> orders.upsertJobScheduler("hourly", Repeat.every(Duration.ofHours(1)),
                JobTemplate.of("report", new Order("r"))));
        calls.put("getJobSchedulers", () -> orders.getJobSchedulers());
        calls.put("removeJobScheduler", () -> orders.removeJobScheduler("hourly"));
        calls.put("clean", () -> orders.clean(Duration.ZERO, 0, JobState.COMPLETED));
        calls.put("drain", () -> orders.drain(true));
        calls.put("obliterate", () -> orders.obliterate(false));
        calls.put("retryJobs", () -> orders.retryJobs(JobState.FAILED));
        calls.put("promoteJobs", () -> orders.promoteJobs());
        calls.put("getJobLogs", () -> orders.getJobLogs("1"));
        calls.put("getMetrics", () -> orders.getMetrics(MetricsType.COMPLETED, 60));
        return calls;
    }

    private static Throwable timed(String operation, ThrowingCallable call) {
        long t0 = System.nanoTime();
        Throwable thrown = catchThrowable(call);
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        assertThat(took).as("%s took %s", operation, took).isLessThan(AT_ONCE);
        return thrown;
    }

    private void assertUnavailable(Throwable thrown, String operation) {
        assertThat(thrown).as(operation).isInstanceOfSatisfying(QueueUnavailableException.class, e -> {
            assertThat(e.queue()).isEqualTo(orders.name());
            assertThat(e.operation()).isEqualTo(operation);
            // Refused at connect, or a pooled connection found closed when written to.
            assertThat(e).hasMessageStartingWith("queue " + orders.name() + ": " + operation + " failed: Redis unavailable (")
                    .hasCauseInstanceOf(RedisException.class).hasMessageNotContaining("\n");
            assertThat(e.getMessage()).hasSizeLessThan(300);
        });
    }

    @Test
    void everyCallThrowsAtOnceNamingTheQueueAndTheOperationTheFirstOneOnANewQueueIncluded() {
        ctx.redis().stop();

        for (int round = 0; round < 2; round++) {
            for (Map.Entry<String, ThrowingCallable> call : everyCall().entrySet()) {
                assertUnavailable(timed(call.getKey(), call.getValue()), call.getKey());
            }
        }
        Throwable listing = timed("listQueues", () -> Queue.listQueues(client));
        assertThat(listing).isInstanceOfSatisfying(QueueUnavailableException.class, e -> assertThat(e)
                .hasMessageStartingWith("listQueues failed: Redis unavailable (").extracting(QueueUnavailableException::queue)
                .isNull());
    }

    @Test
    void addAsyncFailsItsStageAndDoesNotThrow() {
        ctx.redis().stop();

        CompletableFuture<Job<Order>> added = orders.addAsync("charge", new Order("A-1"), JobOptions.defaults())
                .toCompletableFuture();

        assertUnavailable(timed("add", () -> added.join()).getCause(), "add");
    }

    @Test
    void aQueueFirstUsedWhileRedisWasDownRegistersOnceItIsBack() {
        ctx.redis().stop();
        assertUnavailable(timed("add", () -> orders.add("charge", new Order("A-1"))), "add");

        ctx.redis().start();

        assertThat(orders.add("charge", new Order("A-1")).id()).isEqualTo("1");
        assertThat(Queue.listQueues(client)).contains(orders.name());
    }
}
