package io.bullpen.internal;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.redisson.api.RStream;
import org.redisson.api.RedissonClient;
import org.redisson.api.stream.StreamMessageId;
import org.redisson.api.stream.StreamRangeArgs;
import org.redisson.api.stream.StreamReadArgs;
import org.redisson.client.codec.StringCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tails one events stream on a thread of its own:
 * 1. on the small client shared by the application client's workers and listeners
 *    ({@link SmallClient}), so the blocking read never holds a connection of the application's
 *    pool and no listener starts a Redisson client (threads) of its own;
 * 2. reads with XREAD BLOCK (whole seconds: Redisson sends less than 1 s as "block forever")
 *    from the id of the last entry handed on, never from {@code $}: a read from {@code $} that
 *    times out or is re-sent after a reconnect would skip what was appended in between;
 * 3. hands entries on in stream order, and only then moves its position past them;
 * 4. on any error (dropped connection, Redis restarting) logs, backs off up to 2 s and reads
 *    again from its position, so nothing still in the stream is missed;
 * 5. a watchdog abandons a read that outlived its block time by 2 s and reads again (the read
 *    is side-effect free, so a late answer is simply ignored);
 * 6. close ends the wait at once and releases the shared client. A read is abandoned, never
 *    cancelled: Redisson resets the connection of a cancelled blocking call, which the shared
 *    client's other users would take for a lost server; it ends on the server at its block time.
 * Not API.
 */
