package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import io.bullpen.testing.SettableClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/** The producer/admin API as a user calls it (the guide's tour, docs/jobs.md). */
@BullpenTest
class QueueTest {
    record Order(String id) {
    }

    private BullpenTestContext ctx;
    private RedissonClient redisson;
    private SettableClock clock;
    private Queue<Order> orders;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.ctx = ctx;
        this.redisson = ctx.redisson();
        this.clock = ctx.clock();
        this.orders = Queue.builder(redisson, ctx.queueName(), Order.class).clock(clock).build();
    }

    @Test
    void addReturnsTheStoredJob() {
        Job<Order> job = orders.add("cancel-unpaid", new Order("A-1"), JobOptions.builder()
                .delay(Duration.ofMinutes(30)).attempts(5).backoff(Backoff.exponential(Duration.ofSeconds(1))).build());

        assertThat(job.id()).isEqualTo("1");
        assertThat(job.name()).isEqualTo("cancel-unpaid");
        assertThat(job.data()).isEqualTo(new Order("A-1"));
        assertThat(job.delay()).isEqualTo(Duration.ofMinutes(30));
        assertThat(job.options().attempts()).isEqualTo(5);
        assertThat(job.timestamp()).isEqualTo(clock.instant());
        assertThat(orders.getState(job.id())).isEqualTo(JobState.DELAYED);

        Job<Order> read = orders.getJob(job.id()).orElseThrow();
        assertThat(read.data()).isEqualTo(job.data());
        assertThat(read.options()).isEqualTo(job.options());
        assertThat(read.rawFields()).isEqualTo(job.rawFields());
        ctx.assertInvariant(orders.name());
    }

    @Test
    void addWithDefaultsWaits() {
        Job<Order> job = orders.add("ship", new Order("A-2"));

        assertThat(orders.getState(job.id())).isEqualTo(JobState.WAITING);
        assertThat(job.attemptsMade()).isZero();
        assertThat(job.processedOn()).isEmpty();
        assertThat(orders.getJobCounts()).isEqualTo(new JobCounts(1, 0, 0, 0, 0, 0, false));
    }

    @Test
    void addBulkAddsAllInOrder() {
        JobOptions urgent = JobOptions.builder().priority(1).build();

        List<Job<Order>> many = orders.addBulk(List.of(JobSpec.of("ship", new Order("o1")), JobSpec.of("ship", new Order("o2"), urgent)));

        assertThat(many).extracting(Job::id).containsExactly("1", "2");
        assertThat(many.get(1).priority()).isEqualTo(1);
        JobCounts counts = orders.getJobCounts();
        assertThat(counts.waiting()).isEqualTo(1);
        assertThat(counts.prioritized()).isEqualTo(1);
        assertThat(orders.addBulk(List.of())).isEmpty();
    }

    @Test
    void duplicateCustomIdReturnsTheExistingJob() {
        JobOptions id = JobOptions.builder().jobId("order-A-1").build();
        Job<Order> first = orders.add("charge", new Order("first"), id);

        Job<Order> second = orders.add("charge", new Order("second"), id);

        assertThat(second.id()).isEqualTo("order-A-1");
        assertThat(second.data()).isEqualTo(first.data());
        assertThat(orders.getJobCounts().total()).isEqualTo(1);
    }

    @Test
    void getJobsListsAState() {
        for (int i = 0; i < 5; i++) {
            orders.add("n", new Order("o" + i));
        }

        assertThat(orders.getJobs(JobState.WAITING, 0, 2)).extracting(Job::id).containsExactly("5", "4", "3");
        assertThat(orders.getJobs(JobState.FAILED, 0, -1)).isEmpty();
        assertThatThrownBy(() -> orders.getJobs(JobState.UNKNOWN, 0, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void promoteRetryRemove() {
        Job<Order> delayed = orders.add("later", new Order("d"), JobOptions.builder().delay(Duration.ofHours(1)).build());

        orders.promote(delayed.id());
        assertThat(orders.getState(delayed.id())).isEqualTo(JobState.WAITING);
        assertThat(orders.getJob(delayed.id()).orElseThrow().delay()).isZero();

        assertThatThrownBy(() -> orders.promote(delayed.id())).isInstanceOf(JobStateException.class);
        assertThatThrownBy(() -> orders.retry(delayed.id())).isInstanceOf(JobStateException.class)
                .hasMessageContaining(delayed.id());
        assertThatThrownBy(() -> orders.promote("404")).isInstanceOf(JobNotFoundException.class);

        assertThat(orders.remove(delayed.id())).isTrue();
        assertThat(orders.remove(delayed.id())).isFalse();
        assertThat(orders.getState(delayed.id())).isEqualTo(JobState.UNKNOWN);
        assertThat(orders.getJob(delayed.id())).isEmpty();
    }

    @Test
    void pauseAndResume() {
        assertThat(orders.isPaused()).isFalse();

        orders.pause();
        assertThat(orders.isPaused()).isTrue();
        assertThat(orders.getJobCounts().paused()).isTrue();

        orders.resume();
        assertThat(orders.isPaused()).isFalse();
    }

    @Test
    void queueRegistersItselfForDiscovery() {
        orders.add("x", new Order("x"));

        assertThat(redisson.getSet("bp:queues", StringCodec.INSTANCE).contains(orders.name())).isTrue();
    }

    @Test
    void prefixIsConfigurable() {
        Queue<Order> other = Queue.builder(redisson, ctx.queueName(), Order.class).prefix("myapp").build();

        other.add("x", new Order("x"));

        assertThat(ctx.snapshot("myapp", other.name()).waiting()).containsExactly("1");
        assertThat(ctx.snapshot("bp", other.name()).keys()).isEmpty();
    }

    @Test
    void badInputIsRejectedAndNothingIsWritten() {
        Queue<Object> any = Queue.builder(redisson, ctx.newQueueName(), Object.class).maxPayloadBytes(100).build();

        assertThatThrownBy(() -> any.add("big", "x".repeat(200))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("100");
        assertThatThrownBy(() -> any.add("bad", new Object() {
            public Object getSelf() {
                return this;
            }
        })).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot be serialized");
        assertThatThrownBy(() -> any.addBulk(List.of(JobSpec.of("ok", "fine"), JobSpec.of("big", "y".repeat(200)))))
                .isInstanceOf(IllegalArgumentException.class);
        QueueSnapshot s = ctx.snapshot(any.name());
        assertThat(s.keys()).isEmpty();

        assertThatThrownBy(() -> Queue.builder(redisson, "bad{name}", Order.class)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bad{name}");
        assertThatThrownBy(() -> Queue.builder(redisson, null, Order.class)).isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> JobOptions.builder().delay(Duration.ofMillis(-5)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-5ms");
        assertThatThrownBy(() -> JobOptions.builder().attempts(0).build()).hasMessageContaining("0");
        assertThatThrownBy(() -> JobOptions.builder().jobId("a:b").build()).hasMessageContaining("a:b");
    }

    /** Private fields and no getters: Jackson sees no property, so {@code {}} would be stored. */
    static final class Opaque {
        private final String id;

        Opaque(String id) {
            this.id = id;
        }

        @Override
        public String toString() {
            return id;
        }
    }

    record Holder(String name, Opaque inner) {
    }

    record Ping() {
    }

    @Test
    void dataWithNoPropertyJacksonCanSeeIsRejectedNamingTheClassAndTheJobAndNothingIsWritten() {
        Queue<Object> any = Queue.builder(redisson, ctx.newQueueName(), Object.class).build();

        assertThatThrownBy(() -> any.add("charge", new Opaque("A-1"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(Opaque.class.getName()).hasMessageContaining("\"charge\"")
                .hasMessageContaining("no property");
        assertThatThrownBy(() -> any.add("wrapped", new Holder("h", new Opaque("A-2"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(Holder.class.getName()).hasMessageContaining(Opaque.class.getName())
                .hasMessageContaining("\"wrapped\"");
        assertThatThrownBy(() -> any.addBulk(List.of(JobSpec.of("ok", "fine"), JobSpec.of("bulk", new Opaque("A-3")))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"bulk\"");
        assertThatThrownBy(() -> any.upsertJobScheduler("nightly", Repeat.every(Duration.ofHours(1)),
                JobTemplate.of("report", new Opaque("A-4"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"report\"")
                .hasMessageContaining(Opaque.class.getName());

        assertThat(ctx.snapshot(any.name()).keys()).isEmpty();
        assertThat(Queue.listQueues(redisson)).doesNotContain(any.name());
    }

    @Test
    void anEmptyRecordIsDataWithNothingToLose() {
        Queue<Ping> pings = Queue.builder(redisson, ctx.newQueueName(), Ping.class).build();

        Job<Ping> job = pings.add("ping", new Ping());

        assertThat(pings.getJob(job.id()).orElseThrow().data()).isEqualTo(new Ping());
    }

    @Test
    void aScheduleThatCanNeverRunIsRejectedAtUpsertAndNothingIsWritten() {
        clock.set(java.time.Instant.parse("2026-11-21T10:00:00Z"));
        java.time.Instant noon = java.time.Instant.parse("2026-11-21T12:00:00Z");
        JobTemplate<Order> template = JobTemplate.of("report", new Order("r"));

        assertThatThrownBy(() -> orders.upsertJobScheduler("backwards",
                Repeat.every(Duration.ofMinutes(5)).startAt(noon).endAt(noon.minusSeconds(1)), template))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"backwards\"")
                .hasMessageContaining("endAt 2026-11-21T11:59:59Z is before startAt 2026-11-21T12:00:00Z");
        assertThatThrownBy(() -> orders.upsertJobScheduler("feb30", Repeat.cron("0 0 30 2 *"), template))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"feb30\"")
                .hasMessageContaining("never run").hasMessageContaining("\"0 0 30 2 *\"");
        assertThatThrownBy(() -> orders.upsertJobScheduler("over",
                Repeat.cron("0 2 * * *").endAt(java.time.Instant.parse("2026-11-22T01:00:00Z")), template))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("first run, at 2026-11-22T02:00:00Z, is after endAt 2026-11-22T01:00:00Z");
        assertThatThrownBy(() -> orders.upsertJobScheduler("ended",
                Repeat.every(Duration.ofMinutes(5)).endAt(clock.instant().minusSeconds(60)), template))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("never run");

        assertThat(ctx.snapshot(orders.name()).keys()).isEmpty();
        assertThat(orders.getJobSchedulers()).isEmpty();
        // A window with a run in it is fine, however short: endAt is inclusive.
        assertThat(orders.upsertJobScheduler("once", Repeat.every(Duration.ofMinutes(5)).immediately(true)
                .startAt(noon).endAt(noon), template)).isTrue();
    }

    @Test
    void genericDataTypes() {
        Queue<List<Order>> batches = Queue.builder(redisson, ctx.newQueueName(),
                new com.fasterxml.jackson.core.type.TypeReference<List<Order>>() { }).build();

        Job<List<Order>> job = batches.add("batch", List.of(new Order("a"), new Order("b")));

        assertThat(batches.getJob(job.id()).orElseThrow().data()).containsExactly(new Order("a"), new Order("b"));
    }
}
