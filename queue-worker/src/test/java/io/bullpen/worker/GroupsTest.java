package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.bullpen.GroupFullException;
import io.bullpen.GroupInfo;
import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobSpec;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.RateLimit;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

/** Groups end to end: fairness, weights, per-group concurrency and rate limits, pause, max size, reads. */
@BullpenTest
class GroupsTest {
    private BullpenTestContext ctx;
    private RedissonClient redisson;
    private Queue<String> queue;
    private final List<Worker<?, ?>> workers = new CopyOnWriteArrayList<>();
    /** Job data ("group/n") in start order. */
    private final List<String> starts = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
    private final Map<String, Integer> maxRunning = new ConcurrentHashMap<>();
    /** When set, processors hold their slot until it opens (so a test can act between takes). */
    private volatile CountDownLatch gate;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.ctx = ctx;
        this.redisson = ctx.redisson();
        this.queue = Queue.builder(redisson, ctx.queueName(), String.class).build();
    }

    @AfterEach
    void tearDown() {
        workers.forEach(w -> w.close(Duration.ofSeconds(5)));
    }

    private void startWorkers(int count, int concurrency, long workMs) {
        for (int i = 0; i < count; i++) {
            Worker<String, Object> w = Worker.builder(redisson, queue.name(), String.class).concurrency(concurrency)
                    .processor(c -> {
                        String data = c.job().data();
                        String group = data.substring(0, data.indexOf('/'));
                        starts.add(data);
                        int now = running.computeIfAbsent(group, g -> new AtomicInteger()).incrementAndGet();
                        maxRunning.merge(group, now, Math::max);
                        try {
                            CountDownLatch hold = gate;
                            if (hold != null) {
                                hold.await();
                            }
                            if (workMs > 0) {
                                Thread.sleep(workMs); // simulated work, not a wait for a condition
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        } finally {
                            running.get(group).decrementAndGet();
                        }
                        return null;
                    }).build();
            workers.add(w);
            w.start();
        }
    }

    private static JobOptions in(String group) {
        return JobOptions.builder().group(group).build();
    }

    private void add(String group, int count) {
        List<JobSpec<String>> specs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            specs.add(JobSpec.of("work", group + "/" + i, in(group)));
        }
        queue.addBulk(specs);
    }

    private void awaitAllDone(int total) {
        await().atMost(Duration.ofSeconds(60)).until(() -> queue.getJobCounts().completed() == total);
        ctx.assertInvariant(queue.name());
    }

    @Test
    void smallGroupsAddedBehindABigOneAllStartBeforeItsTwoHundredthJob() {
        add("big", 1000);
        // The first 4 big jobs hold the worker's 4 slots until the small groups are in.
        gate = new CountDownLatch(1);
        startWorkers(1, 4, 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> starts.size() == 4);
        List<JobSpec<String>> small = new ArrayList<>();
        for (int g = 0; g < 20; g++) {
            for (int i = 0; i < 5; i++) {
                small.add(JobSpec.of("work", "small" + g + "/" + i, in("small" + g)));
            }
        }
        queue.addBulk(small);
        CountDownLatch open = gate;
        gate = null;
        open.countDown();

        awaitAllDone(1100);
        int bigSeen = 0;
        int smallSeen = 0;
        for (String s : starts) {
            if (s.startsWith("big/")) {
                bigSeen++;
                if (bigSeen == 200) {
                    break;
                }
            } else {
                smallSeen++;
            }
        }
        assertThat(smallSeen).as("small-group jobs started before the big group's 200th").isEqualTo(100);
    }

    @Test
    void weightsShareTheStartsWhileBothGroupsHaveJobs() {
        queue.setGroupWeight("heavy", 3);
        add("heavy", 400);
        add("light", 400);
        startWorkers(1, 4, 0);

        awaitAllDone(800);
        List<String> firstStarts = starts.subList(0, 200);
        long heavy = firstStarts.stream().filter(s -> s.startsWith("heavy/")).count();
        assertThat(heavy).as("heavy starts among the first 200 (3:1 = 150)").isBetween(140L, 160L);
    }

    @Test
    void groupConcurrencyOneNeverRunsTwoJobsOfTheGroupAtOnceAcrossWorkers() {
        queue.setGroupConcurrency("one", 1);
        add("one", 60);
        add("other", 60);
        startWorkers(3, 4, 3);

        awaitAllDone(120);
        assertThat(maxRunning.get("one")).isEqualTo(1);
        assertThat(queue.getGroup("one").orElseThrow().active()).isZero();
    }

    @Test
    void theDefaultGroupConcurrencyCapsEveryGroupWithoutItsOwn() {
        queue.setDefaultGroupConcurrency(2);
        queue.setGroupConcurrency("wide", 5);
        for (String g : List.of("a", "b", "c", "wide")) {
            add(g, 30);
        }
        startWorkers(2, 8, 3);

        awaitAllDone(120);
        assertThat(maxRunning.get("a")).isLessThanOrEqualTo(2);
        assertThat(maxRunning.get("b")).isLessThanOrEqualTo(2);
        assertThat(maxRunning.get("c")).isLessThanOrEqualTo(2);
        assertThat(maxRunning.get("wide")).isLessThanOrEqualTo(5);
    }

    @Test
    void aGroupRateLimitNeverLetsMoreThanMaxStartInAWindow() {
        queue.setGroupRateLimit("api", RateLimit.of(5, Duration.ofMillis(500)));
        add("api", 15);
        add("free", 15);
        startWorkers(2, 4, 0);

        awaitAllDone(30);
        List<Long> startTimes = queue.getJobs(JobState.COMPLETED, 0, -1).stream()
                .filter(j -> j.data().startsWith("api/")).map(j -> j.processedOn().orElseThrow().toEpochMilli())
                .sorted().toList();
        assertThat(startTimes).hasSize(15);
        // Starts are spaced by Redis's clock; processedOn is the worker's: allow a few ms between them.
        for (int i = 5; i < startTimes.size(); i++) {
            assertThat(startTimes.get(i) - startTimes.get(i - 5)).as("6 starts span at least the window")
                    .isGreaterThanOrEqualTo(500 - 20);
        }
    }

    @Test
    void aPausedGroupWaitsWhileOthersRunAndRunsWhenResumed() {
        queue.pauseGroup("held");
        add("held", 5);
        add("free", 5);
        startWorkers(1, 2, 0);

        await().atMost(Duration.ofSeconds(10)).until(() -> queue.getJobCounts().completed() == 5);
        assertThat(queue.getGroup("held").orElseThrow()).satisfies(g -> {
            assertThat(g.paused()).isTrue();
            assertThat(g.waiting()).isEqualTo(5);
        });
        assertThat(queue.getJobCounts().waiting()).isEqualTo(5);

        queue.resumeGroup("held");
        awaitAllDone(10);
        // Resumed, done and with no setting of its own, the group has left the registry.
        assertThat(queue.getGroup("held")).isEmpty();
    }

    @Test
    void maxSizeRejectsAddsBeyondItAndWholeBulks() {
        queue.setGroupMaxSize("small", 3);
        add("small", 2);

        assertThatThrownBy(() -> add("small", 2)).isInstanceOf(GroupFullException.class)
                .hasMessageContaining("small");
        assertThat(queue.getJobCounts().waiting()).isEqualTo(2);
        queue.add("one", "small/x", in("small"));
        assertThatThrownBy(() -> queue.add("one", "small/y", in("small"))).isInstanceOf(GroupFullException.class);
        queue.removeGroupMaxSize("small");
        queue.add("one", "small/y", in("small"));
        assertThat(queue.getJobCounts().waiting()).isEqualTo(4);
        ctx.assertInvariant(queue.name());
    }

    @Test
    void countsListsStatesAndGroupsIncludeGroupedJobs() {
        Job<String> plain = queue.add("p", "none/0");
        Job<String> grouped = queue.add("g", "b/0", in("b"));
        queue.add("g", "a/0", in("a"));
        queue.setGroupConcurrency("a", 2);

        assertThat(queue.getJobCounts().waiting()).isEqualTo(3);
        assertThat(queue.getState(grouped.id())).isEqualTo(JobState.WAITING);
        assertThat(queue.getJob(grouped.id()).orElseThrow().options().group()).contains("b");
        assertThat(queue.getJobs(JobState.WAITING, 0, -1)).extracting(Job::data).containsExactly("none/0", "a/0", "b/0");
        assertThat(queue.getJobs(JobState.WAITING, 1, 1)).extracting(Job::data).containsExactly("a/0");
        List<GroupInfo> groups = queue.getGroups(null, 10);
        assertThat(groups).extracting(GroupInfo::name).containsExactly("a", "b");
        assertThat(groups.get(0).concurrency()).hasValue(2);
        assertThat(groups.get(1).waiting()).isEqualTo(1);
        assertThat(queue.getGroups("a", 10)).extracting(GroupInfo::name).containsExactly("b");
        assertThat(queue.getGroup("nope")).isEmpty();
        assertThat(queue.remove(grouped.id())).isTrue();
        assertThat(queue.getJobCounts().waiting()).isEqualTo(2);
        assertThat(queue.getState(plain.id())).isEqualTo(JobState.WAITING);
        ctx.assertInvariant(queue.name());
    }

    @Test
    void badGroupSettingsAreRejectedBeforeAnythingIsWritten() {
        assertThatThrownBy(() -> queue.setGroupConcurrency("a", 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0");
        assertThatThrownBy(() -> queue.setGroupWeight("a", 1001)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1001");
        assertThatThrownBy(() -> queue.setGroupMaxSize("a", 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> queue.pauseGroup("")).isInstanceOf(IllegalArgumentException.class);
        assertThat(queue.getGroups(null, 10)).isEmpty();
    }
}
