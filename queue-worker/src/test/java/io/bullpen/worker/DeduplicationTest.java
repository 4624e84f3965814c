package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.bullpen.Deduplication;
import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobSpec;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.QueueEvents;
import io.bullpen.events.DeduplicatedEvent;
import io.bullpen.events.QueueEvent;
import io.bullpen.internal.WireFormat;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * Deduplication through the API, with real workers: each mode, the release on every end, and the
 * issue's measured cases (200 concurrent adds of one id, a debounce of 50 adds over a second).
 */
@BullpenTest
class DeduplicationTest {
    private BullpenTestContext ctx;
    private Queue<Integer> queue;
    private final List<Worker<?, ?>> workers = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.ctx = ctx;
        this.queue = Queue.builder(ctx.redisson(), ctx.newQueueName(), Integer.class).build();
    }

    @AfterEach
    void tearDown() {
        workers.forEach(w -> w.close(Duration.ofSeconds(5)));
    }

    private Worker<Integer, Object> start(JobProcessor<Integer, Object> processor) {
        Worker<Integer, Object> w = Worker.builder(ctx.redisson(), queue.name(), Integer.class).processor(processor)
                .concurrency(4).build();
        workers.add(w);
        return w.start();
    }

    private static JobOptions dedup(Deduplication d) {
        return JobOptions.builder().deduplication(d).build();
    }

    @Test
    void aSecondAddReturnsTheOwnerMarkedDeduplicated() {
        Job<Integer> owner = queue.add("n", 1, dedup(Deduplication.of("x")));
        Job<Integer> again = queue.add("n", 2, dedup(Deduplication.of("x")));

        assertThat(owner.isDeduplicated()).isFalse();
        assertThat(owner.deduplicationId()).contains("x");
        assertThat(owner.options().deduplication()).contains(Deduplication.of("x"));
        assertThat(again.isDeduplicated()).isTrue();
        assertThat(again.id()).isEqualTo(owner.id());
        assertThat(again.data()).isEqualTo(1);
        assertThat(queue.getDeduplicationJobId("x")).contains(owner.id());
        assertThat(queue.getJob(owner.id()).orElseThrow().options().deduplication()).contains(Deduplication.of("x"));
        ctx.assertInvariant(queue.name());
    }

    @Test
    void theOwnersCompletionFreesTheId() {
        Job<Integer> owner = queue.add("n", 1, dedup(Deduplication.of("x")));
        start(c -> c.job().data());

        await().atMost(Duration.ofSeconds(10)).until(() -> queue.getState(owner.id()) == JobState.COMPLETED);
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.getDeduplicationJobId("x").isEmpty());

        Job<Integer> next = queue.add("n", 2, dedup(Deduplication.of("x")));
        assertThat(next.isDeduplicated()).isFalse();
        assertThat(next.id()).isNotEqualTo(owner.id());
    }

    @Test
    void aFailureForGoodFreesTheIdAndARetryKeepsIt() {
        CountDownLatch firstFailed = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Job<Integer> owner = queue.add("n", 1, JobOptions.builder().attempts(2).deduplication(Deduplication.of("f")).build());
        start(c -> {
            if (c.job().attemptsMade() == 1) {
                firstFailed.countDown();
                release.await();
            }
            throw new IllegalStateException("boom");
        });

        await().atMost(Duration.ofSeconds(10)).until(() -> firstFailed.getCount() == 0);
        assertThat(queue.getDeduplicationJobId("f")).contains(owner.id());
        release.countDown();

        await().atMost(Duration.ofSeconds(10)).until(() -> queue.getState(owner.id()) == JobState.FAILED);
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.getDeduplicationJobId("f").isEmpty());
    }

    @Test
    void removeDeduplicationKeyFreesTheIdWhileTheOwnerStays() {
        Job<Integer> owner = queue.add("n", 1, dedup(Deduplication.of("x")));

        assertThat(queue.removeDeduplicationKey("x")).isTrue();
        assertThat(queue.removeDeduplicationKey("x")).isFalse();

        assertThat(queue.getJob(owner.id())).isPresent();
        assertThat(queue.add("n", 2, dedup(Deduplication.of("x"))).isDeduplicated()).isFalse();
    }

    @Test
    void removeCleanAndDrainFreeTheIds() {
        Job<Integer> a = queue.add("n", 1, dedup(Deduplication.of("a")));
        queue.add("n", 2, dedup(Deduplication.of("b")));
        queue.add("n", 3, JobOptions.builder().delay(Duration.ofHours(1)).deduplication(Deduplication.of("c")).build());

        queue.remove(a.id());
        assertThat(queue.getDeduplicationJobId("a")).isEmpty();
        queue.clean(Duration.ZERO, 100, JobState.DELAYED);
        assertThat(queue.getDeduplicationJobId("c")).isEmpty();
        queue.drain(true);
        assertThat(queue.getDeduplicationJobId("b")).isEmpty();
        ctx.assertInvariant(queue.name());
    }

    @Test
    void ttlThrottlesToOneJobPerTtlWhateverTheOwnerDoes() {
        Deduplication throttle = Deduplication.of("t").ttl(Duration.ofMinutes(1));
        Job<Integer> owner = queue.add("n", 1, dedup(throttle));
        start(c -> c.job().data());
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.getState(owner.id()) == JobState.COMPLETED);

        assertThat(queue.add("n", 2, dedup(throttle)).isDeduplicated()).isTrue();
        assertThat(queue.getDeduplicationJobId("t")).contains(owner.id());
    }

    @Test
    void keepLastIfActiveRunsTheLatestAddOnceAfterTheOwner() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<Integer> ran = new CopyOnWriteArrayList<>();
        start(c -> {
            ran.add(c.job().data());
            if (c.job().data() == 1) {
                running.countDown();
                release.await();
            }
            return null;
        });
        Deduplication keep = Deduplication.of("k").keepLastIfActive();
        queue.add("n", 1, dedup(keep));
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();

        for (int i = 2; i <= 5; i++) {
            assertThat(queue.add("n", i, dedup(keep)).isDeduplicated()).isTrue();
        }
        release.countDown();

        await().atMost(Duration.ofSeconds(10)).until(() -> ran.size() == 2
                && queue.getDeduplicationJobId("k").isEmpty());
        assertThat(ran).containsExactly(1, 5);
        assertThat(queue.getJobCounts().completed()).isEqualTo(2);
    }

    @Test
    void debounceReplacesThePendingJobsDataAndRestartsItsDelay() {
        Deduplication debounce = Deduplication.of("b").debounce(Duration.ofHours(1));
        Job<Integer> owner = queue.add("n", 1, dedup(debounce));
        Job<Integer> again = queue.add("n", 2, dedup(debounce));

        assertThat(again.isDeduplicated()).isTrue();
        assertThat(again.id()).isEqualTo(owner.id());
        assertThat(again.data()).isEqualTo(2);
        assertThat(queue.getState(owner.id())).isEqualTo(JobState.DELAYED);
    }

    /** Measured: 50 adds over 1 s with debounce 500 ms run once, with the last data. */
    @Test
    void fiftyAddsOverASecondWithADebounceOf500msRunOnceWithTheLastData() throws Exception {
        List<Integer> ran = new CopyOnWriteArrayList<>();
        start(c -> ran.add(c.job().data()));
        Deduplication debounce = Deduplication.of("burst").debounce(Duration.ofMillis(500));
        ScheduledExecutorService pacer = Executors.newSingleThreadScheduledExecutor();
        AtomicInteger sent = new AtomicInteger();
        Set<String> ids = ConcurrentHashMap.newKeySet();
        try {
            pacer.scheduleAtFixedRate(() -> {
                int n = sent.incrementAndGet();
                if (n <= 50) {
                    ids.add(queue.add("n", n, dedup(debounce)).id());
                }
            }, 0, 20, TimeUnit.MILLISECONDS);
            await().atMost(Duration.ofSeconds(10)).until(() -> sent.get() >= 50);
        } finally {
            pacer.shutdown();
            assertThat(pacer.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> !ran.isEmpty() && queue.getDeduplicationJobId("burst").isEmpty());
        assertThat(ids).hasSize(1);
        assertThat(ran).containsExactly(50);
        assertThat(queue.getJobCounts().completed()).isEqualTo(1);
    }

    /** Measured: 200 concurrent adds of one id make exactly one job (loop: 10 runs). */
    @RepeatedTest(10)
    void twoHundredConcurrentAddsOfOneIdMakeExactlyOneJob() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(16);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Job<Integer>>> adds = new ArrayList<>();
        try {
            for (int i = 0; i < 200; i++) {
                int n = i;
                adds.add(pool.submit(() -> {
                    go.await();
                    return queue.add("n", n, dedup(Deduplication.of("one")));
                }));
            }
            go.countDown();
            List<Job<Integer>> jobs = new ArrayList<>();
            for (Future<Job<Integer>> f : adds) {
                jobs.add(f.get(30, TimeUnit.SECONDS));
            }
            assertThat(jobs).extracting(Job::id).containsOnly(jobs.get(0).id());
            assertThat(jobs).filteredOn(j -> !j.isDeduplicated()).hasSize(1);
            assertThat(queue.getJobCounts().waiting()).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void addBulkWithDuplicatesInsideTheBatchAddsOnePerId() {
        JobOptions a = dedup(Deduplication.of("a"));
        List<Job<Integer>> jobs = queue.addBulk(List.of(JobSpec.of("n", 1, a), JobSpec.of("n", 2, a),
                JobSpec.of("n", 3, dedup(Deduplication.of("b"))), JobSpec.of("n", 4, a)));

        assertThat(jobs).extracting(Job::isDeduplicated).containsExactly(false, true, false, true);
        assertThat(jobs.get(1).id()).isEqualTo(jobs.get(0).id());
        assertThat(jobs.get(3).data()).isEqualTo(1);
        assertThat(queue.getJobCounts().waiting()).isEqualTo(2);
    }

    @Test
    void aDeduplicatedAddEmitsDeduplicatedWithTheOwnerAndTheIds() {
        List<QueueEvent> seen = new CopyOnWriteArrayList<>();
        try (QueueEvents events = QueueEvents.builder(ctx.redisson(), queue.name()).lastEventId("0").build()) {
            events.onEvent(seen::add).start();
            Job<Integer> owner = queue.add("n", 1, dedup(Deduplication.of("e")));
            queue.add("n", 2, JobOptions.builder().jobId("asked").deduplication(Deduplication.of("e")).build());

            await().atMost(Duration.ofSeconds(10)).until(() -> seen.stream().anyMatch(DeduplicatedEvent.class::isInstance));
            DeduplicatedEvent event = seen.stream().filter(DeduplicatedEvent.class::isInstance)
                    .map(DeduplicatedEvent.class::cast).findFirst().orElseThrow();
            assertThat(event.jobId()).isEqualTo(owner.id());
            assertThat(event.deduplicationId()).isEqualTo("e");
            assertThat(event.deduplicatedJobId()).isEqualTo("asked");
        }
        assertThat(queue.getJob("asked")).isEqualTo(Optional.empty());
    }

    @Test
    void theDeduplicationIsStoredWithTheJobsOptionsAndReadBack() {
        JobOptions options = JobOptions.builder().attempts(2).deduplication(Deduplication.of("r").ttl(Duration.ofSeconds(9))
                .debounce(Duration.ofMillis(1500)).keepLastIfActive()).build();

        assertThat(WireFormat.jobOptions(WireFormat.describe(options))).isEqualTo(options);
        assertThat(WireFormat.describe(options).get("deduplication")).isEqualTo(java.util.Map.of("id", "r", "ttl", 9000L,
                "debounce", 1500L, "keepLastIfActive", true));
        Job<Integer> job = queue.add("n", 1, options);
        assertThat(queue.getJob(job.id()).orElseThrow().options()).isEqualTo(options);
        assertThat(queue.getState(job.id())).isEqualTo(JobState.DELAYED);
    }

    @Test
    void badDeduplicationsAreRefusedNamingTheValue() {
        assertThatThrownBy(() -> Deduplication.of("")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1-256");
        assertThatThrownBy(() -> Deduplication.of("a\nb")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a\\nb");
        assertThatThrownBy(() -> Deduplication.of("x").ttl(Duration.ofMillis(-5))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-5ms");
        assertThatThrownBy(() -> Deduplication.of("x").debounce(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0ms");
        assertThatThrownBy(() -> JobOptions.builder().delay(Duration.ofSeconds(1))
                .deduplication(Deduplication.of("x").debounce(Duration.ofSeconds(1))).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1000ms");
        assertThat(Deduplication.of("x").ttl(Duration.ofSeconds(1)).keepLastIfActive())
                .isEqualTo(Deduplication.of("x").keepLastIfActive().ttl(Duration.ofMillis(1000)))
                .hasToString("Deduplication{id=\"x\", ttl=1000ms, keepLastIfActive}");
    }
}
