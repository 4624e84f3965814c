package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobScheduler;
import io.bullpen.JobState;
import io.bullpen.JobTemplate;
import io.bullpen.MisfirePolicy;
import io.bullpen.Queue;
import io.bullpen.Repeat;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import io.bullpen.testing.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

@BullpenTest
class JobSchedulerTest {
    /** Ids of the scheduler's jobs that are waiting to run (its pending iterations). */
    private static List<String> pendingIterations(QueueSnapshot s, String schedulerId) {
        return Stream.of(s.delayed().keySet(), s.waiting(), s.prioritized().keySet())
                .flatMap(c -> c.stream())
                .filter(id -> schedulerId.equals(s.job(id).get("schedulerId")))
                .toList();
    }

    private static Worker<String, Object> worker(BullpenTestContext ctx, Queue<String> queue, List<String> ran) {
        return Worker.builder(ctx.redisson(), queue.name(), String.class)
                .processor(c -> {
                    ran.add(c.job().id());
                    return null;
                }).build().start();
    }

    @Test
    void everyWithALimitRunsExactlyThatManyTimes(BullpenTestContext ctx) {
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        List<String> ran = new CopyOnWriteArrayList<>();
        try (Worker<String, Object> worker = worker(ctx, queue, ran)) {
            queue.upsertJobScheduler("tick", Repeat.every(Duration.ofMillis(300)).limit(5), JobTemplate.of("tick", "t"));

            await().atMost(Duration.ofSeconds(10)).until(() -> ran.size() >= 5);
            // Nothing more comes: the schedule has ended.
            await().pollDelay(Duration.ofMillis(900)).until(() -> true);
            assertThat(ran).hasSize(5).doesNotHaveDuplicates().allSatisfy(id -> assertThat(id).startsWith("repeat-tick-"));
            JobScheduler tick = queue.getJobSchedulers().get(0);
            assertThat(tick.iterations()).isEqualTo(5);
            assertThat(tick.nextRun()).isEmpty();
            assertThat(pendingIterations(ctx.snapshot(queue.name()), "tick")).isEmpty();
            ctx.assertInvariant(queue.name());
        }
    }

