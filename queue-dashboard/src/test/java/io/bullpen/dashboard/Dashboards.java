package io.bullpen.dashboard;

import java.util.List;
import java.util.stream.StreamSupport;

/** Starting dashboards for tests, and small JSON helpers. */
final class Dashboards {
    private Dashboards() {
    }

    /** Builds the dashboard on an ephemeral port and starts it; close it with try-with-resources. */
    static Dashboard start(Dashboard.Builder builder) {
        Dashboard d = builder.port(0).build();
        d.start();
        return d;
    }

    /** The field names of a JSON object, in the order sent. */
    static List<String> fields(com.fasterxml.jackson.databind.JsonNode node) {
        return StreamSupport.stream(((Iterable<String>) node::fieldNames).spliterator(), false).toList();
    }

    /** A compact JSON text written as readable text in a test: whitespace outside strings removed. */
    static String compact(String json) {
        StringBuilder out = new StringBuilder();
        boolean inString = false;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (c == '"' && (i == 0 || json.charAt(i - 1) != '\\')) {
                inString = !inString;
            }
            if (inString || !Character.isWhitespace(c)) {
                out.append(c);
            }
        }
        return out.toString();
    }
}
