package io.bullpen.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ValidationTest {

    @Nested
    class QueueNames {

        @ParameterizedTest
        @ValueSource(strings = {"orders", "orders-eu.v2", "a", "emails_2024", "Ünïcödé", "queue/with/slashes"})
        void acceptsPlainNames(String name) {
            assertThat(Validation.queueName(name)).isSameAs(name);
        }

        @Test
        void acceptsExactly256Characters() {
            String name = "q".repeat(256);

            assertThat(Validation.queueName(name)).isSameAs(name);
        }

        @Test
        void rejectsNull() {
            assertThatThrownBy(() -> Validation.queueName(null))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessage("queue name must not be null");
        }

        @Test
        void rejectsEmpty() {
            assertThatThrownBy(() -> Validation.queueName(""))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("queue name must not be empty");
        }

        @Test
        void rejects257CharactersShowingTheStartAndTheLength() {
            assertThatThrownBy(() -> Validation.queueName("q".repeat(257)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("queue name must be at most 256 characters but was \""
                            + "q".repeat(40) + "...\" (257 characters)");
        }

        @Test
        void rejectsBracesBecauseTheNameIsTheRedisHashTag() {
            assertThatThrownBy(() -> Validation.queueName("a{b"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("queue name must not contain '{' but was \"a{b\"");
            assertThatThrownBy(() -> Validation.queueName("a}b"))
                    .hasMessage("queue name must not contain '}' but was \"a}b\"");
        }

        @Test
        void rejectsTheKeySeparatorColon() {
            assertThatThrownBy(() -> Validation.queueName("a:b"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("queue name must not contain ':' but was \"a:b\"");
        }

        @Test
        void rejectsWhitespaceShowingItEscaped() {
            assertThatThrownBy(() -> Validation.queueName("a b"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("queue name must not contain whitespace but was \"a b\"");
            assertThatThrownBy(() -> Validation.queueName("a\tb"))
                    .hasMessage("queue name must not contain whitespace but was \"a\\tb\"");
            assertThatThrownBy(() -> Validation.queueName("a\nb"))
                    .hasMessage("queue name must not contain whitespace but was \"a\\nb\"");
            assertThatThrownBy(() -> Validation.queueName("a\u00a0b"))
                    .hasMessageStartingWith("queue name must not contain whitespace");
        }

        @Test
        void rejectsControlCharacters() {
            assertThatThrownBy(() -> Validation.queueName("a\u0001b"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("queue name must not contain control characters but was \"a\\u0001b\"");
        }
    }

    @Nested
    class JobIds {

        @ParameterizedTest
        @ValueSource(strings = {"order-123", "a", "123abc", "x1", "1.5", "-1", "uuid-5f0c3a1e"})
        void acceptsIdsThatAreNotAllDigits(String id) {
            assertThat(Validation.jobId(id)).isSameAs(id);
        }

        @ParameterizedTest
        @ValueSource(strings = {"123", "0", "007"})
        void rejectsAllDigitIdsWhichAreReservedForAutomaticIds(String id) {
            assertThatThrownBy(() -> Validation.jobId(id))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("job id \"" + id + "\" must not be all digits")
                    .hasMessageContaining("reserved for automatic ids");
        }

        @Test
        void allowsNonAsciiDigitsBecauseTheCounterOnlyProducesAsciiOnes() {
            assertThat(Validation.jobId("١٢٣")).isEqualTo("١٢٣");
        }

        @Test
        void followsTheQueueNameRules() {
            assertThatThrownBy(() -> Validation.jobId(null))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessage("job id must not be null");
            assertThatThrownBy(() -> Validation.jobId(""))
                    .hasMessage("job id must not be empty");
            assertThatThrownBy(() -> Validation.jobId("j".repeat(257)))
                    .hasMessage("job id must be at most 256 characters but was \"" + "j".repeat(40)
                            + "...\" (257 characters)");
            assertThatThrownBy(() -> Validation.jobId("a{b")).hasMessage("job id must not contain '{' but was \"a{b\"");
            assertThatThrownBy(() -> Validation.jobId("a}b")).hasMessage("job id must not contain '}' but was \"a}b\"");
            assertThatThrownBy(() -> Validation.jobId("a:b")).hasMessage("job id must not contain ':' but was \"a:b\"");
            assertThatThrownBy(() -> Validation.jobId("a b"))
                    .hasMessage("job id must not contain whitespace but was \"a b\"");
            assertThatThrownBy(() -> Validation.jobId("a\tb"))
                    .hasMessage("job id must not contain whitespace but was \"a\\tb\"");
        }
    }

    @Nested
    class Prefixes {

        @ParameterizedTest
        @ValueSource(strings = {"bp", "app:bp", "my-app.bullpen"})
        void acceptsPrefixesIncludingColons(String prefix) {
            assertThat(Validation.prefix(prefix)).isSameAs(prefix);
        }

        @Test
        void rejectsEmptyOverlongBracedOrSpacedPrefixes() {
            assertThatThrownBy(() -> Validation.prefix(null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> Validation.prefix("")).hasMessage("prefix must not be empty");
            assertThat(Validation.prefix("p".repeat(64))).hasSize(64);
            assertThatThrownBy(() -> Validation.prefix("p".repeat(65)))
                    .hasMessageStartingWith("prefix must be at most 64 characters but was");
            assertThatThrownBy(() -> Validation.prefix("b{p}")).hasMessage("prefix must not contain '{' but was \"b{p}\"");
            assertThatThrownBy(() -> Validation.prefix("b p"))
                    .hasMessage("prefix must not contain whitespace but was \"b p\"");
        }
    }

    @Nested
    class Durations {

        @Test
        void formatsDurationsAsMilliseconds() {
            assertThat(Validation.millis(Duration.ofMillis(-5))).isEqualTo("-5ms");
            assertThat(Validation.millis(Duration.ofMillis(1500))).isEqualTo("1500ms");
            assertThat(Validation.millis(Duration.ZERO)).isEqualTo("0ms");
            assertThat(Validation.millis(Duration.ofNanos(-1))).isEqualTo("-0.000001ms");
            assertThat(Validation.millis(Duration.ofNanos(1_500_000))).isEqualTo("1.5ms");
            assertThat(Validation.millis(Duration.ofSeconds(Long.MAX_VALUE))).isEqualTo("9223372036854775807000ms");
            assertThat(Validation.millis(null)).isEqualTo("null");
        }

        @Test
        void nonNegativeAcceptsZeroAndRejectsNegativeOrNull() {
            Validation.nonNegative("delay", Duration.ZERO);

            assertThatThrownBy(() -> Validation.nonNegative("delay", Duration.ofMillis(-5)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("delay must be >= 0 but was -5ms");
            assertThatThrownBy(() -> Validation.nonNegative("delay", Duration.ofNanos(-1)))
                    .hasMessage("delay must be >= 0 but was -0.000001ms");
            assertThatThrownBy(() -> Validation.nonNegative("delay", null))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessage("delay must not be null");
            assertThatThrownBy(() -> Validation.nonNegative("delay", Duration.ofSeconds(Long.MAX_VALUE)))
                    .hasMessage("delay must fit in a long of milliseconds but was 9223372036854775807000ms");
        }

        @Test
        void positiveNeedsAtLeastOneMillisecond() {
            Validation.positive("timeout", Duration.ofMillis(1));

            assertThatThrownBy(() -> Validation.positive("timeout", Duration.ZERO))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("timeout must be > 0 but was 0ms");
            assertThatThrownBy(() -> Validation.positive("timeout", Duration.ofNanos(999_999)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("timeout must be at least 1ms but was 0.999999ms");
        }
    }

    @Nested
    class Numbers {

        @Test
        void boundsNameTheValue() {
            assertThatThrownBy(() -> Validation.atLeast("attempts", 0, 1))
                    .hasMessage("attempts must be >= 1 but was 0");
            assertThatThrownBy(() -> Validation.between("priority", -1, 0, 2_097_152))
                    .hasMessage("priority must be between 0 and 2097152 but was -1");
        }

        @Test
        void wholeNumberAcceptsEveryIntegralFormJacksonProduces() {
            assertThat(Validation.wholeNumber("n", 5)).isEqualTo(5);
            assertThat(Validation.wholeNumber("n", 5L)).isEqualTo(5);
            assertThat(Validation.wholeNumber("n", 5.0)).isEqualTo(5);
            assertThat(Validation.wholeNumber("n", BigInteger.valueOf(5))).isEqualTo(5);
            assertThat(Validation.wholeNumber("n", new BigDecimal("5.00"))).isEqualTo(5);
            assertThat(Validation.wholeNumber("n", Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
        }

        @Test
        void wholeNumberRejectsFractionsOverflowAndNonNumbers() {
            assertThatThrownBy(() -> Validation.wholeNumber("n", 1.5))
                    .hasMessage("n must be a whole number but was 1.5 (Double)");
            assertThatThrownBy(() -> Validation.wholeNumber("n", 1e19))
                    .hasMessage("n must be a whole number but was 1.0E19 (Double)");
            assertThatThrownBy(() -> Validation.wholeNumber("n", Double.NaN))
                    .hasMessage("n must be a whole number but was NaN (Double)");
            assertThatThrownBy(() -> Validation.wholeNumber("n", BigInteger.TWO.pow(64)))
                    .hasMessage("n must be a whole number but was 18446744073709551616 (BigInteger)");
            assertThatThrownBy(() -> Validation.wholeNumber("n", "5"))
                    .hasMessage("n must be a whole number but was \"5\" (String)");
            assertThatThrownBy(() -> Validation.intNumber("n", 1L << 40))
                    .hasMessage("n must fit in an int but was 1099511627776");
        }
    }
}
