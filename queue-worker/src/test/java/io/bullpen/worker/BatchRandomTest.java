package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobSpec;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.RateLimitedException;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Randomized batch workers: per seed, jobs of random groups (some of none) run on two batch workers
 * with random sizes, minimum sizes, waits, group rules and concurrency; the processors fail single
 * jobs, throw for whole batches, put jobs back as rate limited, and workers are closed and
 * replaced while jobs run. At the end every job completed exactly once (one completed event and
 * the state completed), within a liveness bound; no batch was larger than its size or mixed
 * groups under sameGroup; the queue invariant holds.
 *
 * <p>{@code -Dbullpen.batch.seed=1,2,3} replaces the fixed seeds.
 */
@BullpenTest
class BatchRandomTest {
    private static final int JOBS = 300;
    private static final Duration LIVENESS = Duration.ofSeconds(60);

    static Stream<Long> seeds() {
        String prop = System.getProperty("bullpen.batch.seed");
        if (prop != null && !prop.isBlank()) {
            return Stream.of(prop.split(",")).map(String::trim).filter(s -> !s.isEmpty()).map(Long::parseLong);
        }
        return Stream.of(11L, 2024L, 777_777L);
    }

    /** One worker's random settings. */
    private record Shape(JobBatchOptions options, int concurrency) {
        static Shape random(Random r) {
            int size = 1 + r.nextInt(r.nextBoolean() ? 5 : 40);
            JobBatchOptions o = JobBatchOptions.of(size).minSize(1 + r.nextInt(size))
                    .maxWait(Duration.ofMillis(r.nextInt(300))).sameGroup(r.nextBoolean());
            return new Shape(o, 1 + r.nextInt(3));
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void everyJobCompletesOnceWhateverTheBatchesDo(long seed, BullpenTestContext ctx) {
        Random random = new Random(seed);
        Queue<Integer> queue = Queue.builder(ctx.redisson(), ctx.queueName(), Integer.class).build();
        Map<String, AtomicInteger> completed = new ConcurrentHashMap<>();
        Map<Integer, AtomicInteger> limited = new ConcurrentHashMap<>();
        List<String> violations = new CopyOnWriteArrayList<>();
        List<Worker<Integer, Object>> workers = new ArrayList<>();
        try {
            for (int w = 0; w < 2; w++) {
                workers.add(start(ctx, queue, Shape.random(random), seed * 31 + w, completed, limited, violations));
            }
            List<JobSpec<Integer>> specs = new ArrayList<>();
            for (int i = 0; i < JOBS; i++) {
                int g = random.nextInt(5);
                JobOptions.Builder b = JobOptions.builder().attempts(5);
                if (g < 4) {
                    b.group("g" + g);
                }
                specs.add(JobSpec.of("row", i, b.build()));
            }
            for (int from = 0; from < JOBS; from += 50) {
                queue.addBulk(specs.subList(from, Math.min(JOBS, from + 50)));
                if (random.nextInt(3) == 0) {
                    // Close one worker while jobs run (its running batches finish or are handed back) and replace it.
                    int victim = random.nextInt(workers.size());
                    workers.get(victim).close(Duration.ofMillis(random.nextInt(200)));
                    workers.set(victim, start(ctx, queue, Shape.random(random), random.nextLong(), completed, limited,
                            violations));
                }
            }
            await().atMost(LIVENESS).until(() -> queue.getJobCounts().completed() == JOBS);
            for (Worker<Integer, Object> w : workers) {
                await().atMost(LIVENESS).until(() -> w.activeCount() == 0);
            }
            assertThat(violations).isEmpty();
            for (Job<Integer> job : queue.getJobs(JobState.COMPLETED, 0, -1)) {
                assertThat(job.returnValueJson()).contains("\"row " + job.data() + "\"");
            }
            // Listeners run on their own thread: the last events may land just after the state.
            await().atMost(LIVENESS).until(() -> completed.size() == JOBS);
            assertThat(completed.values()).allMatch(n -> n.get() == 1);
            ctx.assertInvariant(queue.name());
        } finally {
            workers.forEach(Worker::close);
        }
    }

    private static Worker<Integer, Object> start(BullpenTestContext ctx, Queue<Integer> queue, Shape shape, long seed,
                                                 Map<String, AtomicInteger> completed,
                                                 Map<Integer, AtomicInteger> limited, List<String> violations) {
        Random random = new Random(seed);
        return Worker.builder(ctx.redisson(), queue.name(), Integer.class)
                .listener(new WorkerListener<Integer, Object>() {
                    @Override
                    public void onCompleted(Job<Integer> job, Object result) {
                        completed.computeIfAbsent(job.id(), k -> new AtomicInteger()).incrementAndGet();
                    }
                })
                .batchProcessor((JobBatch<Integer, Object> batch) -> {
                    List<JobContext<Integer>> jobs = batch.jobs();
                    if (jobs.isEmpty() || jobs.size() > shape.options().size()) {
                        violations.add("batch of " + jobs.size() + " for size " + shape.options().size());
                    }
                    Set<String> groups = new HashSet<>();
                    jobs.forEach(j -> groups.add(j.job().options().group().orElse("")));
                    if (shape.options().sameGroup() && groups.size() > 1) {
                        violations.add("batch mixing groups " + groups + " under sameGroup");
                    }
                    boolean mayThrow = true;
                    for (JobContext<Integer> job : jobs) {
                        int n = job.job().data();
                        boolean young = job.job().attemptsMade() < 2;
                        int roll;
                        synchronized (random) {
                            roll = random.nextInt(100);
                        }
                        if (young && roll < 15) {
                            batch.fail(job, new IllegalStateException("row " + n + " failed"));
                        } else if (roll < 20 && limited.computeIfAbsent(n, k -> new AtomicInteger()).incrementAndGet() == 1) {
                            batch.fail(job, new RateLimitedException(Duration.ofMillis(20)));
                        } else if (roll < 60) {
                            batch.complete(job, "row " + n);
                        } else if (!young) {
                            // Left unreported: a throw could fail it a third time.
                            mayThrow = false;
                        }
                    }
                    int roll;
                    synchronized (random) {
                        roll = random.nextInt(100);
                    }
                    if (mayThrow && roll < 10) {
                        throw new IllegalStateException("batch failed");
                    }
                    if (jobs.size() == 1) {
                        return "row " + jobs.get(0).job().data();
                    }
                    // Unreported jobs complete with the return value: report each so results tell them apart.
                    for (JobContext<Integer> job : jobs) {
                        try {
                            batch.complete(job, "row " + job.job().data());
                        } catch (IllegalStateException alreadyReported) {
                            // Reported above.
                        }
                    }
                    return null;
                })
                .batch(shape.options())
                .concurrency(shape.concurrency())
                .build().start();
    }
}
