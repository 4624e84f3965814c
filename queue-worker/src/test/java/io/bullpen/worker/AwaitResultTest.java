package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobFailedException;
import io.bullpen.JobNotFoundException;
import io.bullpen.JobOptions;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.Retention;
import io.bullpen.UnrecoverableJobException;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/** Queue.awaitResult and addAndAwait against real workers: results, failures, timeouts, and never a missed result. */
@BullpenTest
class AwaitResultTest {
    record Sum(int a, int b) {
    }

    private static final Duration LONG = Duration.ofSeconds(30);
    private static final JobOptions DEFAULTS = JobOptions.defaults();

    private BullpenTestContext ctx;
    private RedissonClient redisson;
    private Queue<Sum> queue;
    private final List<Worker<?, ?>> workers = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.ctx = ctx;
        this.redisson = ctx.redisson();
        this.queue = Queue.builder(redisson, ctx.queueName(), Sum.class).build();
    }

    @AfterEach
    void tearDown() {
        workers.forEach(w -> w.close(Duration.ofSeconds(5)));
    }

    private <R> Worker<Sum, R> start(io.bullpen.worker.JobProcessor<Sum, R> processor) {
        Worker<Sum, R> w = Worker.builder(redisson, queue.name(), Sum.class).processor(processor).concurrency(20).build();
        workers.add(w);
        return w.start();
    }

    private static Throwable failure(CompletableFuture<?> f) {
        try {
            f.get(60, TimeUnit.SECONDS);
            throw new AssertionError("completed normally");
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (InterruptedException | TimeoutException e) {
            throw new AssertionError(e);
        }
    }

    private String metaKey() {
        return queue.prefix() + ":{" + queue.name() + "}:meta";
    }

    @Test
    void addAndAwaitCompletesWithTheReturnValue() throws Exception {
        start(ctx -> ctx.job().data().a() + ctx.job().data().b());

        assertThat(queue.addAndAwait("sum", new Sum(2, 3), DEFAULTS, Integer.class, LONG).get(30, TimeUnit.SECONDS)).isEqualTo(5);
    }

    @Test
    void aJobThatFailsForGoodCompletesWithJobFailedExceptionAndItsReason() {
        start(ctx -> {
            throw new IllegalStateException("no sums today");
        });

        Throwable t = failure(queue.addAndAwait("sum", new Sum(1, 1),
                JobOptions.builder().attempts(2).build(), Integer.class, LONG));

        assertThat(t).isInstanceOf(JobFailedException.class);
        JobFailedException failed = (JobFailedException) t;
        assertThat(failed.failedReason()).contains("no sums today");
        assertThat(failed.cancelled()).isFalse();
        assertThat(failed.jobId()).isNotBlank();
    }

    @Test
    void aFailedReasonStartingWithCancelledMeansCancelled() {
        start(ctx -> {
            throw new UnrecoverableJobException("cancelled: by the customer");
        });

        Throwable t = failure(queue.addAndAwait("sum", new Sum(1, 1), DEFAULTS, Integer.class, LONG));

        assertThat(((JobFailedException) t).cancelled()).isTrue();
    }

    @Test
    void anAwaitWithoutAWorkerTimesOut() {
        Job<Sum> job = queue.add("sum", new Sum(1, 2));

        assertThat(failure(queue.awaitResult(job.id(), Integer.class, Duration.ofMillis(200))))
                .isInstanceOf(TimeoutException.class).hasMessageContaining(job.id());
    }

    @Test
    void anUnknownJobFailsWithJobNotFound() {
        assertThat(failure(queue.awaitResult("no-such-job", Integer.class, LONG))).isInstanceOf(JobNotFoundException.class);
    }

    @Test
    void badArgumentsAreRejectedBeforeAnything() {
        assertThatThrownBy(() -> queue.awaitResult(" ", Integer.class, LONG)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\" \"");
        assertThatThrownBy(() -> queue.awaitResult("1", Integer.class, Duration.ofMillis(-5)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-0.005");
        assertThatThrownBy(() -> queue.addAndAwait("sum", new Sum(1, 1), DEFAULTS, Integer.class, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(queue.getJobCounts().waiting()).isZero();
    }

    @Test
    void aJobThatFinishedBeforeTheAwaitAnswersAtOnce() throws Exception {
        start(ctx -> ctx.job().data().a() * 10);
        Job<Sum> job = queue.add("sum", new Sum(4, 0));
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.getState(job.id()) == JobState.COMPLETED);

        assertThat(queue.awaitResult(job.id(), Integer.class, LONG).get(10, TimeUnit.SECONDS)).isEqualTo(40);
    }

    @Test
    void removeOnCompleteStillDeliversTheResultAlsoToALaterAwait() throws Exception {
        start(ctx -> ctx.job().data().a() + 1);
        JobOptions gone = JobOptions.builder().removeOnComplete(Retention.keepNone()).build();

        assertThat(queue.addAndAwait("sum", new Sum(1, 0), gone, Integer.class, LONG).get(30, TimeUnit.SECONDS)).isEqualTo(2);

        // Awaited before the worker took it (the queue paused until the await is marked), then
        // removed at the finish: the kept result answers.
        queue.pause();
        Job<Sum> job = queue.add("sum", new Sum(8, 0), gone);
        CompletableFuture<Integer> first = queue.awaitResult(job.id(), Integer.class, LONG);
        String jobKey = queue.prefix() + ":{" + queue.name() + "}:job:" + job.id();
        await().atMost(Duration.ofSeconds(10)).until(() -> redisson.<String, String>getMap(jobKey, StringCodec.INSTANCE).containsKey("awaited"));
        queue.resume();
        assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo(9);
        assertThat(queue.getJob(job.id())).isEmpty();
        assertThat(queue.awaitResult(job.id(), Integer.class, LONG).get(10, TimeUnit.SECONDS)).isEqualTo(9);
    }

    @Test
    void anAwaitRegisteredWhileTheJobRunsIsAnsweredAndTheLateCountReturnsToZero() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        start(ctx -> {
            running.countDown();
            release.await();
            return "late";
        });
        Job<Sum> job = queue.add("sum", new Sum(0, 0), JobOptions.builder().removeOnComplete(Retention.keepNone()).build());
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();

        CompletableFuture<String> result = queue.awaitResult(job.id(), String.class, LONG);
        await().atMost(Duration.ofSeconds(10)).until(() -> "1".equals(redisson.<String, String>getMap(metaKey(), StringCodec.INSTANCE).get("awaits")));
        release.countDown();

        assertThat(result.get(30, TimeUnit.SECONDS)).isEqualTo("late");
        assertThat(redisson.<String, String>getMap(metaKey(), StringCodec.INSTANCE).get("awaits")).isEqualTo("0");
    }

    @Test
    void futuresCompleteOffRedissonAndAwaiterThreads() throws Exception {
        start(ctx -> 1);
        String thread = queue.addAndAwait("sum", new Sum(0, 0), DEFAULTS, Integer.class, LONG)
                .thenApply(r -> Thread.currentThread().getName()).get(30, TimeUnit.SECONDS);

        assertThat(thread).doesNotContain("redisson").doesNotContain("netty").doesNotContain("bullpen-await");
    }
}
