package io.bullpen.bench.peer.bullmq;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Node script of the BullMQ peer, driven line by line: the script prints
 * {@code {"ready":true,"pid":N}} once warmed up (on {@code warmUp} jobs), then answers each request
 * {@code {"op":"...","args":{...}}} with {@code {"ok":{...}}} or {@code {"error":"..."}}.
 * Its stderr goes to ours.
 */
final class NodeProcess implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(NodeProcess.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(15);
    private static final String EOF = "\u0000eof";

    private final Process process;
    private final Writer in;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final String script;

    private NodeProcess(Process process, String script) {
        this.process = process;
        this.script = script;
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(this::readLines, "node-" + script);
        reader.setDaemon(true);
        reader.start();
    }

    static NodeProcess start(Path dir, String script, int redisPort, int warmUpJobs) throws IOException, InterruptedException {
        String params = JSON.writeValueAsString(Map.of("port", redisPort, "warmUp", warmUpJobs));
        Process process = new ProcessBuilder(List.of("node", script, params))
                .directory(dir.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        NodeProcess node = new NodeProcess(process, script);
        JsonNode ready = node.next(READY_TIMEOUT);
        if (!ready.path("ready").asBoolean()) {
            node.close();
            throw new IOException(script + " did not get ready: " + ready);
        }
        return node;
    }

    /** @return the script it runs, e.g. {@code mixed.js} */
    String script() {
        return script;
    }

    long pid() {
        return process.pid();
    }

    /**
     * @param op the operation
     * @param args its arguments
     * @return the reply's "ok" object
     * @throws IOException when the script reports an error, dies or does not answer in 15 minutes
     */
    JsonNode request(String op, Map<String, ?> args) throws IOException, InterruptedException {
        in.write(JSON.writeValueAsString(Map.of("op", op, "args", args)) + "\n");
        in.flush();
        JsonNode reply = next(REQUEST_TIMEOUT);
        if (reply.has("error")) {
            throw new IOException(script + " " + op + " failed: " + reply.get("error").asText());
        }
        return reply.path("ok");
    }

    private JsonNode next(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new IOException(script + " did not answer within " + timeout);
            }
            if (line.equals(EOF)) {
                throw new IOException(script + " exited" + (process.isAlive() ? "" : " with " + process.waitFor()));
            }
            if (line.startsWith("{")) {
                return JSON.readTree(line);
            }
            log.info("{}: {}", script, line);
        }
    }

    private void readLines() {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                lines.add(line);
            }
        } catch (IOException e) {
            log.debug("{} output: {}", script, e.toString());
        }
        lines.add(EOF);
    }

    /** Asks the script to close its queues and exit; kills it after 15 s. */
    @Override
    public void close() {
        try {
            if (process.isAlive()) {
                request("close", Map.of());
            }
            if (process.waitFor(15, TimeUnit.SECONDS)) {
                return;
            }
        } catch (IOException e) {
            log.debug("{} close: {}", script, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.destroyForcibly();
    }
}
