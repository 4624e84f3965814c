package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.JobSpec;
import io.bullpen.Queue;
import io.bullpen.QueueEvents;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A busy worker writes the active and completed events of the jobs it takes or finishes in one
 * call as one stream entry; a listener in another client still gets one event per job, each
 * once, with its own return value.
 */
@BullpenTest
class WorkerEventsTest {

    @Test
    void aListenerGetsEveryJobsEventsOnceAlthoughEntriesAreShared(BullpenTestContext ctx) {
        Queue<Integer> queue = Queue.builder(ctx.redisson(), ctx.queueName(), Integer.class).build();
        int jobs = 600;
        Map<String, String> returnValues = new ConcurrentHashMap<>();
        List<String> active = new CopyOnWriteArrayList<>();
        List<String> completed = new CopyOnWriteArrayList<>();
        try (QueueEvents events = QueueEvents.builder(ctx.redisson(), queue.name()).build()) {
            events.onActive(e -> active.add(e.jobId()));
            events.onCompleted(e -> {
                completed.add(e.jobId());
                returnValues.put(e.jobId(), e.returnValue());
            });
            events.start();
            List<JobSpec<Integer>> specs = new ArrayList<>();
            for (int i = 0; i < jobs; i++) {
                specs.add(JobSpec.of("n", i));
            }
            List<String> ids = queue.addBulk(specs).stream().map(j -> j.id()).toList();
            try (Worker<Integer, String> worker = Worker.builder(ctx.redisson(), queue.name(), Integer.class)
                    .concurrency(20)
                    .processor(c -> c.job().data() % 2 == 0 ? null : "r" + c.job().data())
                    .build().start()) {
                await().atMost(Duration.ofSeconds(60)).until(() -> completed.size() >= jobs);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> active.size() >= jobs);

            assertThat(completed).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(ids);
            assertThat(active).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(ids);
            for (int i = 0; i < jobs; i++) {
                assertThat(returnValues.get(ids.get(i))).as("return value of job %s", ids.get(i))
                        .isEqualTo(i % 2 == 0 ? "null" : "\"r" + i + "\"");
            }
            List<Map<String, String>> entries = ctx.snapshot(queue.name()).events();
            long sharedEntries = entries.stream().filter(e -> e.getOrDefault("jobId", "").contains(" ")).count();
            assertThat(sharedEntries).as("entries holding several jobs' events").isPositive();
            assertThat(entries.size()).as("stream entries").isLessThan(3 * jobs);
        }
    }
}
