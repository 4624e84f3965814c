package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.internal.Futures;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.ScriptTypes.FetchArgs;
import io.bullpen.internal.ScriptTypes.Finish;
import io.bullpen.internal.Scripts;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

/**
 * The guide's tour (docs/jobs.md) and testing example (docs/testing.md), as written there (less their imports), run against a real Redis.
 * examples' DocSnippetsTest compiles every snippet of the docs; this one also checks what the tour
 * does.
 */
@BullpenTest
class GuideTourTest {
    record Order(String id) {
    }

    @Test
    void tourOfTheQueueApi(BullpenTestContext ctx) {
        RedissonClient redisson = ctx.redisson();
        String failedJobId = aFailedJob(ctx, "orders");

        // --- docs/jobs.md: "Add, read and manage jobs: a tour" ---
        Queue<Order> orders = Queue.builder(redisson, "orders", Order.class).build(); // .prefix(..) .clock(..)

        Job<Order> job = orders.add("cancel-unpaid", new Order("A-1"), JobOptions.builder()
                .delay(Duration.ofMinutes(30))
                .attempts(5)
                .backoff(Backoff.exponential(Duration.ofSeconds(1)))
                .build());
        orders.add("ship", new Order("A-2"));                          // default options: now, once

        List<Job<Order>> many = orders.addBulk(List.of(               // one atomic script call
                JobSpec.of("ship", new Order("o1")),
                JobSpec.of("ship", new Order("o2"), JobOptions.builder().priority(1).build())));

        Optional<Job<Order>> same = orders.getJob(job.id());
        JobCounts counts = orders.getJobCounts();
        List<Job<Order>> failed = orders.getJobs(JobState.FAILED, 0, 49);   // newest first
        JobState state = orders.getState(job.id());                   // UNKNOWN when there is no such job

        orders.pause(); orders.resume(); orders.isPaused();
        orders.promote(job.id());     // a delayed job runs now
        orders.retry(failed.get(0).id());   // a failed job runs again, with fresh attempts
        orders.remove(job.id());      // any state but active-and-locked; false when there was no such job
        // --- end of the guide's code ---

        assertThat(many).hasSize(2);
        assertThat(same).isPresent();
        assertThat(counts).isEqualTo(new JobCounts(2, 0, 1, 1, 0, 1, false));
        assertThat(failed).extracting(Job::id).containsExactly(failedJobId);
        assertThat(state).isEqualTo(JobState.DELAYED);
        assertThat(orders.getState(failedJobId)).isEqualTo(JobState.WAITING);
        assertThat(orders.getJob(job.id())).isEmpty();
        ctx.assertInvariant("orders");
    }

    /** Until workers exist, a failed job is made with the scripts a worker uses. */
    private static String aFailedJob(BullpenTestContext ctx, String queue) {
        Queue<Order> q = Queue.builder(ctx.redisson(), queue, Order.class).build();
        String id = q.add("doomed", new Order("X")).id();
        Scripts scripts = new Scripts(ctx.redisson(), new KeyScheme("bp", queue));
        FetchArgs take = new FetchArgs(1, "w", 30_000, "readme", 100, 100, 1);
        String token = Futures.join(scripts.moveToActive(System.currentTimeMillis(), take)).jobs().get(0).lockToken();
        Futures.join(scripts.moveToFinished(System.currentTimeMillis(), take.withCount(0),
                new Finish.Failed(id, token, 1, "boom", null, 10, Retention.keepAll(), null, null, null, 0)));
        return id;
    }

    @Test
    void testingYourOwnCode(BullpenTestContext ctx) {
        // --- docs/testing.md: "A real Redis per test class" ---
        Queue<Order> orders = Queue.builder(ctx.redisson(), ctx.queueName(), Order.class)
                .clock(ctx.clock())                     // a SettableClock: set(..), advance(..)
                .build();
        orders.add("cancel-unpaid", new Order("A-1"),
                JobOptions.builder().delay(Duration.ofMinutes(30)).build());

        QueueSnapshot snapshot = ctx.snapshot(orders.name());   // every key of the queue
        assertThat(snapshot.delayed()).hasSize(1);
        ctx.assertInvariant(orders.name());   // every job in exactly one state, its hash present
    }
}
