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

    @Test
    void anAddedJobDecodesItsDataOnFirstReadAndKeepsThatObject() {
        Map<String, String> hash = Map.of("name", "charge", "data", "{\"id\":\"A-1\"}", "timestamp", "1700000000000");
        Job<Order> added = Job.added("7", hash, JobOptions.defaults(), JsonCodec.type(Order.class));

        Order first = added.data();

        assertThat(first).isEqualTo(new Order("A-1"));
        assertThat(added.data()).isSameAs(first);
        assertThat(added.withAttemptsMade(1).data()).isSameAs(first);
        assertThat(added.asDeduplicated().data()).isSameAs(first);
        assertThat(added.dataJson()).isEqualTo("{\"id\":\"A-1\"}");
    }

    @Test
    void anAddedJobCopiedBeforeItsDataWasReadDecodesItInTheCopy() {
        Map<String, String> hash = Map.of("name", "charge", "data", "{\"id\":\"A-2\"}", "timestamp", "1700000000000");
        Job<Order> added = Job.added("8", hash, JobOptions.defaults(), JsonCodec.type(Order.class));

        assertThat(added.withAttemptsMade(1).data()).isEqualTo(new Order("A-2"));
        assertThat(added.asDeduplicated().data()).isEqualTo(new Order("A-2"));
        assertThat(added.data()).isEqualTo(new Order("A-2"));
    }

    @Test
    void anAddedJobWhoseDataCannotBeReadFailsOnRead() {
        Map<String, String> hash = Map.of("name", "charge", "data", "[1]", "timestamp", "1700000000000");
        Job<Order> added = Job.added("9", hash, JobOptions.defaults(), JsonCodec.type(Order.class));

        org.assertj.core.api.Assertions.assertThatThrownBy(added::data).isInstanceOf(BullpenException.class)
                .hasMessageStartingWith("cannot read the data of job 9");
    }
}
