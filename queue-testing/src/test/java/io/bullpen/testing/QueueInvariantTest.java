package io.bullpen.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

@BullpenTest
class QueueInvariantTest {

    private RedissonClient redisson;
    private String queue;

    @BeforeEach
    void setUp(BullpenTestContext context) {
        redisson = context.redisson();
        queue = context.queueName();
    }

    private String key(String suffix) {
        return "bp:{" + queue + "}:" + suffix;
    }

    private void pushWait(String id) {
        redisson.<String>getDeque(key("wait"), StringCodec.INSTANCE).addFirst(id);
    }

    private void zadd(String suffix, double score, String id) {
        redisson.<String>getScoredSortedSet(key(suffix), StringCodec.INSTANCE).add(score, id);
    }

    private void jobHash(String id) {
        redisson.<String, String>getMap(key("job:" + id), StringCodec.INSTANCE).put("name", "job-" + id);
    }

    /** One job in each state, an active one (its lease) with its lock: the shape a healthy queue has. */
    private void seedValidQueue() {
        pushWait("1");
        zadd("prioritized", 1L << 32, "2");
        zadd("delayed", 1_700_000_000_000L * 4096, "3");
        zadd("leases", 1_700_000_030_000L, "4");
        redisson.<String, String>getMap(key("job:4"), StringCodec.INSTANCE).put("lock", "token");
        redisson.<String>getList(key("job:4:logs"), StringCodec.INSTANCE).add("working");
        zadd("completed", 1_700_000_000_000L, "5");
        zadd("failed", 1_700_000_000_001L, "6");
        for (int id = 1; id <= 6; id++) {
            jobHash(Integer.toString(id));
        }
        redisson.<String>getBucket(key("id"), StringCodec.INSTANCE).set("6");
    }

    @Test
    void acceptsAValidQueue(BullpenTestContext context) {
        seedValidQueue();

        QueueSnapshot snapshot = context.snapshot(queue);

        assertThat(QueueInvariant.violations(snapshot)).isEmpty();
        assertThatCode(() -> context.assertInvariant(queue)).doesNotThrowAnyException();
    }

    @Test
    void acceptsAnEmptyQueue(BullpenTestContext context) {
        assertThat(QueueInvariant.violations(context.snapshot(queue))).isEmpty();
    }

    @Test
    void reportsAnIdInTwoStructures(BullpenTestContext context) {
        seedValidQueue();
        zadd("completed", 1_700_000_000_000L, "1");

        assertThat(QueueInvariant.violations(context.snapshot(queue)))
                .containsExactly("job 1 appears 2 times: in wait, completed");
    }

    @Test
    void reportsADuplicateIdInsideTheWaitList(BullpenTestContext context) {
        seedValidQueue();
        pushWait("1");

        assertThat(QueueInvariant.violations(context.snapshot(queue)))
                .containsExactly("job 1 appears 2 times: in wait, wait");
    }

    @Test
    void reportsAnIdWithoutItsJobHash(BullpenTestContext context) {
        seedValidQueue();
        zadd("delayed", 1_700_000_000_000L * 4096, "7");

        assertThat(QueueInvariant.violations(context.snapshot(queue)))
                .containsExactly("job 7 is in delayed but has no job:7 hash");
    }

    @Test
    void reportsAnOrphanJobHash(BullpenTestContext context) {
        seedValidQueue();
        jobHash("8");

        assertThat(QueueInvariant.violations(context.snapshot(queue))).containsExactly(
                "job:8 hash is in none of wait, prioritized, delayed, leases, waiting-children, completed, failed (orphan)");
    }

    @Test
    void reportsALockFieldLeftOnAJobThatIsNotActive(BullpenTestContext context) {
        seedValidQueue();
        redisson.<String, String>getMap(key("job:5"), StringCodec.INSTANCE).put("lock", "w:9");

        assertThat(QueueInvariant.violations(context.snapshot(queue)))
                .containsExactly("job 5 has a lock field but no lease (every way out of active clears it)");
    }

    @Test
    void reportsAJobBothActiveAndWaiting(BullpenTestContext context) {
        seedValidQueue();
        zadd("leases", 1_700_000_030_000L, "1");

        assertThat(QueueInvariant.violations(context.snapshot(queue)))
                .containsExactly("job 1 appears 2 times: in wait, leases");
    }

    @Test
    void reportsALeaseWithoutItsJobHash(BullpenTestContext context) {
        seedValidQueue();
        zadd("leases", 1_700_000_030_000L, "9");

        assertThat(QueueInvariant.violations(context.snapshot(queue)))
                .containsExactly("job 9 is in leases but has no job:9 hash");
    }

    @Test
    void reportsAnActiveListBesideTheLeases(BullpenTestContext context) {
        seedValidQueue();
        redisson.<String>getDeque(key("active"), StringCodec.INSTANCE).addFirst("4");

        assertThat(QueueInvariant.violations(context.snapshot(queue)))
                .containsExactly("active exists (a list) but must not: leases is the set of active jobs");
    }

    @Test
    void reportsAStructureOfTheWrongType(BullpenTestContext context) {
        redisson.<String>getDeque(key("leases"), StringCodec.INSTANCE).addFirst("1");
        jobHash("1");

        assertThat(QueueInvariant.violations(context.snapshot(queue))).containsExactly(
                "leases is a list but must be a zset",
                "job:1 hash is in none of wait, prioritized, delayed, leases, waiting-children, completed, failed (orphan)");
    }

    @Test
    void assertHoldsListsEveryViolationAndTheSnapshot(BullpenTestContext context) {
        seedValidQueue();
        zadd("completed", 1, "1");
        jobHash("8");

        assertThatThrownBy(() -> context.assertInvariant(queue))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("queue invariant violated for bp:{" + queue + "}:*")
                .hasMessageContaining("  - job 1 appears 2 times: in wait, completed")
                .hasMessageContaining("  - job:8 hash is in none of")
                .hasMessageContaining("QueueSnapshot bp:{" + queue + "}:*");
    }

    @Test
    void checksTheQueueUnderACustomPrefix(BullpenTestContext context) {
        redisson.<String>getDeque("custom:{" + queue + "}:wait", StringCodec.INSTANCE).addFirst("1");

        assertThat(QueueInvariant.violations(context.snapshot("custom", queue)))
                .containsExactly("job 1 is in wait but has no job:1 hash");
        assertThatCode(() -> context.assertInvariant(queue)).doesNotThrowAnyException();
        assertThatThrownBy(() -> context.assertInvariant("custom", queue)).isInstanceOf(AssertionError.class);
    }
}