public final class EventReader implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EventReader.class);
    private static final long BLOCK_SECONDS = 5;
    private static final long WATCHDOG_MS = 2_000;
    private static final long MAX_BACKOFF_MS = 2_000;
    private static final int BATCH = 100;
    private static final Pattern STREAM_ID = Pattern.compile("(\\d+)(?:-(\\d+))?");

    private final String streamKey;
    private final BiConsumer<String, Map<String, String>> sink;
    private final CompletableFuture<Void> closed = new CompletableFuture<>();
    private final SmallClient.Lease lease;
    private final RStream<String, String> stream;
    private final Thread thread;
    private volatile String position;

    /**
     * Reads a user's starting point ({@code QueueEvents.Builder.lastEventId}).
     *
     * @param id a stream entry id such as {@code "1718000000000-0"}, {@code "0"}, or {@code "$"}
     * @return the id in full ({@code "<millis>-<sequence>"}), or null for {@code "$"} (only new events)
     * @throws IllegalArgumentException when the id is not a stream id, naming it
     */
    public static String startAfter(String id) {
        Objects.requireNonNull(id, "lastEventId");
        if (id.equals("$")) {
            return null;
        }
        Matcher m = STREAM_ID.matcher(id);
        try {
            if (m.matches()) {
                long millis = Long.parseLong(m.group(1));
                long sequence = m.group(2) == null ? 0 : Long.parseLong(m.group(2));
                return millis + "-" + sequence;
            }
        } catch (NumberFormatException tooLarge) {
            // reported below
        }
        throw new IllegalArgumentException("lastEventId must be a stream id such as \"1718000000000-0\" (or \"0\""
                + " or \"$\") but was \"" + (id.length() > 40 ? id.substring(0, 40) + "..." : id) + "\"");
    }

    /**
     * Connects the small client and fixes the starting position; call {@link #start()} next.
     *
     * @param app the application's client, whose settings the small client copies
     * @param streamKey the stream
     * @param after read entries after this id; null for only entries appended from now on
     * @param sink called on the reader thread with each entry's id and fields, in stream order
     * @throws org.redisson.client.RedisConnectionException when Redis cannot be reached
     */
    public EventReader(RedissonClient app, String streamKey, String after, BiConsumer<String, Map<String, String>> sink) {
        this.streamKey = streamKey;
        this.sink = sink;
        this.lease = SmallClient.acquire(app, new SmallClient.Connections() {
        });
        this.stream = lease.client().getStream(streamKey, StringCodec.INSTANCE);
        this.position = after != null ? after : newestOrNull();
        this.thread = new Thread(this::run, "bullpen-events-" + streamKey);
        thread.setDaemon(true);
    }

    /** Starts the reader thread. */
    public void start() {
        thread.start();
    }

    /** @return the id of the last entry handed on, or the id reading started after */
    public String position() {
        return position;
    }

    /**
     * The id of the newest entry: reading after it gives only what is appended from now on.
     * {@code 0-0} for an empty or missing stream; null when Redis did not answer (the loop asks
     * again, and nothing can be appended while Redis is unreachable anyway).
     */
    private String newestOrNull() {
        try {
            Map<StreamMessageId, Map<String, String>> last = stream.rangeReversed(
                    StreamRangeArgs.startId(StreamMessageId.MAX).endId(StreamMessageId.MIN).count(1));
            return last.isEmpty() ? "0-0" : last.keySet().iterator().next().toString();
        } catch (RuntimeException e) {
            log.warn("events of {}: cannot read the stream's newest id yet ({}); will retry", streamKey, e.toString());
            return null;
        }
    }

    private void run() {
        long backoff = 0;
        while (!closed.isDone()) {
            try {
                if (position == null) {
                    position = newestOrNull();
                    if (position == null) {
                        throw new IllegalStateException("newest id unknown");
                    }
                }
                handOn(readOnce());
                backoff = 0;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                if (closed.isDone()) {
                    return;
                }
                backoff = backoff == 0 ? 100 : Math.min(MAX_BACKOFF_MS, backoff * 2);
                log.warn("events of {}: read failed (again in {}ms from {}): {}", streamKey, backoff, position, e.toString());
                try {
                    closed.get(backoff, TimeUnit.MILLISECONDS);
                } catch (TimeoutException | ExecutionException ignored) {
                    // backoff over
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** One blocking read; empty when it timed out, was abandoned by the watchdog, or on close. */
    private Map<StreamMessageId, Map<String, String>> readOnce() throws InterruptedException {
        CompletableFuture<Map<StreamMessageId, Map<String, String>>> read = stream.readAsync(
                StreamReadArgs.greaterThan(parse(position)).count(BATCH).timeout(Duration.ofSeconds(BLOCK_SECONDS)))
                .toCompletableFuture();
        try {
            CompletableFuture.anyOf(read, closed).get(BLOCK_SECONDS * 1000 + WATCHDOG_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            log.debug("events of {}: a read outlived its block time; reading again", streamKey);
        } catch (ExecutionException e) {
            Throwable cause = ScriptRunner.unwrap(e.getCause());
            throw cause instanceof RuntimeException re ? re : new IllegalStateException(cause);
        }
        if (!read.isDone()) {
            return Map.of();
        }
        Map<StreamMessageId, Map<String, String>> entries = read.join();
        return entries == null ? Map.of() : entries;
    }

    /** Entries come in stream order (Redisson keeps them in a LinkedHashMap). */
    private void handOn(Map<StreamMessageId, Map<String, String>> entries) {
        for (Map.Entry<StreamMessageId, Map<String, String>> e : entries.entrySet()) {
            if (closed.isDone()) {
                return;
            }
            String id = e.getKey().toString();
            try {
                sink.accept(id, e.getValue());
            } catch (VirtualMachineError fatal) {
                throw fatal;
            } catch (Throwable t) {
                // The sink isolates listeners already; anything else is a bug, and retrying the
                // same entry forever would be worse than moving past it.
                log.error("events of {}: handling entry {} failed; skipped", streamKey, id, t);
            }
            position = id;
        }
    }

    /** @param id {@code <millis>-<sequence>} or {@code <millis>} */
    static StreamMessageId parse(String id) {
        int dash = id.indexOf('-');
        return dash < 0
                ? new StreamMessageId(Long.parseLong(id))
                : new StreamMessageId(Long.parseLong(id.substring(0, dash)), Long.parseLong(id.substring(dash + 1)));
    }

    /**
     * Stops reading: ends a wait at once, lets an entry being handed on finish (waiting up to
     * 1 s, unless called from the reader thread itself), then releases the shared client.
     * Idempotent.
     */
    @Override
    public void close() {
        if (!closed.complete(null)) {
            return;
        }
        if (thread.isAlive() && Thread.currentThread() != thread) {
            try {
                thread.join(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        lease.close();
    }
}
