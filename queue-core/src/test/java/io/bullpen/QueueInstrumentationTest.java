package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.instrument.Instrumentation;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A queue's instrumentations hear of every job it adds (not of a custom id that already existed),
 * before the add returns, never on a Redis client thread; one that throws changes nothing.
 */
@BullpenTest
class QueueInstrumentationTest {

    static final class Recorder implements Instrumentation {
        final List<String> added = new CopyOnWriteArrayList<>();
        final List<String> threads = new CopyOnWriteArrayList<>();

        @Override
        public void jobAdded(String queue, String jobId, String jobName) {
            added.add(jobId + ":" + jobName);
            threads.add(Thread.currentThread().getName());
        }
    }

    @Test
    void everyAddedJobIsReportedBeforeTheAddReturnsAndADuplicateIsNot(BullpenTestContext ctx) throws Exception {
        Recorder first = new Recorder();
        Recorder second = new Recorder();
        Instrumentation broken = new Instrumentation() {
            @Override
            public void jobAdded(String queue, String jobId, String jobName) {
                throw new IllegalStateException("broken instrumentation");
            }
        };
        Queue<Integer> queue = Queue.builder(ctx.redisson(), ctx.queueName(), Integer.class)
                .instrumentation(first).instrumentation(broken).instrumentation(second).build();

        String a = queue.add("a", 1).id();
        List<Job<Integer>> bulk = queue.addBulk(List.of(JobSpec.of("b", 2),
                JobSpec.of("c", 3, JobOptions.builder().jobId("custom").build())));
        String d = queue.addAsync("d", 4, JobOptions.defaults()).toCompletableFuture().get().id();
        queue.add("dup", 5, JobOptions.builder().jobId("custom").build());

        List<String> expected = List.of(a + ":a", bulk.get(0).id() + ":b", "custom:c", d + ":d");
        assertThat(first.added).containsExactlyElementsOf(expected);
        assertThat(second.added).containsExactlyElementsOf(expected);
        assertThat(first.threads).noneMatch(t -> t.startsWith("redisson-netty"));
        assertThat(queue.getJobCounts().waiting()).isEqualTo(4);
    }
}
