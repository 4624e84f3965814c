package io.bullpen.dashboard;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One open event stream, written by a thread of its own so a slow reader delays nobody else:
 * <ol>
 *   <li>wait for the next frame {@link EventsHub} queued for it, at most the ping interval;</li>
 *   <li>write and flush it, or {@code : ping} when none came;</li>
 *   <li>stop when told to, when a write fails (the reader went away), or when interrupted; then
 *       end the response and give the slot back.</li>
 * </ol>
 */
final class SseClient implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(SseClient.class);
    /** Frames a reader may fall behind by before it is dropped. */
    static final int BACKLOG = 16;
    private static final String END = "end";
    private static final byte[] PING = ": ping\n\n".getBytes(StandardCharsets.UTF_8);

    private final HttpExchange exchange;
    private final long pingMillis;
    private final Runnable onEnd;
    private final BlockingQueue<String> outbox = new LinkedBlockingQueue<>(BACKLOG + 1);
    private volatile Thread thread;
    private volatile boolean ended;

    SseClient(HttpExchange exchange, long pingMillis, Runnable onEnd) {
        this.exchange = exchange;
        this.pingMillis = pingMillis;
        this.onEnd = onEnd;
    }

    /**
     * Queues a frame.
     *
     * @return false when the reader is {@value #BACKLOG} frames behind: the caller drops it
     */
    boolean offer(String frame) {
        return outbox.size() < BACKLOG && outbox.offer(frame);
    }

    /** Ends the stream after what was already queued, or at once when the reader is stuck. */
    void end(boolean now) {
        outbox.offer(END);
        Thread t = thread;
        if (now && t != null) {
            t.interrupt();
        }
    }

    boolean ended() {
        return ended;
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        try {
            OutputStream out = exchange.getResponseBody();
            while (true) {
                String frame = outbox.poll(pingMillis, TimeUnit.MILLISECONDS);
                if (frame == END) {
                    break;
                }
                out.write(frame == null ? PING : frame.getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (IOException e) {
            log.debug("event stream to {} closed: {}", exchange.getRemoteAddress(), e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            ended = true;
            try {
                exchange.close();
            } finally {
                onEnd.run();
            }
        }
    }
}
