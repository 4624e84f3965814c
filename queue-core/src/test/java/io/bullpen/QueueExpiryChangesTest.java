package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import io.bullpen.testing.QueueSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Expiry deadlines of jobs that have not started, through the admin API: a change of the due time
 * (changeDelay, promote, a debounced add) moves an expireAfter deadline and keeps an expireAt one;
 * a job removed, cancelled, drained or cleaned before it started leaves the expiry set.
 * Deadlines are on Redis's clock, this host's.
 */
@BullpenTest
class QueueExpiryChangesTest {
    private static final Duration AFTER = Duration.ofMinutes(1);
    private Queue<String> queue;
    private BullpenTestContext ctx;

    @BeforeEach
    void setUp(BullpenTestContext ctx) {
        this.ctx = ctx;
        this.queue = Queue.builder(ctx.redisson(), ctx.queueName(), String.class).build();
    }

    private QueueSnapshot snap() {
        return ctx.snapshot(queue.name());
    }

    /** The job's deadline field, which its expiry set entry must equal. */
    private long deadline(String id) {
        QueueSnapshot s = snap();
        long xp = Long.parseLong(s.job(id).get("xp"));
        assertThat(s.zset("expiry")).as("expiry set entry of " + id).containsEntry(id, (double) xp);
        return xp;
    }

    /** Runs the change and checks the deadline is Redis now (around the change) + {@code fromNow}. */
    private void assertDeadlineAfter(String id, Duration fromNow, Runnable change) {
        long before = System.currentTimeMillis();
        change.run();
        long after = System.currentTimeMillis();
        assertThat(deadline(id)).isBetween(before + fromNow.toMillis(), after + fromNow.toMillis());
    }

    private Job<String> delayedExpiring(Duration delay) {
        return queue.add("d", "x", JobOptions.builder().delay(delay).expireAfter(AFTER).build());
    }

    @Test
    void changeDelayMovesAnExpireAfterDeadlineWithTheDueTime() {
        Job<String> job = delayedExpiring(Duration.ofMinutes(10));

        assertDeadlineAfter(job.id(), Duration.ofHours(1).plus(AFTER),
                () -> queue.changeDelay(job.id(), Duration.ofHours(1)));
        assertDeadlineAfter(job.id(), Duration.ofMinutes(2).plus(AFTER),
                () -> queue.changeDelay(job.id(), Duration.ofMinutes(2)));
        assertDeadlineAfter(job.id(), AFTER, () -> queue.changeDelay(job.id(), Duration.ZERO));
        assertThat(queue.getState(job.id())).isEqualTo(JobState.WAITING);
    }

    @Test
    void promoteCountsAnExpireAfterDeadlineFromNow() {
        Job<String> one = delayedExpiring(Duration.ofMinutes(10));
        Job<String> two = delayedExpiring(Duration.ofMinutes(20));

        assertDeadlineAfter(one.id(), AFTER, () -> queue.promote(one.id()));
        assertDeadlineAfter(two.id(), AFTER, () -> queue.promoteJobs());
    }

    @Test
    void aDebouncedAddMovesTheOwnersExpireAfterDeadline() {
        Supplier<JobOptions> options = () -> JobOptions.builder().expireAfter(AFTER)
                .deduplication(Deduplication.of("otp").debounce(Duration.ofMinutes(5))).build();
        Job<String> owner = queue.add("d", "x", options.get());

        assertDeadlineAfter(owner.id(), Duration.ofMinutes(30).plus(AFTER), () -> queue.add("d", "y",
                JobOptions.builder().expireAfter(AFTER)
                        .deduplication(Deduplication.of("otp").debounce(Duration.ofMinutes(30))).build()));
    }

    @Test
    void anExpireAtDeadlineStaysWhenTheDueTimeMoves() {
        Instant at = Instant.ofEpochMilli(System.currentTimeMillis() + 3_600_000);
        Job<String> job = queue.add("d", "x", JobOptions.builder().delay(Duration.ofMinutes(10)).expireAt(at).build());

        queue.changeDelay(job.id(), Duration.ofMinutes(30));
        assertThat(deadline(job.id())).isEqualTo(at.toEpochMilli());
        queue.promote(job.id());
        assertThat(deadline(job.id())).isEqualTo(at.toEpochMilli());
    }

    @Test
    void aJobWithoutADeadlineGetsNoneWhenItsDueTimeMoves() {
        Job<String> job = queue.add("d", "x", JobOptions.builder().delay(Duration.ofMinutes(10)).build());
        queue.add("e", "x", JobOptions.builder().expireAfter(AFTER).build());

        queue.changeDelay(job.id(), Duration.ofMinutes(30));
        queue.promote(job.id());

        assertThat(snap().job(job.id())).doesNotContainKey("xp");
        assertThat(snap().zset("expiry")).doesNotContainKey(job.id());
    }

    private static final JobOptions EXPIRING = JobOptions.builder().expireAfter(AFTER).build();
    private static final JobOptions DELAYED = JobOptions.builder().expireAfter(AFTER).delay(Duration.ofMinutes(5)).build();

    @Test
    void jobsRemovedOrCancelledBeforeTheyStartedLeaveTheExpirySet() {
        Job<String> removed = queue.add("r", "x", EXPIRING);
        Job<String> cancelled = queue.add("c", "x", DELAYED);
        Job<String> kept = queue.add("kept", "x", EXPIRING);

        assertThat(queue.remove(removed.id())).isTrue();
        queue.cancel(cancelled.id(), "not needed");

        assertThat(snap().zset("expiry")).containsOnlyKeys(kept.id());
        ctx.assertInvariant(queue.name());
    }

    @Test
    void cleanedJobsLeaveTheExpirySet() {
        queue.add("w", "x", EXPIRING);
        queue.add("d", "x", DELAYED);

        queue.clean(Duration.ZERO, 100, JobState.WAITING);
        queue.clean(Duration.ZERO, 100, JobState.DELAYED);

        assertThat(snap().zset("expiry")).isEmpty();
    }

    @Test
    void drainedJobsLeaveTheExpirySet() {
        queue.add("w", "x", EXPIRING);
        queue.add("p", "x", JobOptions.builder().expireAfter(AFTER).priority(3).build());
        queue.add("d", "x", DELAYED);

        queue.drain(true);

        assertThat(snap().zset("expiry")).isEmpty();
        ctx.assertInvariant(queue.name());
    }

    @Test
    void aRemovedSchedulersPendingIterationLeavesTheExpirySet() {
        queue.upsertJobScheduler("otp", Repeat.every(Duration.ofHours(1)),
                JobTemplate.of("tick", "x", EXPIRING));
        assertThat(snap().zset("expiry")).hasSize(1);

        queue.removeJobScheduler("otp");

        assertThat(snap().zset("expiry")).isEmpty();
    }
}
