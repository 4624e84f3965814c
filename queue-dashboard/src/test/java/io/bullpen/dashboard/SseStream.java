package io.bullpen.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

/** An open {@code GET /api/events} stream, read line by line on a thread of its own. */
final class SseStream implements AutoCloseable {
    /** One dispatched event. */
    record Event(String name, String data) {
        JsonNode json() {
            try {
                return Http.JSON.readTree(data);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private final HttpResponse<Stream<String>> response;
    final List<Event> events = new CopyOnWriteArrayList<>();
    final List<String> comments = new CopyOnWriteArrayList<>();
    final List<String> lines = new CopyOnWriteArrayList<>();
    private volatile boolean ended;
    private String name;
    private final StringBuilder data = new StringBuilder();

    private SseStream(HttpResponse<Stream<String>> response) {
        this.response = response;
        Thread reader = new Thread(this::read, "sse-test-reader");
        reader.setDaemon(true);
        reader.start();
    }

    static SseStream open(Dashboard d) {
        try {
            HttpRequest request = HttpRequest.newBuilder(Http.uri(d, "/api/events"))
                    .header("Accept", "text/event-stream").timeout(Duration.ofSeconds(10)).GET().build();
            return new SseStream(Http.CLIENT.send(request, HttpResponse.BodyHandlers.ofLines()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    int status() {
        return response.statusCode();
    }

    String header(String name) {
        return response.headers().firstValue(name).orElse(null);
    }

    /** @return whether the server ended the stream (or the connection) */
    boolean ended() {
        return ended;
    }

    /** @return the counts events received so far, as {@code {"queues": [...]}} */
    List<JsonNode> counts() {
        return events.stream().filter(e -> e.name().equals("counts")).map(Event::json).toList();
    }

    private void read() {
        try (Stream<String> body = response.body()) {
            body.forEach(this::line);
        } catch (RuntimeException e) {
            // the connection was closed: the stream ended too
        } finally {
            ended = true;
        }
    }

    private void line(String line) {
        lines.add(line);
        if (line.isEmpty()) {
            if (data.length() > 0) {
                events.add(new Event(name == null ? "message" : name, data.toString()));
            }
            name = null;
            data.setLength(0);
        } else if (line.startsWith(":")) {
            comments.add(line.substring(1).trim());
        } else if (line.startsWith("event:")) {
            name = line.substring(6).trim();
        } else if (line.startsWith("data:")) {
            if (data.length() > 0) {
                data.append('\n');
            }
            data.append(line.substring(5).trim());
        }
    }

    @Override
    public void close() {
        response.body().close();
    }
}
