package io.bullpen.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bullpen.JobSpec;
import io.bullpen.Queue;
import io.bullpen.internal.KeyScheme;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.redisson.client.codec.StringCodec;

/**
 * Settings of a queue (its events cap) live in Redis and bind every client of the queue: a
 * worker built without them follows what the queue was given.
 */
@BullpenTest
class QueueSettingsTest {

    @Test
    void aWorkerKeepsTheStreamAtTheCapTheQueueWasBuiltWith(BullpenTestContext ctx) {
        Queue<Integer> queue = Queue.builder(ctx.redisson(), ctx.queueName(), Integer.class).eventsMaxLength(100).build();
        int jobs = 3_000;
        for (int chunk = 0; chunk < jobs; chunk += 500) {
            queue.addBulk(IntStream.range(chunk, chunk + 500).mapToObj(i -> JobSpec.of("n", i)).toList());
        }
        // Concurrency 1: an active and a completed entry per job, 6,000 entries for a worker that
        // trimmed at its own 10,000.
        try (Worker<Integer, Object> worker = Worker.builder(ctx.redisson(), queue.name(), Integer.class)
                .processor(c -> null).build().start()) {
            await().atMost(Duration.ofSeconds(120)).until(() -> queue.getJobCounts().completed() == jobs);
        }

        long length = ctx.redisson().getStream(new KeyScheme("bp", queue.name()).events(), StringCodec.INSTANCE).size();
        // XADD MAXLEN ~ trims whole stream nodes of 100 entries: a little over the cap.
        assertThat(length).as("events stream after %d jobs with eventsMaxLength(100)", jobs).isBetween(100L, 300L);
    }

    @Test
    void theCapIsReadBackByEveryClientAndKeptByQueuesBuiltWithoutIt(BullpenTestContext ctx) {
        Queue<String> configured = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).eventsMaxLength(1_000).build();
        Queue<String> other = Queue.builder(ctx.redis().newClient(), ctx.queueName(), String.class).build();
        assertThat(configured.getEventsMaxLength()).as("nothing is written before the queue is used").isEqualTo(10_000);

        configured.add("a", "x");
        other.add("b", "y");

        assertThat(configured.getEventsMaxLength()).isEqualTo(1_000);
        assertThat(other.getEventsMaxLength()).as("a queue built without the setting reads and keeps it").isEqualTo(1_000);
    }

    @Test
    void theLastQueueToStoreTheCapWinsAndObliterateForgetsIt(BullpenTestContext ctx) {
        Queue.builder(ctx.redisson(), ctx.queueName(), String.class).eventsMaxLength(1_000).build().add("a", "x");
        Queue<String> later = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).eventsMaxLength(50).build();
        later.add("b", "y");
        assertThat(later.getEventsMaxLength()).isEqualTo(50);

        later.obliterate(true);
        assertThat(later.getEventsMaxLength()).isEqualTo(10_000);
        later.add("c", "z");
        assertThat(later.getEventsMaxLength()).as("stored again by the queue's next use").isEqualTo(50);
    }

    @Test
    void aQueueNeverGivenACapKeepsTheDefault(BullpenTestContext ctx) {
        Queue<String> queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
        queue.add("a", "x");
        assertThat(queue.getEventsMaxLength()).isEqualTo(10_000);
        assertThat(ctx.snapshot(queue.name()).meta()).doesNotContainKey("eventsMaxLength");
    }
}
