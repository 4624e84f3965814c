package io.bullpen.bench.peer.bullmq;

import com.fasterxml.jackson.databind.JsonNode;
import io.bullpen.bench.BenchContext;
import io.bullpen.bench.peer.LatencyRun;
import io.bullpen.bench.peer.MixedPass;
import io.bullpen.bench.peer.ParentChildRun;
import io.bullpen.bench.peer.PeerDriver;
import io.bullpen.bench.peer.Spread;
import io.bullpen.bench.peer.Starts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The workloads' operations, forwarded to a BullMQ Node script (see lib/ops.js there). */
final class BullmqDriver implements PeerDriver {
    private static final long MAX_WAIT_MS = 600_000;
    private static final long IDLE_MS = 1_000;

    private final NodeProcess node;
    private final BenchContext ctx;
    /** The end-to-end passes' producers: a second Node process running the same script, started on first use. */
    private NodeProcess producerNode;

    BullmqDriver(NodeProcess node, BenchContext ctx) {
        this.node = node;
        this.ctx = ctx;
    }

    @Override
    public long clientPid() {
        return node.pid();
    }

    @Override
    public void prefill(String queue, int jobs) throws Exception {
        node.request("prefill", Map.of("queue", queue, "n", jobs));
    }

    @Override
    public double process(String queue, int jobs, int concurrency) throws Exception {
        return seconds(node.request("process", Map.of("queue", queue, "n", jobs, "concurrency", concurrency)));
    }

    @Override
    public double addOneAtATime(String queue, int jobs) throws Exception {
        return seconds(node.request("addOneAtATime", Map.of("queue", queue, "n", jobs)));
    }

    @Override
    public double addConcurrently(String queue, int jobs, int producers) throws Exception {
        return seconds(node.request("addConcurrently", Map.of("queue", queue, "n", jobs, "producers", producers)));
    }

    @Override
    public double roundTrips(String queue, int calls) throws Exception {
        return seconds(node.request("roundTrips", Map.of("queue", queue, "n", calls)));
    }

    @Override
    public double addBulk(String queue, int jobs, int chunk) throws Exception {
        return seconds(node.request("addBulk", Map.of("queue", queue, "n", jobs, "chunk", chunk)));
    }

    @Override
    public boolean saturateEvents(String queue) throws Exception {
        node.request("saturateEvents", Map.of("queue", queue));
        return true;
    }

    @Override
    public boolean retainsCompleted() {
        return true;
    }

    @Override
    public void startConsumers(String queue, int concurrency) throws Exception {
        node.request("startConsumers", Map.of("queue", queue, "concurrency", concurrency));
    }

    @Override
    public List<Long> awaitConsumed(int total, Duration timeout) throws Exception {
        JsonNode lateness = node.request("awaitConsumed", Map.of("total", total, "timeoutMs", timeout.toMillis())).path("lateness");
        List<Long> values = new ArrayList<>(lateness.size());
        lateness.forEach(v -> values.add(v.asLong()));
        return values;
    }

    @Override
    public void stopConsumers() throws Exception {
        node.request("stopConsumers", Map.of());
    }

