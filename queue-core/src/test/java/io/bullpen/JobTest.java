package io.bullpen;

import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.internal.JsonCodec;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A job snapshot rebuilt from its hash, and the copy a worker hands its listeners. */
class JobTest {
    record Order(String id) {
    }

    @Test
    void withAttemptsMadeReplacesOrAddsTheFieldAndLeavesTheRest() {
        Map<String, String> hash = new LinkedHashMap<>();
        hash.put("name", "charge");
        hash.put("data", "{\"id\":\"A-1\"}");
        hash.put("timestamp", "1700000000000");
        Job<Order> fresh = Job.fromHash("7", hash, JsonCodec.type(Order.class));

        Job<Order> added = fresh.withAttemptsMade(1);
        Job<Order> replaced = added.withAttemptsMade(2);

        assertThat(fresh.attemptsMade()).isZero();
        assertThat(added.attemptsMade()).isEqualTo(1);
        assertThat(replaced.attemptsMade()).isEqualTo(2);
        assertThat(replaced.rawFields()).hasSize(4).containsEntry("atm", "2").containsEntry("name", "charge")
                .containsEntry("timestamp", "1700000000000");
        assertThat(replaced.data()).isSameAs(fresh.data()).isEqualTo(new Order("A-1"));
        assertThat(fresh.rawFields()).doesNotContainKey("atm");
    }
}
