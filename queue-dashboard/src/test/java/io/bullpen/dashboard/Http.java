package io.bullpen.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A plain HTTP client for the dashboard under test: the JDK's HttpClient, and raw sockets for what it will not send. */
final class Http {
    static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    static final ObjectMapper JSON = new ObjectMapper();
    static final String TOKEN = "test-token-0123456789abcdef";

    private Http() {
    }

    /** A response: status, headers (names lower-case) and body text. */
    record Reply(int status, Map<String, List<String>> headers, String body) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + body, e);
            }
        }

        String header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .findFirst()
                    .map(e -> e.getValue().get(0))
                    .orElse(null);
        }

        String error() {
            return json().path("error").asText(null);
        }
    }

    static Reply get(Dashboard d, String path) {
        return send(HttpRequest.newBuilder(uri(d, path)).GET());
    }

    /** A POST with the test token in the X-Bullpen-Token header. */
    static Reply post(Dashboard d, String path) {
        return post(d, path, TOKEN);
    }

    /** A POST with the given token header, or none when null. */
    static Reply post(Dashboard d, String path, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(d, path)).POST(HttpRequest.BodyPublishers.noBody());
        if (token != null) {
            b.header("X-Bullpen-Token", token);
        }
        return send(b);
    }

    static Reply send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> r = CLIENT.send(request.timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Reply(r.statusCode(), r.headers().map(), r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static URI uri(Dashboard d, String path) {
        return URI.create(d.url() + (path.startsWith("/") ? path.substring(1) : path));
    }

    /**
     * Sends {@code requestHead} (request line and headers, without the blank line) as written, with
     * "Connection: close", and reads the whole response. For paths and headers HttpClient
     * normalizes or refuses ({@code /../x}, Host).
     */
    static Reply raw(Dashboard d, String requestHead) {
        var address = d.address();
        try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write((requestHead + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            int headEnd = text.indexOf("\r\n\r\n");
            String head = headEnd < 0 ? text : text.substring(0, headEnd);
            String body = headEnd < 0 ? "" : text.substring(headEnd + 4);
            String[] lines = head.split("\r\n");
            int status = Integer.parseInt(lines[0].split(" ")[1]);
            Map<String, List<String>> headers = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                headers.computeIfAbsent(lines[i].substring(0, colon).trim(), k -> new java.util.ArrayList<>())
                        .add(lines[i].substring(colon + 1).trim());
            }
            if ("chunked".equalsIgnoreCase(Optional.ofNullable(headers.get("Transfer-Encoding")).map(l -> l.get(0)).orElse(""))) {
                body = dechunk(body);
            }
            return new Reply(status, headers, body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String dechunk(String body) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < body.length()) {
            int eol = body.indexOf("\r\n", i);
            int size = Integer.parseInt(body.substring(i, eol).trim(), 16);
            if (size == 0) {
                break;
            }
            out.append(body, eol + 2, eol + 2 + size);
            i = eol + 2 + size + 2;
        }
        return out.toString();
    }
}