    @Override
    public void produceDelayedElsewhere(String queue, int jobs, long leadMs, long spreadMs) throws Exception {
        String params = String.format("{\"port\":%d,\"queue\":\"%s\",\"n\":%d,\"leadMs\":%d,\"spreadMs\":%d}",
                ctx.port(), queue, jobs, leadMs, spreadMs);
        Process producer = new ProcessBuilder(List.of("node", "delayed-producer.js", params))
                .directory(ctx.bullmqDir().toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        producer.getOutputStream().close();
        String out = new String(producer.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!producer.waitFor(2, TimeUnit.MINUTES) || producer.exitValue() != 0 || !out.contains("\"added\"")) {
            producer.destroyForcibly();
            throw new IOException("delayed-producer.js failed: " + out);
        }
    }

    @Override
    public double addFar(String queue, int jobs, int chunk) throws Exception {
        return seconds(node.request("addFar", Map.of("queue", queue, "n", jobs, "chunk", chunk)));
    }

    @Override
    public void addNear(String queue, int jobs, long leadMs, long spreadMs) throws Exception {
        node.request("addNear", Map.of("queue", queue, "n", jobs, "leadMs", leadMs, "spreadMs", spreadMs));
    }

    @Override
    public Starts processRateLimited(String queue, int jobs, int workers, int concurrency, int max, long perMs)
            throws Exception {
        JsonNode reply = node.request("processRateLimited", Map.of("queue", queue, "n", jobs, "workers", workers,
                "concurrency", concurrency, "max", max, "perMs", perMs));
        return new Starts(longs(reply.path("processedOn")), longs(reply.path("processorMicros")));
    }

    @Override
    public Spread processSpread(String queue, int jobs, int workers, int concurrency, long jobMillis, Integer takeAhead)
            throws Exception {
        if (takeAhead != null) {
            throw new UnsupportedOperationException("BullMQ has no take-ahead setting");
        }
        JsonNode reply = node.request("processSpread", Map.of("queue", queue, "n", jobs, "workers", workers,
                "concurrency", concurrency, "jobMs", jobMillis));
        List<Integer> perWorker = new ArrayList<>();
        reply.path("perWorker").forEach(v -> perWorker.add(v.asInt()));
        return new Spread(perWorker, seconds(reply));
    }

    @Override
    public ParentChildRun parentChild(String parentQueue, String childQueue, int flows, int children, int concurrency)
            throws Exception {
        JsonNode reply = node.request("parentChild", Map.of("parentQueue", parentQueue, "childQueue", childQueue,
                "n", flows, "children", children, "concurrency", concurrency));
        return new ParentChildRun(seconds(reply), reply.path("parents").asInt());
    }

    @Override
    public MixedPass startMixed(String queue, int producers, int concurrency) throws Exception {
        NodeProcess adder = producerNode();
        node.request("startWorker", Map.of("queue", queue, "concurrency", concurrency, "timing", false));
        adder.request("startProducers", Map.of("queue", queue, "producers", producers));
        return new MixedPass() {
            @Override
            public Progress progress() throws Exception {
                long added = adder.request("progress", Map.of()).path("added").asLong();
                long completed = node.request("progress", Map.of()).path("completed").asLong();
                return new Progress(added, completed);
            }

            @Override
            public List<Long> clientPids() {
                return List.of(node.pid(), adder.pid());
            }

            @Override
            public void close() throws Exception {
                try {
                    adder.request("stopProducers", Map.of());
                } finally {
                    node.request("stopWorker", Map.of());
                }
            }
        };
    }

    @Override
    public LatencyRun latency(String queue, int rate, int jobs, int concurrency) throws Exception {
        NodeProcess adder = producerNode();
        node.request("startWorker", Map.of("queue", queue, "concurrency", concurrency, "timing", true));
        JsonNode times;
        JsonNode sent;
        try {
            Thread.sleep(IDLE_MS); // an idle worker, waiting for jobs
            sent = adder.request("produceAtRate", Map.of("queue", queue, "rate", rate, "n", jobs));
            times = node.request("latencyTimes", Map.of("n", jobs, "timeoutMs", MAX_WAIT_MS));
        } finally {
            node.request("stopWorker", Map.of());
        }
        long[] lag = new long[jobs];
        long[] toStart = new long[jobs];
        long[] toCompleted = new long[jobs];
        for (int i = 0; i < jobs; i++) {
            long at = sent.path("sent").get(i).asLong();
            lag[i] = sent.path("lag").get(i).asLong();
            toStart[i] = times.path("started").get(i).asLong() - at;
            toCompleted[i] = times.path("finished").get(i).asLong() - at;
        }
        return new LatencyRun(lag, toStart, toCompleted);
    }

    private NodeProcess producerNode() throws Exception {
        if (producerNode == null) {
            producerNode = NodeProcess.start(ctx.bullmqDir(), node.script(), ctx.port(), ctx.sizes().warmUpJobs());
        }
        return producerNode;
    }

    private static List<Long> longs(JsonNode array) {
        List<Long> values = new ArrayList<>(array.size());
        array.forEach(v -> values.add(v.asLong()));
        return values;
    }

    private static double seconds(JsonNode reply) {
        return reply.path("seconds").asDouble();
    }

    @Override
    public void close() {
        try {
            if (producerNode != null) {
                producerNode.close();
            }
        } finally {
            node.close();
        }
    }
}
