package io.bullpen.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.bullpen.JobState;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KeySchemeTest {
    private final KeyScheme k = new KeyScheme("bp", "orders");

    @Test
    void keysFollowTheDocumentedLayout() {
        assertThat(k.waitList()).isEqualTo("bp:{orders}:wait");
        assertThat(k.job("42")).isEqualTo("bp:{orders}:job:42");
        assertThat(k.logs("42")).isEqualTo("bp:{orders}:job:42:logs");
        assertThat(k.jobPrefix()).isEqualTo("bp:{orders}:job:");
        assertThat(k.registry()).isEqualTo("bp:queues");
        assertThat(k.stateKey(JobState.COMPLETED)).isEqualTo("bp:{orders}:completed");
    }

    @Test
    void theDefaultTagKeepsEveryKeyByteForByte() {
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("base", "bp:{orders}:");
        expected.put("waitList", "bp:{orders}:wait");
        expected.put("prioritized", "bp:{orders}:prioritized");
        expected.put("delayed", "bp:{orders}:delayed");
        expected.put("completed", "bp:{orders}:completed");
        expected.put("failed", "bp:{orders}:failed");
        expected.put("leases", "bp:{orders}:leases");
        expected.put("marker", "bp:{orders}:marker");
        expected.put("meta", "bp:{orders}:meta");
        expected.put("events", "bp:{orders}:events");
        expected.put("id", "bp:{orders}:id");
        expected.put("fence", "bp:{orders}:fence");
        expected.put("schedulers", "bp:{orders}:schedulers");
        expected.put("scheduler(s1)", "bp:{orders}:scheduler:s1");
        expected.put("schedulerPrefix", "bp:{orders}:scheduler:");
        expected.put("metrics(completed)", "bp:{orders}:metrics:completed");
        expected.put("metrics(failed)", "bp:{orders}:metrics:failed");
        expected.put("jobPrefix", "bp:{orders}:job:");
        expected.put("job(42)", "bp:{orders}:job:42");
        expected.put("logs(42)", "bp:{orders}:job:42:logs");
        expected.put("workers", "bp:{orders}:workers");
        expected.put("workersSeen", "bp:{orders}:workers:seen");
        expected.put("registry", "bp:queues");
        expected.put("stateKey(WAITING)", "bp:{orders}:wait");
        expected.put("stateKey(PRIORITIZED)", "bp:{orders}:prioritized");
        expected.put("stateKey(DELAYED)", "bp:{orders}:delayed");
        expected.put("stateKey(ACTIVE)", "bp:{orders}:leases");
        expected.put("stateKey(WAITING_CHILDREN)", "bp:{orders}:waiting-children");
        expected.put("stateKey(COMPLETED)", "bp:{orders}:completed");
        expected.put("stateKey(FAILED)", "bp:{orders}:failed");

        assertThat(everyKey(new KeyScheme("bp", "orders"))).containsExactlyEntriesOf(expected);
        // Naming the default tag explicitly is the same scheme.
        assertThat(everyKey(KeyScheme.of("bp", "orders", "orders"))).containsExactlyEntriesOf(expected);
        KeyScheme k = new KeyScheme("bp", "orders");
        assertThat(List.of(k.prefix(), k.queue(), k.tag())).containsExactly("bp", "orders", "orders");
        assertThat(k.hasDefaultTag()).isTrue();
    }

    @Test
    void anotherTagPutsTheQueueNameInBracesAfterTheTag() {
        KeyScheme tagged = KeyScheme.of("app:bp", "orders", "flow-7");
        Map<String, String> keys = everyKey(tagged);

        assertThat(List.of(tagged.prefix(), tagged.queue(), tagged.tag())).containsExactly("app:bp", "orders", "flow-7");
        assertThat(tagged.hasDefaultTag()).isFalse();
        assertThat(keys).contains(entry("base", "app:bp:{flow-7}:{orders}:"),
                entry("waitList", "app:bp:{flow-7}:{orders}:wait"), entry("job(42)", "app:bp:{flow-7}:{orders}:job:42"),
                entry("scheduler(s1)", "app:bp:{flow-7}:{orders}:scheduler:s1"),
                entry("metrics(failed)", "app:bp:{flow-7}:{orders}:metrics:failed"), entry("registry", "app:bp:queues"));
        keys.forEach((method, key) -> {
            if (!method.equals("registry")) {
                assertThat(key).as(method).startsWith(tagged.base());
                assertThat(slot(key)).as(method).isEqualTo(slot("flow-7"));
            }
        });
    }

    @Test
    void queuesSharingATagShareTheSlotButNoKey() {
        KeyScheme orders = KeyScheme.of("bp", "orders", "flow-7");
        KeyScheme emails = KeyScheme.of("bp", "emails", "flow-7");

        assertThat(slot(orders.waitList())).isEqualTo(slot(emails.waitList()));
        assertThat(everyKey(orders).values()).filteredOn(key -> !key.equals(orders.registry()))
                .doesNotContainAnyElementsOf(everyKey(emails).values());
    }

    @Test
    void aTaggedQueueNeverCollidesWithTheQueueNamedLikeItsTag() {
        // Spelled bp:{orders}:job:wait, queue "job" under tag "orders" would be job "wait" of queue "orders".
        KeyScheme plain = new KeyScheme("bp", "orders");
        KeyScheme tagged = KeyScheme.of("bp", "job", "orders");

        assertThat(tagged.waitList()).isEqualTo("bp:{orders}:{job}:wait").isNotEqualTo(plain.job("wait"));
        // No key of the default layout has a brace after its base; every tagged key does.
        assertThat(everyKey(plain).values()).noneMatch(key -> key.startsWith(plain.base() + "{"));
        assertThat(everyKey(tagged).values()).filteredOn(key -> !key.equals(tagged.registry()))
                .allMatch(key -> key.startsWith(plain.base() + "{"));
    }

    @Test
    void scriptsCanRebuildTheBaseFromTheJobPrefix() {
        // The fetch and scheduler scripts take jobPrefix and build base .. "schedulers" and
        // base .. "scheduler:" .. id from it (base = jobPrefix without its last 4 characters).
        for (KeyScheme keys : List.of(new KeyScheme("bp", "orders"), KeyScheme.of("bp", "orders", "flow-7"))) {
            String luaBase = keys.jobPrefix().substring(0, keys.jobPrefix().length() - "job:".length());
            assertThat(luaBase).isEqualTo(keys.base());
            assertThat(luaBase + "schedulers").isEqualTo(keys.schedulers());
            assertThat(luaBase + "scheduler:" + "s1").isEqualTo(keys.scheduler("s1"));
            assertThat(keys.schedulerPrefix() + "s1").isEqualTo(keys.scheduler("s1"));
        }
    }

    @Test
    void badTagsAreRejectedNamingTheTag() {
        assertThatThrownBy(() -> KeyScheme.of("bp", "orders", "a}b")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("hash tag").hasMessageContaining("a}b");
        assertThatThrownBy(() -> KeyScheme.of("bp", "orders", "a:b")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("hash tag").hasMessageContaining("a:b");
        assertThatThrownBy(() -> KeyScheme.of("bp", "orders", "")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("hash tag");
        assertThatThrownBy(() -> KeyScheme.of("bp", "orders", null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("hash tag");
    }

    /** Every key method of a scheme, by name, in a fixed order. */
    private static Map<String, String> everyKey(KeyScheme k) {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("base", k.base());
        keys.put("waitList", k.waitList());
        keys.put("prioritized", k.prioritized());
        keys.put("delayed", k.delayed());
        keys.put("completed", k.completed());
        keys.put("failed", k.failed());
        keys.put("leases", k.leases());
        keys.put("marker", k.marker());
        keys.put("meta", k.meta());
        keys.put("events", k.events());
        keys.put("id", k.id());
        keys.put("fence", k.fence());
        keys.put("schedulers", k.schedulers());
        keys.put("scheduler(s1)", k.scheduler("s1"));
        keys.put("schedulerPrefix", k.schedulerPrefix());
        keys.put("metrics(completed)", k.metrics("completed"));
        keys.put("metrics(failed)", k.metrics("failed"));
        keys.put("jobPrefix", k.jobPrefix());
        keys.put("job(42)", k.job("42"));
        keys.put("logs(42)", k.logs("42"));
        keys.put("workers", k.workers());
        keys.put("workersSeen", k.workersSeen());
        keys.put("registry", k.registry());
        for (JobState state : JobState.values()) {
            if (state != JobState.UNKNOWN) {
                keys.put("stateKey(" + state + ")", k.stateKey(state));
            }
        }
        return keys;
    }

    @Test
    void eachStoredStateMapsToItsKeyAndActiveToTheLeases() {
        for (JobState state : JobState.values()) {
            if (state != JobState.UNKNOWN) {
                assertThat(k.stateKey(state)).as(state.label()).isEqualTo("bp:{orders}:" + state.key());
            }
        }
        assertThat(k.stateKey(JobState.ACTIVE)).isEqualTo(k.leases()).isEqualTo("bp:{orders}:leases");
        assertThat(k.stateKey(JobState.WAITING)).isEqualTo(k.waitList());
    }

    @Test
    void everyKeyOfAQueueHashesToTheSameClusterSlot() {
        for (String queue : List.of("orders", "a", "emails-eu.v2", "x_y")) {
            KeyScheme keys = new KeyScheme("bp", queue);
            List<String> all = new ArrayList<>(List.of(keys.waitList(), keys.prioritized(), keys.delayed(),
                    keys.completed(), keys.failed(), keys.leases(), keys.marker(), keys.meta(), keys.events(), keys.id(),
                    keys.fence(), keys.schedulers(), keys.job("1"), keys.logs("1"), keys.job("custom-id"),
                    keys.workers(), keys.workersSeen()));
            int slot = slot(queue);
            assertThat(all).allSatisfy(key -> assertThat(slot(key)).as(key).isEqualTo(slot));
        }
    }

    @Test
    void differentQueuesUsuallyLandInDifferentSlots() {
        assertThat(slot(new KeyScheme("bp", "orders").waitList())).isNotEqualTo(slot(new KeyScheme("bp", "emails").waitList()));
    }

    @Test
    void stateUnknownHasNoKey() {
        assertThatThrownBy(() -> k.stateKey(JobState.UNKNOWN)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void illegalNamesAreRejectedBeforeAnyKeyIsFormed() {
        assertThatThrownBy(() -> new KeyScheme("bp", "a{b")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a{b");
        assertThatThrownBy(() -> new KeyScheme("b p", "a")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void crc16MatchesTheRedisClusterSpecVector() {
        // From the Redis Cluster specification: CRC16 of "123456789" is 0x31C3.
        assertThat(crc16("123456789".getBytes(StandardCharsets.US_ASCII))).isEqualTo(0x31C3);
    }

    /** Redis Cluster's HASH_SLOT: CRC16 of the hash tag (first {...} with content) mod 16384. */
    static int slot(String key) {
        int open = key.indexOf('{');
        if (open >= 0) {
            int close = key.indexOf('}', open + 1);
            if (close > open + 1) {
                key = key.substring(open + 1, close);
            }
        }
        return crc16(key.getBytes(StandardCharsets.UTF_8)) % 16384;
    }

    static int crc16(byte[] bytes) {
        int crc = 0;
        for (byte b : bytes) {
            crc ^= (b & 0xff) << 8;
            for (int i = 0; i < 8; i++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
                crc &= 0xffff;
            }
        }
        return crc;
    }
}
