package io.bullpen.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.Objects;

/**
 * Argument checks shared by the public API, each failing with a message that names the bad value
 * ("delay must be >= 0 but was -5ms").
 *
 * <p>Nulls fail with {@link NullPointerException}, every other bad value with
 * {@link IllegalArgumentException}. The {@code number} helpers read values from option
 * descriptions decoded by Jackson, which may hold any {@link Number} type.
 */
public final class Validation {

    /** Longest accepted queue name or custom job id. */
    public static final int MAX_NAME_LENGTH = 256;

    /** Longest accepted key prefix. */
    public static final int MAX_PREFIX_LENGTH = 64;

    // Long values are cut in messages so a pasted document never floods a log line.
    private static final int SHOWN_CHARS = 40;

    private Validation() {
    }

    /**
     * Checks a queue name: non-empty, at most {@value #MAX_NAME_LENGTH} characters, without
     * {@code { } :}, whitespace or control characters (the name sits inside a Redis hash tag
     * and between {@code :} separators of every key).
     *
     * @param name the queue name
     * @return {@code name}, for use in field assignments
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if the name breaks a rule; the message quotes it
     */
    public static String queueName(String name) {
        return keySegment("queue name", name, MAX_NAME_LENGTH, true);
    }

    /**
     * Checks a custom job id: the rules of {@link #queueName(String)}, and additionally not all
     * ASCII digits, because numeric ids are reserved for the automatic id counter and a custom
     * "42" would collide with the 42nd automatic job.
     *
     * @param id the job id chosen by the caller
     * @return {@code id}
     * @throws NullPointerException if {@code id} is null
     * @throws IllegalArgumentException if the id breaks a rule; the message quotes it
     */
    public static String jobId(String id) {
        keySegment("job id", id, MAX_NAME_LENGTH, true);
        if (isAsciiDigits(id)) {
            throw new IllegalArgumentException("job id " + quote(id)
                    + " must not be all digits: numeric ids are reserved for automatic ids,"
                    + " use a prefix such as \"order-" + shorten(id) + "\"");
        }
        return id;
    }

    /**
     * Checks a group name: 1-128 characters, no control characters (a group name is part of its
     * Redis keys, after the queue's hash tag, so braces and colons are fine).
     *
     * @param group the group name
     * @return {@code group}
     * @throws NullPointerException if {@code group} is null
     * @throws IllegalArgumentException if the name breaks a rule; the message quotes it
     */
    public static String groupName(String group) {
        Objects.requireNonNull(group, "group");
        if (group.isEmpty() || group.length() > 128) {
            throw new IllegalArgumentException("group " + quote(group) + " must be 1-128 characters long but has "
                    + group.length());
        }
        for (int i = 0; i < group.length(); i++) {
            if (Character.isISOControl(group.charAt(i))) {
                throw new IllegalArgumentException("group " + quote(group) + " must not contain control characters");
            }
        }
        return group;
    }

    /**
     * Checks a key prefix: non-empty, at most {@value #MAX_PREFIX_LENGTH} characters, without
     * braces, whitespace or control characters. Unlike a queue name it may contain {@code :}, so
     * prefixes such as {@code "app:bp"} namespace several applications on one Redis.
     *
     * @param prefix the key prefix
     * @return {@code prefix}
     * @throws NullPointerException if {@code prefix} is null
     * @throws IllegalArgumentException if the prefix breaks a rule; the message quotes it
     */
    public static String prefix(String prefix) {
        return keySegment("prefix", prefix, MAX_PREFIX_LENGTH, false);
    }

    /**
     * Checks a hash tag (what a queue's keys carry between braces, see {@link KeyScheme}): the
     * rules of {@link #queueName(String)}, since a queue's default tag is its name.
     *
     * @param tag the hash tag, without braces
     * @return {@code tag}
     * @throws NullPointerException if {@code tag} is null
     * @throws IllegalArgumentException if the tag breaks a rule; the message quotes it
     */
    public static String hashTag(String tag) {
        return keySegment("hash tag", tag, MAX_NAME_LENGTH, true);
    }

