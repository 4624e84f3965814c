package io.bullpen.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import io.bullpen.Backoff;
import io.bullpen.JobOptions;
import io.bullpen.Retention;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonCodecTest {
    record Order(String id, Instant createdAt, List<String> items) {
    }

    @Test
    void dataRoundTripsIncludingJavaTimeAndGenerics() {
        Order order = new Order("A-1", Instant.parse("2026-11-21T10:15:30Z"), List.of("x", "y"));

        String json = JsonCodec.encodeData(order, 1024);

        assertThat(json).contains("\"2026-11-21T10:15:30Z\"");
        assertThat(JsonCodec.<Order>decode(json, JsonCodec.type(Order.class))).isEqualTo(order);
        List<Order> list = JsonCodec.decode("[" + json + "]", JsonCodec.type(new TypeReference<List<Order>>() { }));
        assertThat(list).containsExactly(order);
    }

    @Test
    void unknownPropertiesAreToleratedOnRead() {
        Order read = JsonCodec.decode("{\"id\":\"A\",\"addedLater\":true}", JsonCodec.type(Order.class));

        assertThat(read.id()).isEqualTo("A");
    }

    @Test
    void payloadOverTheCapIsRejectedWithItsSize() {
        String big = "é".repeat(600);

        assertThatThrownBy(() -> JsonCodec.encodeData(big, 1000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1202 bytes").hasMessageContaining("1000");
    }

    static final class NotSerializable {
        public Object getSelf() {
            return this;
        }
    }

    static final class PrivateFieldsOnly {
        private final String id = "A-1";
    }

    @Test
    void dataJacksonSeesNoPropertyOfIsRejectedNamingTheClassAndTheJobNotWrittenAsAnEmptyObject() {
        assertThatThrownBy(() -> JsonCodec.encodeData("charge", new PrivateFieldsOnly(), 1000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("job data of type " + PrivateFieldsOnly.class.getName() + " for job \"charge\" cannot be "
                        + "serialized to JSON: " + PrivateFieldsOnly.class.getName() + " has no property Jackson can see "
                        + "(a public getter, a public field or a record component): its fields would be lost");
        assertThatThrownBy(() -> JsonCodec.encodeData("list", List.of(new PrivateFieldsOnly()), 1000))
                .hasMessageContaining("(at java.util.ImmutableCollections$List12[0])");
        assertThat(JsonCodec.encodeData("maps", Map.of(), 1000)).isEqualTo("{}");
    }

    @Test
    void unserialisableDataIsRejectedNamingItsType() {
        assertThatThrownBy(() -> JsonCodec.encodeData(new NotSerializable(), 1000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(NotSerializable.class.getName());
    }

    @Test
    void defaultOptionsAreStoredAsNothing() {
        assertThat(JsonCodec.encodeOptions(JobOptions.defaults())).isEmpty();
        assertThat(JsonCodec.decodeOptions("")).isEqualTo(JobOptions.defaults());
        assertThat(JsonCodec.decodeOptions(null)).isEqualTo(JobOptions.defaults());
    }

    @Test
    void optionsRoundTripThroughTheirStoredJson() {
        JobOptions options = JobOptions.builder().attempts(5).priority(3).delay(Duration.ofSeconds(2))
                .backoff(Backoff.exponential(Duration.ofSeconds(1)).maxDelay(Duration.ofMinutes(1)).jitter(0.5))
                .jobId("order-7").removeOnComplete(Retention.keepLast(100))
                .removeOnFail(Retention.keepFor(Duration.ofDays(7))).timeout(Duration.ofSeconds(30)).build();

        String json = JsonCodec.encodeOptions(options);

        assertThat(JsonCodec.decodeOptions(json)).isEqualTo(options);
        assertThat(JsonCodec.<Map<String, Object>>decode(json, JsonCodec.type(Map.class))).containsKeys("attempts", "backoff");
    }

    @Test
    void optionsReadAgainAndInTurnAreEachTheirOwn() {
        String three = JsonCodec.encodeOptions(JobOptions.builder().attempts(3).build());
        String five = JsonCodec.encodeOptions(JobOptions.builder().attempts(5).build());

        // The last options read are kept: the same JSON again, another, then the first again.
        assertThat(JsonCodec.decodeOptions(three).attempts()).isEqualTo(3);
        assertThat(JsonCodec.decodeOptions(three).attempts()).isEqualTo(3);
        assertThat(JsonCodec.decodeOptions(five).attempts()).isEqualTo(5);
        assertThat(JsonCodec.decodeOptions("").attempts()).isEqualTo(JobOptions.defaults().attempts());
        assertThat(JsonCodec.decodeOptions(three).attempts()).isEqualTo(3);
        assertThatThrownBy(() -> JsonCodec.decodeOptions("{\"attempts\":")).hasMessageContaining("cannot read job options");
    }

    @Test
    void eachTypeIsReadAsItselfThroughItsOwnReader() {
        // Two generic types with the same raw class must not share a reader.
        List<String> strings = JsonCodec.decode("[\"1\",\"2\"]", JsonCodec.type(new TypeReference<List<String>>() { }));
        List<Long> longs = JsonCodec.decode("[1,2]", JsonCodec.type(new TypeReference<List<Long>>() { }));

        assertThat(strings).containsExactly("1", "2");
        assertThat(longs).containsExactly(1L, 2L);
        assertThatThrownBy(() -> JsonCodec.decode("{\"id\":[1]}", JsonCodec.type(Order.class)))
                .hasMessageContaining("cannot read JSON as");
    }

    @Test
    void defaultTypingIsOff() {
        // A polymorphic type id in the payload must not pick the class that gets built.
        Object read = JsonCodec.decode("[\"java.util.HashMap\",{}]", JsonCodec.type(Object.class));

        assertThat(read).isInstanceOf(List.class);
    }
}