    @Test
    void concurrentUpsertsLeaveExactlyOnePendingIteration(BullpenTestContext ctx) throws Exception {
        Queue<String> a = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        Queue<String> b = Queue.builder(ctx.redis().newClient(), a.name(), String.class).build();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (Queue<String> q : List.of(a, b)) {
            Thread t = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 100; i++) {
                    q.upsertJobScheduler("sync", Repeat.every(Duration.ofMinutes(5)), JobTemplate.of("sync", "s"));
                }
            });
            t.start();
            threads.add(t);
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }

        QueueSnapshot s = ctx.snapshot(a.name());
        assertThat(pendingIterations(s, "sync")).hasSize(1);
        assertThat(s.jobIds()).hasSize(1);
        assertThat(a.getJobSchedulers()).singleElement().satisfies(j -> assertThat(j.iterations()).isEqualTo(1));
        ctx.assertInvariant(a.name());
    }

    @Test
    void sameDefinitionChangesNothingANewOneReplacesThePendingIteration(BullpenTestContext ctx) {
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();

        assertThat(queue.upsertJobScheduler("r", Repeat.every(Duration.ofHours(1)), JobTemplate.of("r", "v1"))).isTrue();
        String first = pendingIterations(ctx.snapshot(queue.name()), "r").get(0);
        assertThat(queue.upsertJobScheduler("r", Repeat.every(Duration.ofHours(1)), JobTemplate.of("r", "v1"))).isFalse();
        assertThat(pendingIterations(ctx.snapshot(queue.name()), "r")).containsExactly(first);

        assertThat(queue.upsertJobScheduler("r", Repeat.every(Duration.ofMinutes(10)), JobTemplate.of("r", "v2"))).isTrue();
        List<String> pending = pendingIterations(ctx.snapshot(queue.name()), "r");
        assertThat(pending).hasSize(1).doesNotContain(first);
        assertThat(queue.getJob(pending.get(0)).orElseThrow().data()).isEqualTo("v2");
        assertThat(queue.getJob(first)).isEmpty();

        assertThat(queue.removeJobScheduler("r")).isTrue();
        assertThat(queue.removeJobScheduler("r")).isFalse();
        assertThat(ctx.snapshot(queue.name()).jobIds()).isEmpty();
        assertThat(queue.getJobSchedulers()).isEmpty();
        ctx.assertInvariant(queue.name());
    }

    @Test
    void cronSchedulerReportsItsNextRunInItsZone(BullpenTestContext ctx) {
        SettableClock clock = SettableClock.at(Instant.parse("2026-11-21T10:00:00Z"));
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).clock(clock).build();

        queue.upsertJobScheduler("nightly-report", Repeat.cron("0 2 * * *", ZoneId.of("Asia/Shanghai")),
                JobTemplate.of("report", "daily"));

        JobScheduler s = queue.getJobSchedulers().get(0);
        assertThat(s.nextRun()).contains(Instant.parse("2026-11-21T18:00:00Z"));
        assertThat(s.pendingJobId()).contains("repeat-nightly-report-" + Instant.parse("2026-11-21T18:00:00Z").toEpochMilli());
        assertThat(queue.getState(s.pendingJobId().orElseThrow())).isEqualTo(JobState.DELAYED);
    }

    @Test
    void restartingTheWorkerMidScheduleCreatesNoDuplicateIteration(BullpenTestContext ctx) {
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        List<String> ran = new CopyOnWriteArrayList<>();
        queue.upsertJobScheduler("beat", Repeat.every(Duration.ofMillis(200)), JobTemplate.of("beat", "b"));

        for (int round = 0; round < 3; round++) {
            int before = ran.size();
            try (Worker<String, Object> worker = worker(ctx, queue, ran)) {
                await().atMost(Duration.ofSeconds(5)).until(() -> ran.size() >= before + 3);
            }
            assertThat(pendingIterations(ctx.snapshot(queue.name()), "beat")).hasSizeLessThanOrEqualTo(1);
        }
        queue.removeJobScheduler("beat");

        assertThat(ran).doesNotHaveDuplicates();
        List<Long> dues = ran.stream().map(id -> Long.parseLong(id.substring("repeat-beat-".length()))).sorted().toList();
        for (int i = 1; i < dues.size(); i++) {
            assertThat(dues.get(i) - dues.get(i - 1)).as("runs stay on the 200 ms grid").isGreaterThanOrEqualTo(200);
        }
        ctx.assertInvariant(queue.name());
    }

    @Test
    void runOnceNowRunsOneCatchUpThenReturnsToTheSchedule(BullpenTestContext ctx) {
        Map<String, Object> result = misfire(ctx, MisfirePolicy.RUN_ONCE_NOW);
        assertThat(result.get("ran")).isEqualTo(1);
    }

    @Test
    void skipMissedDropsTheOverdueRun(BullpenTestContext ctx) {
        Map<String, Object> result = misfire(ctx, MisfirePolicy.SKIP_MISSED);
        assertThat(result.get("ran")).isEqualTo(0);
    }

    /** Every minute; no worker for 5.5 minutes; then one starts. Returns how many runs happened. */
    private Map<String, Object> misfire(BullpenTestContext ctx, MisfirePolicy policy) {
        SettableClock clock = ctx.clock();
        Instant t0 = clock.instant();
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).clock(clock).build();
        queue.upsertJobScheduler("m", Repeat.every(Duration.ofMinutes(1)).misfire(policy), JobTemplate.of("m", "x"));
        clock.set(t0.plusSeconds(330));
        List<String> ran = new CopyOnWriteArrayList<>();

        try (Worker<String, Object> worker = Worker.builder(ctx.redisson(), queue.name(), String.class).clock(clock)
                .processor(c -> {
                    ran.add(c.job().id());
                    return null;
                }).build().start()) {
            Instant expectedNext = t0.plusSeconds(360);
            await().atMost(Duration.ofSeconds(5)).until(() -> queue.getJobSchedulers().get(0).nextRun()
                    .filter(expectedNext::equals).isPresent());
            await().atMost(Duration.ofSeconds(5)).until(() -> queue.getJobCounts().active() == 0);
            QueueSnapshot s = ctx.snapshot(queue.name());
            assertThat(pendingIterations(s, "m")).containsExactly("repeat-m-" + expectedNext.toEpochMilli());
            String overdue = "repeat-m-" + t0.plusSeconds(60).toEpochMilli();
            if (policy == MisfirePolicy.RUN_ONCE_NOW) {
                assertThat(ran).containsExactly(overdue);
                assertThat(queue.getState(overdue)).isEqualTo(JobState.COMPLETED);
            } else {
                assertThat(ran).isEmpty();
                assertThat(queue.getState(overdue)).isEqualTo(JobState.UNKNOWN);
            }
            ctx.assertInvariant(queue.name());
            return Map.of("ran", ran.size());
        }
    }

    @Test
    void iterationsCarryTheTemplate(BullpenTestContext ctx) {
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        queue.upsertJobScheduler("p", Repeat.every(Duration.ofHours(1)).immediately(true),
                JobTemplate.of("prio", "payload", io.bullpen.JobOptions.builder().priority(3).attempts(4).build()));

        String id = pendingIterations(ctx.snapshot(queue.name()), "p").get(0);
        Job<String> job = queue.getJob(id).orElseThrow();
        assertThat(job.name()).isEqualTo("prio");
        assertThat(job.data()).isEqualTo("payload");
        assertThat(job.priority()).isEqualTo(3);
        assertThat(job.options().attempts()).isEqualTo(4);
        assertThat(job.schedulerId()).contains("p");
        assertThat(queue.getState(id)).isEqualTo(JobState.PRIORITIZED);
    }
}