    /**
     * Checks that a duration is present and not negative.
     *
     * @param what the name used in the message, e.g. {@code "delay"}
     * @param duration the value to check
     * @throws NullPointerException if {@code duration} is null
     * @throws IllegalArgumentException if it is negative or too large to count in milliseconds
     */
    public static void nonNegative(String what, Duration duration) {
        Objects.requireNonNull(duration, () -> what + " must not be null");
        if (duration.isNegative()) {
            throw new IllegalArgumentException(what + " must be >= 0 but was " + millis(duration));
        }
        toMillis(what, duration);
    }

    /**
     * Checks that a duration is present and at least one millisecond (the precision of every
     * stored time).
     *
     * @param what the name used in the message, e.g. {@code "timeout"}
     * @param duration the value to check
     * @throws NullPointerException if {@code duration} is null
     * @throws IllegalArgumentException if it is shorter than 1ms or too large
     */
    public static void positive(String what, Duration duration) {
        Objects.requireNonNull(duration, () -> what + " must not be null");
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(what + " must be > 0 but was " + millis(duration));
        }
        if (toMillis(what, duration) == 0) {
            throw new IllegalArgumentException(
                    what + " must be at least 1ms but was " + millis(duration));
        }
    }

    /**
     * Converts a duration to whole milliseconds, rounding down.
     *
     * @param what the name used in the message
     * @param duration a non-null duration
     * @return the duration in milliseconds
     * @throws IllegalArgumentException if it does not fit in a {@code long} of milliseconds
     */
    public static long toMillis(String what, Duration duration) {
        try {
            return duration.toMillis();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(what + " must fit in a long of milliseconds but was "
                    + millis(duration));
        }
    }

    /**
     * Checks an int lower bound.
     *
     * @param what the name used in the message, e.g. {@code "attempts"}
     * @param value the value to check
     * @param min the smallest allowed value
     * @throws IllegalArgumentException if {@code value < min}
     */
    public static void atLeast(String what, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(what + " must be >= " + min + " but was " + value);
        }
    }

    /**
     * Checks an inclusive range.
     *
     * @param what the name used in the message, e.g. {@code "priority"}
     * @param value the value to check
     * @param min the smallest allowed value
     * @param max the largest allowed value
     * @throws IllegalArgumentException if {@code value} is outside {@code [min, max]}
     */
    public static void between(String what, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(
                    what + " must be between " + min + " and " + max + " but was " + value);
        }
    }

    /**
     * Formats a duration as milliseconds for messages: {@code "-5ms"}, {@code "1500ms"}. A
     * sub-millisecond part is shown as a fraction ({@code "-0.000001ms"}) rather than rounded
     * away, so the message shows the value as given.
     *
     * @param duration the duration, may be null
     * @return the formatted duration, or {@code "null"}
     */
    public static String millis(Duration duration) {
        if (duration == null) {
            return "null";
        }
        // Exact arithmetic: Duration.toMillis() truncates -1ns to 0 and overflows on huge values.
        BigDecimal ms = BigDecimal.valueOf(duration.getSeconds()).scaleByPowerOfTen(3)
                .add(BigDecimal.valueOf(duration.getNano(), 6));
        return (ms.signum() == 0 ? "0" : ms.stripTrailingZeros().toPlainString()) + "ms";
    }

    /**
     * Reads a whole number from a decoded description, accepting any integral {@link Number}
     * (Jackson yields Integer, Long or BigInteger) and a Double or BigDecimal without a
     * fractional part.
     *
     * @param what the name used in the message, e.g. {@code "backoff delay"}
     * @param value the decoded value
     * @return the value as a long
     * @throws NullPointerException if {@code value} is null
     * @throws IllegalArgumentException if it is not a number, has a fraction or exceeds a long
     */
    public static long wholeNumber(String what, Object value) {
        Objects.requireNonNull(value, () -> what + " must not be null");
        if (value instanceof Long || value instanceof Integer
                || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        try {
            if (value instanceof BigInteger big) {
                return big.longValueExact();
            }
            if (value instanceof BigDecimal big) {
                return big.longValueExact();
            }
        } catch (ArithmeticException e) {
            throw notWholeNumber(what, value);
        }
        if (value instanceof Number number) {
            double d = number.doubleValue();
            // 2^63 itself is representable as a double but not as a long.
            if (d != Math.rint(d) || Double.isInfinite(d) || Math.abs(d) >= 0x1p63) {
                throw notWholeNumber(what, value);
            }
            return (long) d;
        }
        throw notWholeNumber(what, value);
    }

    /**
     * Reads a whole number that must fit in an int, as {@link #wholeNumber(String, Object)}.
     *
     * @param what the name used in the message
     * @param value the decoded value
     * @return the value as an int
     * @throws NullPointerException if {@code value} is null
     * @throws IllegalArgumentException if it is not a whole number in int range
     */
    public static int intNumber(String what, Object value) {
        long n = wholeNumber(what, value);
        if (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(what + " must fit in an int but was " + n);
        }
        return (int) n;
    }

    /**
     * Reads any number from a decoded description.
     *
     * @param what the name used in the message, e.g. {@code "backoff jitter"}
     * @param value the decoded value
     * @return the value as a double
     * @throws NullPointerException if {@code value} is null
     * @throws IllegalArgumentException if it is not a number
     */
    public static double number(String what, Object value) {
        Objects.requireNonNull(value, () -> what + " must not be null");
        if (value instanceof Number number) {
            return number.doubleValue();
        }
        throw new IllegalArgumentException(what + " must be a number but was " + show(value));
    }

    /**
     * Quotes a value for a message, escaping control characters and cutting a long value to its
     * first 40 characters plus its length.
     *
     * @param value the value, may be null
     * @return e.g. {@code "a\tb"} with the quotes, or {@code null}
     */
    public static String quote(String value) {
        if (value == null) {
            return "null";
        }
        if (value.length() <= SHOWN_CHARS) {
            return '"' + escape(value) + '"';
        }
        return '"' + escape(value.substring(0, SHOWN_CHARS)) + "...\" (" + value.length()
                + " characters)";
    }

    private static String keySegment(String what, String value, int maxLength, boolean colonIsBad) {
        Objects.requireNonNull(value, () -> what + " must not be null");
        if (value.isEmpty()) {
            throw new IllegalArgumentException(what + " must not be empty");
        }
        if (value.length() > maxLength) {
            throw new IllegalArgumentException(what + " must be at most " + maxLength
                    + " characters but was " + quote(value));
        }
        for (int i = 0; i < value.length(); ) {
            int cp = value.codePointAt(i);
            if (cp == '{' || cp == '}' || (colonIsBad && cp == ':')) {
                throw new IllegalArgumentException(what + " must not contain '" + (char) cp
                        + "' but was " + quote(value));
            }
            // Whitespace first: a tab is also a control character, but "whitespace" says more.
            if (Character.isWhitespace(cp) || Character.isSpaceChar(cp)) {
                throw new IllegalArgumentException(
                        what + " must not contain whitespace but was " + quote(value));
            }
            if (Character.isISOControl(cp)) {
                throw new IllegalArgumentException(
                        what + " must not contain control characters but was " + quote(value));
            }
            i += Character.charCount(cp);
        }
        return value;
    }

    private static boolean isAsciiDigits(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static String shorten(String value) {
        return value.length() <= SHOWN_CHARS ? value : value.substring(0, SHOWN_CHARS) + "...";
    }

    private static String escape(String value) {
        StringBuilder out = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (Character.isISOControl(c)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }

    private static IllegalArgumentException notWholeNumber(String what, Object value) {
        return new IllegalArgumentException(
                what + " must be a whole number but was " + show(value));
    }

    private static String show(Object value) {
        String type = value.getClass().getSimpleName();
        return (value instanceof String s ? quote(s) : String.valueOf(value)) + " (" + type + ")";
    }
}
