package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.RateLimitedException;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/**
 * A processor's failures reach the log once per attempt on io.bullpen.worker.JobFailures: WARN
 * for an attempt that is retried, ERROR with the stack trace for the last one; what is not a
 * failure (a rate limit, a step, a cancel) is not logged there; the MDC names queue and job while
 * the processor runs.
 */
@BullpenTest
class JobFailureLogTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private LogCapture log;

    @BeforeEach
    void capture() {
        log = LogCapture.of("io.bullpen.worker.JobFailures");
    }

    @AfterEach
    void release() {
        log.close();
    }

    @Test
    void eachRetriedAttemptIsOneWarnLineAndTheLastAnErrorWithItsStackTrace(BullpenTestContext ctx) {
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        try (Worker<String, ?> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .processor(c -> {
                    throw new IllegalStateException("card declined");
                }).build().start()) {
            Job<String> job = queue.add("charge", "order-1", JobOptions.builder().attempts(3).build());
            await().atMost(WAIT).until(() -> queue.getState(job.id()) == JobState.FAILED);
            await().atMost(WAIT).until(() -> log.events().size() >= 3);
        }

        List<ILoggingEvent> events = log.events();
        assertThat(events).hasSize(3);
        for (int i = 0; i < 2; i++) {
            ILoggingEvent retried = events.get(i);
            assertThat(retried.getLevel()).isEqualTo(Level.WARN);
            assertThat(retried.getThrowableProxy()).as("no stack trace").isNull();
            assertThat(retried.getFormattedMessage()).contains("queue " + queue.name(), "job 1 (charge)",
                    "attempt " + (i + 1) + " of 3", "will be retried",
                    "java.lang.IllegalStateException: card declined");
        }
        ILoggingEvent last = events.get(2);
        assertThat(last.getLevel()).isEqualTo(Level.ERROR);
        assertThat(last.getFormattedMessage()).contains("queue " + queue.name(), "job 1 (charge)", "attempt 3 of 3",
                "failed for good", "java.lang.IllegalStateException: card declined");
        assertThat(last.getThrowableProxy().getClassName()).isEqualTo("java.lang.IllegalStateException");
        assertThat(last.getThrowableProxy().getStackTraceElementProxyArray()).isNotEmpty();
    }

    @Test
    void aNullPointerExceptionOnTheOnlyAttemptIsAnError(BullpenTestContext ctx) {
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        try (Worker<String, ?> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .processor(c -> ((String) null).length()).build().start()) {
            Job<String> job = queue.add("npe", "x");
            await().atMost(WAIT).until(() -> queue.getState(job.id()) == JobState.FAILED);
            await().atMost(WAIT).until(() -> !log.events().isEmpty());
        }
        assertThat(log.events()).singleElement().satisfies(e -> {
            assertThat(e.getLevel()).isEqualTo(Level.ERROR);
            assertThat(e.getFormattedMessage()).contains("attempt 1 of 1", "java.lang.NullPointerException");
            assertThat(e.getThrowableProxy().getClassName()).isEqualTo("java.lang.NullPointerException");
        });
    }

    @Test
    void aJobWhoseDataCannotBeReadIsOneErrorLine(BullpenTestContext ctx) {
        Queue<Integer> queue = Queue.builder(ctx.redisson(), ctx.queueName(), Integer.class).build();
        Job<Integer> job = queue.add("count", 1, JobOptions.builder().attempts(5).build());
        ctx.redisson().getMap("bp:{" + queue.name() + "}:job:" + job.id(), org.redisson.client.codec.StringCodec.INSTANCE)
                .put("data", "{not json");
        try (Worker<Integer, ?> worker = Worker.builder(ctx.redisson(), queue.name(), Integer.class)
                .processor(c -> c.job().data()).build().start()) {
            await().atMost(WAIT).until(() -> queue.getState(job.id()) == JobState.FAILED);
            await().atMost(WAIT).until(() -> !log.events().isEmpty());
        }
        assertThat(log.events()).singleElement().satisfies(e -> {
            assertThat(e.getLevel()).isEqualTo(Level.ERROR);
            assertThat(e.getFormattedMessage()).contains("queue " + queue.name() + ": job " + job.id()
                    + " cannot be read, the job failed for good without running");
            assertThat(e.getThrowableProxy()).isNotNull();
        });
    }

    @Test
    void aTimedOutAttemptIsLoggedAsAFailure(BullpenTestContext ctx) {
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        try (Worker<String, ?> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .processor(c -> {
                    Thread.sleep(10_000);
                    return null;
                }).build().start()) {
            Job<String> job = queue.add("slow", "x", JobOptions.builder().timeout(Duration.ofMillis(200)).build());
            await().atMost(WAIT).until(() -> queue.getState(job.id()) == JobState.FAILED);
            await().atMost(WAIT).until(() -> !log.events().isEmpty());
        }
        assertThat(log.events()).singleElement().satisfies(e -> {
            assertThat(e.getLevel()).isEqualTo(Level.ERROR);
            assertThat(e.getFormattedMessage()).contains("attempt 1 of 1", "JobTimeoutException", "timed out after 200ms");
        });
    }

    @Test
    void aRateLimitAStepAndACancelAreNotLoggedAsFailures(BullpenTestContext ctx) {
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        AtomicInteger limitedCalls = new AtomicInteger();
        CountDownLatch cancelStarted = new CountDownLatch(1);
        try (Worker<String, ?> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .processor(c -> switch (c.job().name()) {
                    case "limited" -> {
                        if (limitedCalls.incrementAndGet() == 1) {
                            throw new RateLimitedException(Duration.ofMillis(50));
                        }
                        yield "ok";
                    }
                    case "step" -> {
                        if (c.job().data().equals("first")) {
                            c.updateData("second");
                            c.delay(Duration.ofMillis(50));
                            yield null;
                        }
                        yield "stepped";
                    }
                    default -> {
                        cancelStarted.countDown();
                        Thread.sleep(60_000);
                        yield "slept";
                    }
                }).concurrency(3).build().start()) {
            Job<String> limited = queue.add("limited", "x", JobOptions.builder().attempts(3).build());
            Job<String> step = queue.add("step", "first", JobOptions.builder().attempts(3).build());
            Job<String> cancelled = queue.add("cancelled", "x", JobOptions.builder().attempts(3).build());
            await().atMost(WAIT).until(() -> cancelStarted.getCount() == 0);
            queue.cancel(cancelled.id(), "user asked");

            await().atMost(WAIT).until(() -> queue.getState(limited.id()) == JobState.COMPLETED
                    && queue.getState(step.id()) == JobState.COMPLETED
                    && queue.getState(cancelled.id()) == JobState.FAILED);
            await().atMost(WAIT).until(() -> worker.activeCount() == 0);
        }
        assertThat(limitedCalls).hasValue(2);
        assertThat(log.messages()).isEmpty();
    }

    @Test
    void theMdcNamesQueueAndJobWhileTheProcessorRunsAndIsRestoredAfter(BullpenTestContext ctx) throws Exception {
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        Map<String, String> seen = new ConcurrentHashMap<>();
        // Many short jobs on one slot: take-ahead runs the buffered ones on the same thread, back to back.
        try (Worker<String, ?> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .processor(c -> seen.put(c.job().id(), MDC.get("bullpen.queue") + "/" + MDC.get("bullpen.jobId")))
                .concurrency(1).build().start()) {
            List<Job<String>> jobs = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                jobs.add(queue.add("j", "x" + i));
            }
            await().atMost(WAIT).until(() -> seen.size() == 50);
            for (Job<String> job : jobs) {
                assertThat(seen).containsEntry(job.id(), queue.name() + "/" + job.id());
            }
        }

        // An application's executor: its thread's own MDC is back once the processor returned.
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            executor.submit(() -> MDC.put("bullpen.queue", "outer")).get();
            Map<String, String> inside = new ConcurrentHashMap<>();
            try (Worker<String, ?> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                    .processor(c -> inside.put(c.job().id(), MDC.get("bullpen.queue") + "/" + MDC.get("bullpen.jobId")))
                    .executor(executor).build().start()) {
                Job<String> job = queue.add("k", "y");
                await().atMost(WAIT).until(() -> queue.getState(job.id()) == JobState.COMPLETED);
                assertThat(inside).containsEntry(job.id(), queue.name() + "/" + job.id());
            }
            assertThat(executor.submit(() -> MDC.get("bullpen.queue") + "/" + MDC.get("bullpen.jobId")).get())
                    .isEqualTo("outer/null");
        } finally {
            executor.shutdownNow();
            executor.awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void aFloodOfFailuresIsCappedAtTenLinesASecondThenSummed(BullpenTestContext ctx) {
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        List<io.bullpen.JobSpec<String>> specs = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            specs.add(io.bullpen.JobSpec.of("flood", "x" + i));
        }
        queue.addBulk(specs);
        try (Worker<String, ?> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .processor(c -> {
                    throw new IllegalStateException("down");
                }).concurrency(10).build().start()) {
            await().atMost(WAIT).until(() -> queue.getJobCounts().failed() == 60);
            // The summary comes 10 s after the first failure that was not logged.
            await().atMost(Duration.ofSeconds(25)).until(() -> logged(log.messages()) + notLogged(log.messages()) == 60);
        }
        List<String> lines = log.messages();
        assertThat(logged(lines)).isLessThan(60);
        assertThat(lines).filteredOn(m -> m.contains("failures not logged")).isNotEmpty()
                .allSatisfy(m -> assertThat(m).matches("queue " + queue.name()
                        + ": \\d+ failures not logged in the last 10 s .*"));
    }

    @Test
    void aWorkerClosedBeforeItsSummaryIsDueLogsItAsItCloses(BullpenTestContext ctx) {
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        List<io.bullpen.JobSpec<String>> specs = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            specs.add(io.bullpen.JobSpec.of("flood", "x" + i));
        }
        queue.addBulk(specs);
        try (Worker<String, ?> worker = Worker.builder(ctx.redisson(), queue.name(), String.class)
                .processor(c -> {
                    throw new IllegalStateException("down");
                }).concurrency(10).build().start()) {
            await().atMost(WAIT).until(() -> queue.getJobCounts().failed() == 40);
        }
        assertThat(logged(log.messages()) + notLogged(log.messages())).isEqualTo(40);
    }

    private static long logged(List<String> lines) {
        return lines.stream().filter(m -> m.contains("failed attempt")).count();
    }

    private static int notLogged(List<String> lines) {
        return lines.stream().filter(m -> m.contains("failures not logged"))
                .mapToInt(m -> Integer.parseInt(m.replaceAll(".*: (\\d+) failures not logged.*", "$1"))).sum();
    }
}
