package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.UnrecoverableJobException;
import io.bullpen.flow.ChildFailure;
import io.bullpen.flow.FlowJob;
import io.bullpen.flow.FlowProducer;
import io.bullpen.flow.JobNode;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Random flows (trees and DAGs over three queues, random failures and edge policies) run by
 * workers, checked against a model: every job ends as its children's outcomes and its policies
 * say, no parent starts before each of its children has ended, and no parent is left waiting.
 * The seed is logged; set it in {@link #SEED} to replay a run.
 */
@BullpenTest
class FlowRandomTest {
    private static final Logger log = LoggerFactory.getLogger(FlowRandomTest.class);
    private static final long SEED = System.nanoTime();
    private static final int FLOWS = 25;
    /** CONTINUE is left out: with a FAIL_PARENT sibling, its outcome depends on which child ends first. */
    private static final ChildFailure[] POLICIES = {ChildFailure.FAIL_PARENT, ChildFailure.IGNORE, ChildFailure.REMOVE};

    record Step(boolean fail) {
    }

    private final List<Worker<?, ?>> workers = new ArrayList<>();
    private final Map<String, Long> started = new ConcurrentHashMap<>();
    private final Map<String, Long> ended = new ConcurrentHashMap<>();

    @AfterEach
    void tearDown() {
        workers.forEach(w -> w.close(Duration.ofSeconds(5)));
    }

    @Test
    void randomFlowsEndAsTheirPoliciesSayAndNoParentStartsEarly(BullpenTestContext ctx) {
        log.info("FlowRandomTest seed {}", SEED);
        Random random = new Random(SEED);
        List<String> queues = List.of(ctx.newQueueName(), ctx.newQueueName(), ctx.newQueueName());
        FlowProducer flows = FlowProducer.builder(ctx.redisson()).build();
        Map<FlowJob, Boolean> expected = new IdentityHashMap<>();
        List<FlowJob> roots = new ArrayList<>();
        for (int f = 0; f < FLOWS; f++) {
            roots.add(randomFlow(random, queues, 3, new ArrayList<>()));
        }
        for (FlowJob root : roots) {
            expectCompleted(root, expected);
        }
        List<JobNode> added = flows.addBulk(roots);
        for (String queue : queues) {
            Worker<Step, String> w = Worker.builder(ctx.redisson(), queue, Step.class).concurrency(4).processor(c -> {
                String key = queue + ":" + c.job().id();
                started.putIfAbsent(key, System.nanoTime());
                try {
                    if (c.job().data().fail()) {
                        throw new UnrecoverableJobException("planned failure");
                    }
                    return "ok";
                } finally {
                    ended.put(key, System.nanoTime());
                }
            }).build();
            workers.add(w);
            w.start();
        }
        Map<String, Queue<Step>> byName = new HashMap<>();
        queues.forEach(q -> byName.put(q, Queue.builder(ctx.redisson(), q, Step.class).build()));

        await().atMost(Duration.ofSeconds(60)).until(() -> added.stream()
                .allMatch(root -> byName.get(root.queue()).getState(root.id()).isFinished()));
        for (int i = 0; i < roots.size(); i++) {
            check(roots.get(i), added.get(i), expected, byName);
        }
        for (String queue : queues) {
            assertThat(byName.get(queue).getJobCounts().waitingChildren()).as("parents left waiting in %s", queue).isZero();
            ctx.assertInvariant(queue);
        }
    }

    /** A random job with up to 3 children per level; a child may be one built earlier in this flow (a DAG). */
    private FlowJob randomFlow(Random random, List<String> queues, int depth, List<FlowJob> built) {
        FlowJob.Builder b = FlowJob.builder(queues.get(random.nextInt(queues.size())), "step",
                new Step(random.nextInt(100) < 15));
        int children = depth == 0 ? 0 : random.nextInt(4);
        List<FlowJob> mine = new ArrayList<>();
        for (int i = 0; i < children; i++) {
            FlowJob child;
            if (!built.isEmpty() && random.nextInt(100) < 20) {
                child = built.get(random.nextInt(built.size()));
                if (mine.contains(child)) {
                    continue;
                }
            } else {
                child = randomFlow(random, queues, depth - 1, built);
            }
            mine.add(child);
            b.child(child, POLICIES[random.nextInt(POLICIES.length)]);
        }
        FlowJob job = b.build();
        built.add(job);
        return job;
    }

    /** The model: a job completes unless it fails itself or a child fails on a FAIL_PARENT edge. */
    private boolean expectCompleted(FlowJob job, Map<FlowJob, Boolean> expected) {
        Boolean known = expected.get(job);
        if (known != null) {
            return known;
        }
        boolean failedByChild = false;
        for (FlowJob.Edge e : job.children()) {
            if (!expectCompleted(e.child(), expected) && e.policy() == ChildFailure.FAIL_PARENT) {
                failedByChild = true;
            }
        }
        boolean completed = !failedByChild && !((Step) job.data()).fail();
        expected.put(job, completed);
        return completed;
    }

    private void check(FlowJob job, JobNode node, Map<FlowJob, Boolean> expected, Map<String, Queue<Step>> queues) {
        String key = node.queue() + ":" + node.id();
        JobState state = queues.get(node.queue()).getState(node.id());
        assertThat(state).as("%s (seed %d)", key, SEED).isEqualTo(expected.get(job) ? JobState.COMPLETED : JobState.FAILED);
        Long start = started.get(key);
        for (int i = 0; i < job.children().size(); i++) {
            JobNode child = node.children().get(i);
            String childKey = child.queue() + ":" + child.id();
            if (start != null && ended.get(childKey) != null) {
                assertThat(ended.get(childKey)).as("%s started before its child %s ended (seed %d)", key, childKey, SEED)
                        .isLessThan(start);
            } else if (start != null) {
                // A child that never ran was failed by its own child (FAIL_PARENT) before the parent started.
                assertThat(expected.get(job.children().get(i).child())).as("%s never ran (seed %d)", childKey, SEED).isFalse();
            }
            check(job.children().get(i).child(), child, expected, queues);
        }
    }
}
