package io.bullpen.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ShardedJobIdTest {

    @ParameterizedTest
    @ValueSource(strings = {"1", "42", "order-7", "repeat-s-1700000000000"})
    void todaysIdsAreShardZeroIdsWrittenAsTheyAre(String id) {
        ShardedJobId parsed = ShardedJobId.parse(id);

        assertThat(parsed).isEqualTo(new ShardedJobId(0, id));
        assertThat(parsed.text()).isEqualTo(id);
    }

    @ParameterizedTest
    @CsvSource({"3, 42, 3:42", "1, order-7, 1:order-7", "16383, 1, 16383:1"})
    void anotherShardIsWrittenBeforeTheIdAndReadBack(int shard, String id, String text) {
        ShardedJobId sharded = new ShardedJobId(shard, id);

        assertThat(sharded.text()).isEqualTo(text).isEqualTo(sharded.toString());
        assertThat(ShardedJobId.parse(text)).isEqualTo(sharded);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ":42", "3:", "0:42", "03:42", "-1:42", "+1:42", "x:42", "16384:42", "99999999999:1", "1:2:3"})
    void onlyTheCanonicalTextIsAccepted(String text) {
        assertThatThrownBy(() -> ShardedJobId.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(text.isEmpty() ? "\"\"" : text);
    }

    @Test
    void valuesOutsideTheFormAreRejected() {
        assertThatThrownBy(() -> new ShardedJobId(-1, "a")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
        assertThatThrownBy(() -> new ShardedJobId(ShardedJobId.MAX_SHARDS, "a")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("16384");
        assertThatThrownBy(() -> new ShardedJobId(1, "a:b")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a:b");
        assertThatThrownBy(() -> new ShardedJobId(1, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> ShardedJobId.parse(null)).isInstanceOf(NullPointerException.class);
    }
}
