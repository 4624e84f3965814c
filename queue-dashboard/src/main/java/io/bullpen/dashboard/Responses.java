package io.bullpen.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;

/** Writes responses: the security headers every response carries, JSON bodies and errors. */
final class Responses {
    /** The Content-Security-Policy of API.md: the page loads only its own scripts and styles. */
    static final String CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
            + "connect-src 'self'; frame-ancestors 'none'";
    static final String JSON = "application/json; charset=utf-8";

    private Responses() {
    }

    /** Sets the headers every response carries, whatever its status or content. */
    static void securityHeaders(Headers h) {
        h.set("Content-Security-Policy", CSP);
        h.set("X-Content-Type-Options", "nosniff");
        h.set("X-Frame-Options", "DENY");
        h.set("Referrer-Policy", "no-referrer");
    }

    /** Sends a JSON body (compact, HTML-significant characters escaped) and closes the exchange. */
    static void json(HttpExchange exchange, int status, JsonNode body) throws IOException {
        send(exchange, status, JSON, "no-store", JsonViews.bytes(body));
    }

    /** Sends {@code {"error": message}} and closes the exchange. */
    static void error(HttpExchange exchange, int status, String message) throws IOException {
        json(exchange, status, JsonViews.error(message));
    }

    /** Sends a complete body with its content type and closes the exchange. */
    static void send(HttpExchange exchange, int status, String contentType, String cacheControl, byte[] body)
            throws IOException {
        try (exchange) {
            Headers h = exchange.getResponseHeaders();
            h.set("Content-Type", contentType);
            h.set("Cache-Control", cacheControl);
            exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
            if (body.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }
}
