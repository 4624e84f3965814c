package io.bullpen.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bullpen.JobState;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeySchemeTest {
    private final KeyScheme k = new KeyScheme("bp", "orders");

    @Test
    void keysFollowTheDocumentedLayout() {
        assertThat(k.waitList()).isEqualTo("bp:{orders}:wait");
        assertThat(k.job("42")).isEqualTo("bp:{orders}:job:42");
        assertThat(k.lock("42")).isEqualTo("bp:{orders}:job:42:lock");
        assertThat(k.logs("42")).isEqualTo("bp:{orders}:job:42:logs");
        assertThat(k.jobPrefix()).isEqualTo("bp:{orders}:job:");
        assertThat(k.registry()).isEqualTo("bp:queues");
        assertThat(k.stateKey(JobState.COMPLETED)).isEqualTo("bp:{orders}:completed");
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
                    keys.fence(), keys.schedulers(), keys.job("1"), keys.lock("1"), keys.logs("1"), keys.job("custom-id")));
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
