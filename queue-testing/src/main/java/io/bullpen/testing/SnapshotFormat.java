package io.bullpen.testing;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.Map;
import java.util.StringJoiner;

/** Renders a {@link QueueSnapshot} as one line per key, for assertion messages. */
final class SnapshotFormat {

    private SnapshotFormat() {
    }

    static String format(QueueSnapshot snapshot, Map<String, KeyValue> keys) {
        StringBuilder out = new StringBuilder()
                .append("QueueSnapshot ").append(snapshot.keyPrefix()).append('*')
                .append(" (").append(keys.size()).append(keys.size() == 1 ? " key)" : " keys)");
        int width = keys.keySet().stream().mapToInt(String::length).max().orElse(0);
        for (Map.Entry<String, KeyValue> entry : keys.entrySet()) {
            KeyValue value = entry.getValue();
            out.append("\n  ").append(pad(entry.getKey(), width)).append("  ").append(pad(value.type(), 6))
                    .append("  ").append(render(value.value()));
            if (value.pttl() >= 0) {
                out.append("  (pttl ").append(value.pttl()).append(" ms)");
            }
        }
        return out.toString();
    }

    private static String pad(String text, int width) {
        return text.length() >= width ? text : text + " ".repeat(width - text.length());
    }

    private static String render(Object value) {
        if (value instanceof String text) {
            return '"' + text + '"';
        }
        if (value instanceof Map<?, ?> map) {
            StringJoiner joiner = new StringJoiner(", ", "{", "}");
            map.forEach((k, v) -> joiner.add(k + "=" + (v instanceof Double d ? score(d) : render(v))));
            return joiner.toString();
        }
        if (value instanceof Collection<?> items) {
            StringJoiner joiner = new StringJoiner(", ", "[", "]");
            items.forEach(item -> joiner.add(render(item)));
            return joiner.toString();
        }
        if (value instanceof StreamEntry entry) {
            return entry.id() + " " + render(entry.fields());
        }
        return String.valueOf(value);
    }

    /** Scores without exponent notation: a delayed score like 7.0e15 is easier to read as digits. */
    private static String score(double score) {
        if (Double.isNaN(score) || Double.isInfinite(score)) {
            return Double.toString(score);
        }
        return BigDecimal.valueOf(score).stripTrailingZeros().toPlainString();
    }
}
