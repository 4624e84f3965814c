package io.bullpen.dashboard;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import io.bullpen.JobState;
import io.bullpen.internal.Validation;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/** Reads and checks request values; a bad one is a 400 whose message names it. */
final class Params {
    /** The most jobs one page may hold. */
    static final int MAX_PAGE = 100;
    /** Reads a search value; no default typing, like every mapper of Bullpen. */
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String STATES = Arrays.stream(JobState.values())
            .filter(s -> s != JobState.UNKNOWN)
            .map(JobState::label)
            .collect(Collectors.joining(", "));

    private Params() {
    }

    /** A stored job state from the {@code state} query parameter (required). */
    static JobState state(Request request) {
        String label = request.query("state").orElseThrow(() ->
                HttpError.badRequest("state is required: one of " + STATES));
        for (JobState s : JobState.values()) {
            if (s != JobState.UNKNOWN && s.label().equals(label)) {
                return s;
            }
        }
        throw HttpError.badRequest("state must be one of " + STATES + " but was " + quote(label));
    }

    /** A whole number from a query parameter, {@code absent} when missing, at least {@code min}. */
    static long number(Request request, String name, long absent, long min) {
        String raw = request.query(name).orElse(null);
        if (raw == null) {
            return absent;
        }
        long value;
        try {
            value = Long.parseLong(raw.trim());
        } catch (NumberFormatException e) {
            throw HttpError.badRequest(name + " must be a whole number but was " + quote(raw));
        }
        if (value < min) {
            throw HttpError.badRequest(name + " must be >= " + min + " but was " + value);
        }
        return value;
    }

    /** A required whole number from a query parameter, at least {@code min}. */
    static long requiredNumber(Request request, String name, long min) {
        if (request.query(name).isEmpty()) {
            throw HttpError.badRequest(name + " is required");
        }
        return number(request, name, 0, min);
    }

    /**
     * A job id from the path. An id that no job can have (empty, over 256 characters, braces,
     * colons, whitespace) is simply not found.
     */
    static String jobId(Request request) {
        String id = request.param("id");
        boolean legal = !id.isEmpty() && id.length() <= 256
                && id.chars().noneMatch(c -> c == '{' || c == '}' || c == ':' || Character.isWhitespace(c) || Character.isISOControl(c));
        if (!legal) {
            throw HttpError.notFound("job " + quote(id) + " not found");
        }
        return id;
    }

    /** A group name from the path ({@code {g}}): a name no group can have is a 400 naming it. */
    static String group(Request request) {
        return groupName(request.param("g"));
    }

    /** The group name of the {@code after} query parameter (the groups page's cursor), empty when absent. */
    static Optional<String> after(Request request) {
        return request.query("after").map(Params::groupName);
    }

    /**
     * The {@code after} query parameter of a parent's children page: the last child of the page
     * before as {@code <queue>:<id>}, empty when absent; anything else is a 400 naming it.
     */
    static Optional<String> childCursor(Request request) {
        return request.query("after").map(cursor -> {
            int colon = cursor.indexOf(':');
            boolean legal = colon > 0 && colon < cursor.length() - 1 && cursor.indexOf(':', colon + 1) < 0;
            if (legal) {
                try {
                    Validation.queueName(cursor.substring(0, colon));
                    Validation.queueName(cursor.substring(colon + 1));    // a job id follows the same key rules
                } catch (IllegalArgumentException e) {
                    legal = false;
                }
            }
            if (!legal) {
                throw HttpError.badRequest("after must be a child as <queue>:<id> but was " + quote(cursor));
            }
            return cursor;
        });
    }

    /** A yes/no query parameter: "true" or "false", empty when absent; anything else is a 400. */
    static Optional<Boolean> flag(Request request, String name) {
        return request.query(name).map(raw -> {
            if (raw.equals("true") || raw.equals("false")) {
                return raw.equals("true");
            }
            throw HttpError.badRequest(name + " must be true or false but was " + quote(raw));
        });
    }

    /** A free-text query parameter; empty when absent or empty; over 1,000 characters is a 400. */
    static Optional<String> text(Request request, String name) {
        Optional<String> value = request.query(name).filter(v -> !v.isEmpty());
        if (value.isPresent() && value.get().length() > 1000) {
            throw HttpError.badRequest(name + " must be at most 1000 characters but was " + value.get().length());
        }
        return value;
    }

    /**
     * The value a data filter looks for, as typed in the search box: JSON when it reads as JSON
     * ({@code 17} a number, {@code "17"} a string, {@code true}, {@code null}, an object or array),
     * otherwise the text itself as a JSON string ({@code o-17}).
     */
    static JsonNode jsonValue(String raw) {
        String text = raw.strip();
        if (text.length() > 1000) {
            throw HttpError.badRequest("value must be at most 1000 characters but was " + text.length());
        }
        try {
            JsonNode node = JSON.readTree(text);
            if (node != null && !node.isMissingNode()) {
                return node;
            }
        } catch (JsonProcessingException notJson) {
            // plain text: a string
        }
        return TextNode.valueOf(text);
    }

    private static String groupName(String name) {
        try {
            return Validation.groupName(name);
        } catch (IllegalArgumentException e) {
            throw HttpError.badRequest(e.getMessage());
        }
    }

    static String quote(String value) {
        String v = value.length() > 80 ? value.substring(0, 80) + "..." : value;
        return "\"" + v + "\"";
    }
}
