package io.bullpen.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RBatch;
import org.redisson.api.RedissonClient;
import org.redisson.api.stream.StreamAddArgs;
import org.redisson.api.stream.StreamMessageId;
import org.redisson.client.codec.StringCodec;

@BullpenTest
class QueueSnapshotTest {

    /** A delayed score as Bullpen writes it: dueMillis * 4096 + seq, about 7e15 and still exact. */
    private static final long DELAYED_SCORE = 1_700_000_000_000L * 4096 + 5;

    private RedissonClient redisson;
    private String queue;

    @BeforeEach
    void setUp(BullpenTestContext context) {
        redisson = context.redisson();
        queue = context.queueName();
    }

    private String key(String suffix) {
        return key("bp", queue, suffix);
    }

    private static String key(String prefix, String queue, String suffix) {
        return prefix + ":{" + queue + "}:" + suffix;
    }

    private void seedEveryKeyType() {
        redisson.<String>getDeque(key("wait"), StringCodec.INSTANCE).addFirst("1");
        redisson.<String>getDeque(key("wait"), StringCodec.INSTANCE).addFirst("2");
        redisson.<String>getScoredSortedSet(key("prioritized"), StringCodec.INSTANCE).add(4294967296.0, "3");
        redisson.<String>getScoredSortedSet(key("delayed"), StringCodec.INSTANCE).add(DELAYED_SCORE, "10");
        redisson.<String>getScoredSortedSet(key("delayed"), StringCodec.INSTANCE).add(DELAYED_SCORE - 2, "9");
        redisson.<String, String>getMap(key("meta"), StringCodec.INSTANCE)
                .putAll(Map.of("paused", "0", "version", "1"));
        redisson.<String>getBucket(key("id"), StringCodec.INSTANCE).set("10");
        redisson.<String>getBucket(key("dedup:d1"), StringCodec.INSTANCE).set("1", Duration.ofSeconds(30));
        redisson.<String>getList(key("job:1:logs"), StringCodec.INSTANCE).addAll(List.of("first", "second"));
        redisson.<String>getSet(key("tags"), StringCodec.INSTANCE).addAll(List.of("b", "a"));
        for (String id : List.of("1", "2", "3", "9", "10")) {
            redisson.<String, String>getMap(key("job:" + id), StringCodec.INSTANCE).put("name", "job-" + id);
        }
        redisson.<String, String>getMap(key("job:1"), StringCodec.INSTANCE).put("lock", "token-1");
        var events = redisson.<String, String>getStream(key("events"), StringCodec.INSTANCE);
        events.add(StreamAddArgs.entries("event", "added", "jobId", "1"));
        events.add(StreamAddArgs.entries("event", "waiting", "jobId", "1"));
    }

    @Test
    void readsEveryKeyTypeOfTheQueue(BullpenTestContext context) {
        seedEveryKeyType();

        QueueSnapshot snapshot = context.snapshot(queue);

        assertThat(snapshot.prefix()).isEqualTo("bp");
        assertThat(snapshot.queue()).isEqualTo(queue);
        assertThat(snapshot.keys()).containsExactly("dedup:d1", "delayed", "events", "id", "job:1", "job:10",
                "job:1:logs", "job:2", "job:3", "job:9", "meta", "prioritized", "tags", "wait");
        assertThat(snapshot.type("wait")).isEqualTo("list");
        assertThat(snapshot.type("events")).isEqualTo("stream");
        assertThat(snapshot.waiting()).containsExactly("2", "1");
        assertThat(snapshot.prioritized()).containsExactly(entry("3", 4294967296.0));
        assertThat(snapshot.delayed()).containsExactly(entry("9", (double) (DELAYED_SCORE - 2)),
                entry("10", (double) DELAYED_SCORE));
        assertThat(snapshot.delayed().get("10").longValue()).isEqualTo(DELAYED_SCORE);
        assertThat(snapshot.meta()).containsOnly(entry("paused", "0"), entry("version", "1"));
        assertThat(snapshot.string("id")).isEqualTo("10");
        assertThat(snapshot.set("tags")).containsExactly("a", "b");
        assertThat(snapshot.lock("1")).isEqualTo("token-1");
        assertThat(snapshot.pttl("dedup:d1")).isBetween(1L, 30_000L);
        assertThat(snapshot.pttl("wait")).isEqualTo(-1);
        assertThat(snapshot.logs("1")).containsExactly("first", "second");
        assertThat(snapshot.job("10")).containsExactly(entry("name", "job-10"));
        assertThat(snapshot.jobIds()).containsExactly("1", "2", "3", "9", "10");
    }

    @Test
    void readsTheEventStreamOldestFirst(BullpenTestContext context) {
        seedEveryKeyType();

        QueueSnapshot snapshot = context.snapshot(queue);

        assertThat(snapshot.eventNames()).containsExactly("added", "waiting");
        assertThat(snapshot.stream("events")).hasSize(2);
        StreamEntry first = snapshot.stream("events").get(0);
        assertThat(first.fields()).containsExactly(entry("event", "added"), entry("jobId", "1"));
        assertThat(snapshot.events().get(0)).containsExactly(entry("_id", first.id()), entry("event", "added"),
                entry("jobId", "1"));
        assertThat(snapshot.events().get(1).get("_id")).isEqualTo(snapshot.stream("events").get(1).id());
    }

    @Test
    void keepsStreamOrderAcrossIdsThatSortWronglyAsText(BullpenTestContext context) {
        var events = redisson.<String, String>getStream(key("events"), StringCodec.INSTANCE);
        events.add(new StreamMessageId(9, 0), StreamAddArgs.entry("event", "first"));
        events.add(new StreamMessageId(10, 0), StreamAddArgs.entry("event", "second"));

        assertThat(context.snapshot(queue).eventNames()).containsExactly("first", "second");
    }

