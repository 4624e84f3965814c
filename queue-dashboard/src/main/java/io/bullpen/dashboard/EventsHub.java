package io.bullpen.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /api/events}: live counts as Server-Sent Events. One poller thread does all the
 * reading:
 * <ol>
 *   <li>every poll interval (1 s), or at once when a client connects, read every queue's counts
 *       (one getCounts and one getWorkers script per queue), but only while someone listens;</li>
 *   <li>queue {@code event: counts} to every client when the counts changed, and to new clients
 *       in any case, in the order read (so no client sees an older snapshot after a newer one);</li>
 *   <li>drop a client whose backlog is full; a client whose write fails drops itself;</li>
 *   <li>on a Redis error, log once, send nothing, and try again next interval.</li>
 * </ol>
 * Each client holds a thread of a capped pool ({@link SseClient}); connections beyond the cap get
 * 503. {@link #close()} ends every stream.
 */
final class EventsHub implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EventsHub.class);

    private final Supplier<JsonNode> snapshot;
    private final long pollMillis;
    private final long pingMillis;
    private final int maxClients;
    private final Semaphore slots;
    private final Set<SseClient> clients = ConcurrentHashMap.newKeySet();
    private final Queue<SseClient> newClients = new ConcurrentLinkedQueue<>();
    private final ExecutorService streams;
    private final Thread poller;
    private final Object wake = new Object();
    private boolean wakeRequested;
    private volatile boolean closed;
    private String last;
    private boolean failing;

    /**
     * @param snapshot reads {@code {"queues": [QueueSummary...]}}
     */
    EventsHub(Supplier<JsonNode> snapshot, Duration pollInterval, Duration pingInterval, int maxClients) {
        this.snapshot = snapshot;
        this.pollMillis = pollInterval.toMillis();
        this.pingMillis = pingInterval.toMillis();
        this.maxClients = maxClients;
        this.slots = new Semaphore(maxClients);
        this.streams = new ThreadPoolExecutor(0, maxClients, 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
                DaemonThreads.named("bullpen-dashboard-events-"));
        this.poller = DaemonThreads.named("bullpen-dashboard-poller-").newThread(this::pollLoop);
    }

    void start() {
        poller.start();
    }

    /** The route handler: takes over the exchange as an event stream, or answers 503. */
    void connect(Request request) throws IOException {
        if (closed) {
            throw new HttpError(503, "the dashboard is closing");
        }
        if (!slots.tryAcquire()) {
            throw new HttpError(503, "too many event streams: at most " + maxClients + " at once");
        }
        HttpExchange exchange = request.exchange();
        SseClient client = new SseClient(exchange, pingMillis, () -> {
            clients.removeIf(SseClient::ended);
            newClients.removeIf(SseClient::ended);
            slots.release();
        });
        try {
            Headers h = exchange.getResponseHeaders();
            h.set("Content-Type", "text/event-stream; charset=utf-8");
            h.set("Cache-Control", "no-store");
            h.set("X-Accel-Buffering", "no");
            exchange.sendResponseHeaders(200, 0);
            streams.execute(client);
        } catch (IOException | RejectedExecutionException e) {
            slots.release();
            exchange.close();
            return;
        }
        newClients.add(client);
        wakeUp();
    }

    private void wakeUp() {
        synchronized (wake) {
            wakeRequested = true;
            wake.notifyAll();
        }
    }

    private void pollLoop() {
        while (!closed) {
            try {
                pollOnce();
            } catch (RuntimeException | Error e) {
                log.error("event poller failed; going on", e);
            }
            synchronized (wake) {
                if (!wakeRequested && !closed) {
                    try {
                        wake.wait(pollMillis);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                wakeRequested = false;
            }
        }
    }

    private void pollOnce() {
        clients.removeIf(SseClient::ended);
        List<SseClient> fresh = new ArrayList<>();
        for (SseClient c; (c = newClients.poll()) != null; ) {
            if (!c.ended()) {
                fresh.add(c);
            }
        }
        if (clients.isEmpty() && fresh.isEmpty()) {
            last = null;
            return;
        }
        String frame;
        try {
            frame = "event: counts\ndata: " + JsonViews.string(snapshot.get()) + "\n\n";
            if (failing) {
                log.info("event poller reads counts again");
                failing = false;
            }
        } catch (RuntimeException | Error e) {
            if (!failing) {
                log.warn("event poller cannot read counts (will retry every {} ms): {}", pollMillis, e.toString());
                failing = true;
            }
            last = null;
            newClients.addAll(fresh);
            return;
        }
        if (!frame.equals(last)) {
            clients.forEach(c -> send(c, frame));
        }
        for (SseClient c : fresh) {
            clients.add(c);
            send(c, frame);
        }
        last = frame;
    }

    private void send(SseClient client, String frame) {
        if (!client.ended() && !client.offer(frame)) {
            log.debug("dropping an event stream that fell {} frames behind", SseClient.BACKLOG);
            clients.remove(client);
            client.end(true);
        }
    }

    /** Ends every stream (each gets its queued frames, then the end of the response) and stops the poller. */
    @Override
    public void close() {
        closed = true;
        wakeUp();
        poller.interrupt();
        clients.forEach(c -> c.end(false));
        newClients.forEach(c -> c.end(false));
        streams.shutdown();
        try {
            if (!streams.awaitTermination(1, TimeUnit.SECONDS)) {
                streams.shutdownNow();
                streams.awaitTermination(1, TimeUnit.SECONDS);
            }
            poller.join(1000);
        } catch (InterruptedException e) {
            streams.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
