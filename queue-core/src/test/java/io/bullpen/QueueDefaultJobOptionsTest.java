package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Queue.Builder#defaultJobOptions}: the defaults fill in every option an add did not set,
 * option by option, and are stored with the job; what the add set wins; defaults that name one
 * job are refused when the queue is built.
 */
@BullpenTest
class QueueDefaultJobOptionsTest {
    record Order(String id) {
    }

    private static final JobOptions DEFAULTS = JobOptions.builder()
            .attempts(5)
            .backoff(Backoff.exponential(Duration.ofSeconds(1)))
            .priority(3)
            .removeOnComplete(Retention.keepLast(10))
            .removeOnFail(Retention.keepFor(Duration.ofDays(1)))
            .timeout(Duration.ofSeconds(30))
            .build();

    private static Queue<Order> queue(BullpenTestContext ctx, JobOptions defaults) {
        return Queue.builder(ctx.redisson(), ctx.queueName(), Order.class).defaultJobOptions(defaults).build();
    }

    @Test
    void defaultsApplyToEveryAddAndAreStoredWithTheJob(BullpenTestContext ctx) {
        Queue<Order> orders = queue(ctx, DEFAULTS);

        Job<Order> one = orders.add("ship", new Order("A-1"));
        List<Job<Order>> bulk = orders.addBulk(List.of(JobSpec.of("ship", new Order("A-2"), JobOptions.defaults())));

        assertThat(one.options()).isEqualTo(DEFAULTS);
        assertThat(bulk.get(0).options()).isEqualTo(DEFAULTS);
        assertThat(orders.getJob(one.id()).orElseThrow().options()).isEqualTo(DEFAULTS);
        assertThat(orders.getJob(bulk.get(0).id()).orElseThrow().options()).isEqualTo(DEFAULTS);
        assertThat(orders.getState(one.id())).isEqualTo(JobState.PRIORITIZED);
        assertThat(orders.defaultJobOptions()).isEqualTo(DEFAULTS);
    }

    @Test
    void optionsTheAddSetsWinEvenAtTheirDefaultValue(BullpenTestContext ctx) {
        Queue<Order> orders = queue(ctx, DEFAULTS);

        Job<Order> job = orders.add("ship", new Order("A-1"), JobOptions.builder()
                .attempts(1).backoff(null).priority(7).removeOnComplete(Retention.keepAll()).build());

        JobOptions stored = orders.getJob(job.id()).orElseThrow().options();
        assertThat(stored.attempts()).isEqualTo(1);
        assertThat(stored.backoff()).isEmpty();
        assertThat(stored.priority()).isEqualTo(7);
        assertThat(stored.removeOnComplete()).isEqualTo(Retention.keepAll());
        // The rest still comes from the defaults.
        assertThat(stored.removeOnFail()).isEqualTo(Retention.keepFor(Duration.ofDays(1)));
        assertThat(stored.timeout()).contains(Duration.ofSeconds(30));
    }

    @Test
    void aDefaultThatWouldClashWithTheAddIsLeftOut(BullpenTestContext ctx) {
        Queue<Order> orders = queue(ctx, DEFAULTS);

        Job<Order> lifo = orders.add("ship", new Order("A-1"), JobOptions.builder().lifo(true).build());

        assertThat(lifo.options().lifo()).isTrue();
        assertThat(lifo.options().priority()).isZero();
        assertThat(lifo.options().attempts()).isEqualTo(5);
        assertThat(orders.getState(lifo.id())).isEqualTo(JobState.WAITING);
    }

    @Test
    void aDefaultDelayDelaysTheJob(BullpenTestContext ctx) {
        Queue<Order> orders = queue(ctx, JobOptions.builder().delay(Duration.ofMinutes(5)).build());

        Job<Order> delayed = orders.add("ship", new Order("A-1"));
        Job<Order> now = orders.add("ship", new Order("A-2"), JobOptions.builder().delay(Duration.ZERO).build());

        assertThat(orders.getState(delayed.id())).isEqualTo(JobState.DELAYED);
        assertThat(orders.getState(now.id())).isEqualTo(JobState.WAITING);
    }

    @Test
    void aJobSchedulersJobsTakeTheDefaultsButNotTheDefaultDelay(BullpenTestContext ctx) {
        Queue<Order> orders = queue(ctx, JobOptions.builder().attempts(3).delay(Duration.ofMinutes(5)).build());

        orders.upsertJobScheduler("hourly", Repeat.every(Duration.ofHours(1)), JobTemplate.of("report", new Order("r")));

        List<Job<Order>> scheduled = new java.util.ArrayList<>(orders.getJobs(JobState.WAITING, 0, -1));
        scheduled.addAll(orders.getJobs(JobState.DELAYED, 0, -1));
        assertThat(scheduled).hasSize(1);
        assertThat(scheduled.get(0).options().attempts()).isEqualTo(3);
        assertThat(scheduled.get(0).options().delay()).isZero();
    }

    @Test
    void defaultsThatNameOneJobAreRefusedWhenTheQueueIsBuilt(BullpenTestContext ctx) {
        Queue.Builder<Order> builder = Queue.builder(ctx.redisson(), ctx.queueName(), Order.class);

        assertThatThrownBy(() -> builder.defaultJobOptions(JobOptions.builder().jobId("order-1").build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("defaultJobOptions cannot set a job id").hasMessageContaining("order-1");
        assertThatThrownBy(() -> builder.defaultJobOptions(
                JobOptions.builder().deduplication(Deduplication.of("d-1")).build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("defaultJobOptions cannot set a deduplication");
        assertThatThrownBy(() -> builder.defaultJobOptions(null)).isInstanceOf(NullPointerException.class);
        assertThat(Queue.listQueues(ctx.redisson())).doesNotContain(ctx.queueName());
    }
}
