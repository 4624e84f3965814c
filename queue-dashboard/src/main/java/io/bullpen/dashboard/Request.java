package io.bullpen.dashboard;

import com.sun.net.httpserver.HttpExchange;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** One request as the route handlers see it: path parameters, query parameters, headers. */
final class Request {
    private final HttpExchange exchange;
    private final Map<String, String> pathParams;
    private Map<String, String> query;

    Request(HttpExchange exchange, Map<String, String> pathParams) {
        this.exchange = exchange;
        this.pathParams = pathParams;
    }

    HttpExchange exchange() {
        return exchange;
    }

    /** @return the decoded path parameter named {@code {name}} in the route pattern */
    String param(String name) {
        String value = pathParams.get(name);
        if (value == null) {
            throw new IllegalStateException("the route has no parameter " + name);
        }
        return value;
    }

    /** @return the first value of a query parameter, decoded; empty when absent */
    Optional<String> query(String name) {
        if (query == null) {
            query = parseQuery(exchange.getRequestURI().getRawQuery());
        }
        return Optional.ofNullable(query.get(name));
    }

    /** @return the first value of a request header, or null */
    String header(String name) {
        return exchange.getRequestHeaders().getFirst(name);
    }

    /** Decodes one raw path segment ("%20" is a space; "+" stays a plus sign). */
    static String decodeSegment(String raw) {
        return decode(raw.replace("+", "%2B"));
    }

    private static Map<String, String> parseQuery(String raw) {
        Map<String, String> params = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return params;
        }
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            params.putIfAbsent(key, value);
        }
        return params;
    }

    private static String decode(String raw) {
        try {
            return URLDecoder.decode(raw, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw HttpError.badRequest("malformed percent-encoding in \"" + raw + "\"");
        }
    }
}