    @Test
    void activeJobsAreTheLeasesLatestExpiryFirst(BullpenTestContext context) {
        var leases = redisson.<String>getScoredSortedSet(key("leases"), StringCodec.INSTANCE);
        leases.add(1_700_000_030_000.0, "7");
        leases.add(1_700_000_060_000.0, "8");
        leases.add(1_700_000_030_000.0, "6");

        QueueSnapshot snapshot = context.snapshot(queue);

        assertThat(snapshot.leases()).containsExactly(entry("6", 1_700_000_030_000.0), entry("7", 1_700_000_030_000.0),
                entry("8", 1_700_000_060_000.0));
        // ZREVRANGE order, as Queue.getJobs(ACTIVE) lists them.
        assertThat(snapshot.active()).containsExactly("8", "7", "6");
        assertThat(snapshot.exists("active")).isFalse();
    }

    @Test
    void absentKeysReadAsEmptyOrNull(BullpenTestContext context) {
        QueueSnapshot snapshot = context.snapshot(queue);

        assertThat(snapshot.keys()).isEmpty();
        assertThat(snapshot.exists("wait")).isFalse();
        assertThat(snapshot.type("wait")).isNull();
        assertThat(snapshot.waiting()).isEmpty();
        assertThat(snapshot.prioritized()).isEmpty();
        assertThat(snapshot.delayed()).isEmpty();
        assertThat(snapshot.active()).isEmpty();
        assertThat(snapshot.completed()).isEmpty();
        assertThat(snapshot.failed()).isEmpty();
        assertThat(snapshot.leases()).isEmpty();
        assertThat(snapshot.meta()).isEmpty();
        assertThat(snapshot.events()).isEmpty();
        assertThat(snapshot.eventNames()).isEmpty();
        assertThat(snapshot.set("tags")).isEmpty();
        assertThat(snapshot.string("id")).isNull();
        assertThat(snapshot.pttl("id")).isEqualTo(-2);
        assertThat(snapshot.job("1")).isEmpty();
        assertThat(snapshot.jobIds()).isEmpty();
        assertThat(snapshot.lock("1")).isNull();
        assertThat(snapshot.logs("1")).isEmpty();
    }

    @Test
    void aKeyOfAnotherTypeIsReportedNotMisread(BullpenTestContext context) {
        redisson.<String>getScoredSortedSet(key("wait"), StringCodec.INSTANCE).add(1, "1");

        QueueSnapshot snapshot = context.snapshot(queue);

        assertThatIllegalStateException().isThrownBy(snapshot::waiting)
                .withMessage("bp:{" + queue + "}:wait is a zset, not a list");
    }

    @Test
    void isImmutable(BullpenTestContext context) {
        seedEveryKeyType();
        QueueSnapshot snapshot = context.snapshot(queue);

        assertThatThrownBy(() -> snapshot.waiting().add("x")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> snapshot.delayed().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> snapshot.job("1").put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> snapshot.keys().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> snapshot.events().get(0).clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void readsOnlyItsOwnQueueAndPrefixEvenWithGlobCharactersInTheName(BullpenTestContext context) {
        String globQueue = "q[1]*?";
        redisson.<String>getBucket(key("custom", globQueue, "id"), StringCodec.INSTANCE).set("1");
        redisson.<String>getBucket(key("custom", "q1x", "id"), StringCodec.INSTANCE).set("2");
        redisson.<String>getBucket(key("custom", "q[1]*?x", "id"), StringCodec.INSTANCE).set("3");
        redisson.<String>getBucket(key("bp", globQueue, "id"), StringCodec.INSTANCE).set("4");

        QueueSnapshot snapshot = context.snapshot("custom", globQueue);

        assertThat(snapshot.keys()).containsExactly("id");
        assertThat(snapshot.string("id")).isEqualTo("1");
        assertThat(snapshot.keyPrefix()).isEqualTo("custom:{q[1]*?}:");
    }

    @Test
    void readsLargeQueuesInChunks(BullpenTestContext context) {
        RBatch batch = redisson.createBatch();
        for (int id = 1; id <= 1200; id++) {
            batch.<String, String>getMap(key("job:" + id), StringCodec.INSTANCE).putAsync("name", "n" + id);
        }
        batch.execute();

        QueueSnapshot snapshot = context.snapshot(queue);

        assertThat(snapshot.jobIds()).hasSize(1200).startsWith("1", "2", "3").endsWith("1199", "1200");
        assertThat(snapshot.job("1200")).containsExactly(entry("name", "n1200"));
    }

    @Test
    void printsEveryKeyReadably(BullpenTestContext context) {
        seedEveryKeyType();

        String text = context.snapshot(queue).toString();

        assertThat(text).startsWith("QueueSnapshot bp:{" + queue + "}:* (14 keys)")
                .contains("wait", "[\"2\", \"1\"]")
                .contains("10=" + DELAYED_SCORE)
                .contains("dedup:d1", "pttl", "\"token-1\"")
                .contains("event=\"added\"");
    }

    @Test
    void rejectsAnEmptyQueueOrPrefix(RedissonClient client) {
        assertThatIllegalArgumentException().isThrownBy(() -> QueueSnapshot.read(client, ""))
                .withMessage("queue must be non-empty but was ''");
        assertThatIllegalArgumentException().isThrownBy(() -> QueueSnapshot.read(client, null, "q"))
                .withMessage("prefix must be non-empty but was null");
    }
}
