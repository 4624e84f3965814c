package io.bullpen;

import io.bullpen.ResultAwaiter.Start;
import io.bullpen.ResultAwaiter.Tracked;
import io.bullpen.internal.AwaitScripts;
import io.bullpen.internal.AwaitScripts.Answer;
import io.bullpen.internal.SmallClient;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.redisson.api.RStream;
import org.redisson.api.RedissonClient;
import org.redisson.api.stream.StreamMessageId;
import org.redisson.api.stream.StreamMultiReadArgs;
import org.redisson.api.stream.StreamReadArgs;
import org.redisson.client.codec.StringCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link ResultAwaiter}'s one thread, reading on the small client the application client's
 * workers and listeners share ({@link SmallClient}; at most one blocking connection of it per
 * process and application client):
 * 1. takes new starts: a queue not read yet is read after the start's id, a queue read already
 *    from the smaller of its position and that id (so no event after a registration is skipped);
 * 2. reads the streams of the queues with awaits: one XREAD BLOCK (1 s: Redisson sends less as
 *    "forever") over all of them; on Redis Cluster, where the streams of different queues live
 *    in different slots, it blocks on one queue at a time (rotating) and reads the others without
 *    blocking, so an event of a queue it is not blocked on waits up to 1 s;
 * 3. completes the awaits of the jobs in completed/failed events;
 * 4. re-reads the pending jobs with awaitJob (one call per queue, 2,000 ids a call) after a read
 *    error, after its client reconnected, and every {@link #RECHECK_MS} while awaits are pending,
 *    then moves each queue's position to the stream's newest id at that call: a stream trimmed
 *    past the position (a gap) costs at most one recheck period, and a backlog is skipped;
 * 5. a queue without awaits is forgotten (read from its next start's id); with nothing pending
 *    for {@link #IDLE_MS} the thread releases the shared client and ends;
 * 6. a read that outlived its block time is abandoned, not cancelled (Redisson resets the
 *    connection of a cancelled blocking call, which the shared client's other users would take
 *    for a lost server): it ends on the server at its block time.
 */
final class AwaiterLoop implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(AwaiterLoop.class);
    static final long RECHECK_MS = 2_000;
    static final long IDLE_MS = 5_000;
    private static final long BLOCK_MS = 1_000;
    private static final long WATCHDOG_MS = 2_000;
    private static final int READ_COUNT = 1_000;
    private static final int RECHECK_BATCH = 2_000;

    private final ResultAwaiter awaiter;
    private final Thread thread;
    private final boolean cluster;
    private volatile boolean recheckNeeded;
    private int rotation;

    AwaiterLoop(ResultAwaiter awaiter) {
        this.awaiter = awaiter;
        this.cluster = awaiter.app.getConfig().isClusterConfig();
        this.thread = new Thread(this, "bullpen-await");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    void wake() {
        LockSupport.unpark(thread);
    }

    @Override
    public void run() {
        SmallClient.Lease lease = null;
        RedissonClient small = null;
        long backoff = 0;
        long lastRecheck = System.nanoTime();
        long idleSince = -1;
        try {
            while (true) {
                try {
                    if (small == null) {
                        lease = SmallClient.acquire(awaiter.app, new SmallClient.Connections() {
                            @Override
                            public void lost(InetSocketAddress address) {
                                recheckNeeded = true;
                            }

                            @Override
                            public void reconnected(InetSocketAddress address) {
                                recheckNeeded = true;
                            }
                        });
                        small = lease.client();
                    }
                    takeStarts();
                    if (awaiter.pending.get() == 0) {
                        forgetIdleQueues();
                        long now = System.nanoTime();
                        idleSince = idleSince < 0 ? now : idleSince;
                        if (now - idleSince > TimeUnit.MILLISECONDS.toNanos(IDLE_MS) && awaiter.mayStop(this)) {
                            return;
                        }
                        LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(200));
                        continue;
                    }
                    idleSince = -1;
                    if (recheckNeeded || System.nanoTime() - lastRecheck > TimeUnit.MILLISECONDS.toNanos(RECHECK_MS)) {
                        recheckNeeded = false;
                        lastRecheck = System.nanoTime();
                        recheckAll();
                    }
                    forgetIdleQueues();
                    read(small);
                    backoff = 0;
                } catch (RuntimeException e) {
                    recheckNeeded = true;
                    backoff = backoff == 0 ? 100 : Math.min(2_000, backoff * 2);
                    log.warn("result awaiter: {} (again in {} ms)", e.toString(), backoff);
                    LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(backoff));
                }
            }
        } finally {
            awaiter.stopped(this);
            if (lease != null) {
                lease.close();
            }
        }
    }

    private void takeStarts() {
        Start s;
        while ((s = awaiter.starts.poll()) != null) {
            Tracked t = s.queue();
            if (t.cursor == null || compare(s.newestId(), t.cursor) < 0) {
                t.cursor = s.newestId();
            }
        }
    }

    /** A queue without awaits is not read; its next start sets where reading resumes. */
    private void forgetIdleQueues() {
        for (Tracked t : awaiter.queues.values()) {
            if (t.waiters.isEmpty()) {
                t.cursor = null;
            }
        }
    }

    private List<Tracked> readable() {
        List<Tracked> out = new ArrayList<>();
        for (Tracked t : awaiter.queues.values()) {
            if (t.cursor != null) {
                out.add(t);
            }
        }
        return out;
    }

    private void read(RedissonClient small) {
        List<Tracked> queues = readable();
        if (queues.isEmpty()) {
            // Awaits whose registration has not answered yet: it wakes us.
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(100));
            return;
        }
        if (!cluster) {
            Tracked first = queues.get(0);
            RStream<String, String> stream = small.getStream(first.stream, StringCodec.INSTANCE);
            if (queues.size() == 1) {
                Map<StreamMessageId, Map<String, String>> entries = await(stream.readAsync(StreamReadArgs
                        .greaterThan(id(first.cursor)).count(READ_COUNT).timeout(Duration.ofMillis(BLOCK_MS)))
                        .toCompletableFuture());
                handle(first, entries);
                return;
            }
            Map<String, StreamMessageId> others = new LinkedHashMap<>();
            for (Tracked t : queues.subList(1, queues.size())) {
                others.put(t.stream, id(t.cursor));
            }
            Map<String, Map<StreamMessageId, Map<String, String>>> all = await(stream.readAsync(StreamMultiReadArgs
                    .greaterThan(id(first.cursor), others).count(READ_COUNT).timeout(Duration.ofMillis(BLOCK_MS)))
                    .toCompletableFuture());
            if (all != null) {
                for (Tracked t : queues) {
                    handle(t, all.get(t.stream));
                }
            }
            return;
        }
        // Cluster: one slot per command. Non-blocking reads of all but one, then block on that one.
        Tracked blockOn = queues.get(Math.floorMod(rotation++, queues.size()));
        boolean got = false;
        for (Tracked t : queues) {
            if (t != blockOn) {
                got |= handle(t, await(small.<String, String>getStream(t.stream, StringCodec.INSTANCE)
                        .readAsync(StreamReadArgs.greaterThan(id(t.cursor)).count(READ_COUNT)).toCompletableFuture()));
            }
        }
        StreamReadArgs args = StreamReadArgs.greaterThan(id(blockOn.cursor)).count(READ_COUNT);
        handle(blockOn, await(small.<String, String>getStream(blockOn.stream, StringCodec.INSTANCE)
                .readAsync(got ? args : args.timeout(Duration.ofMillis(BLOCK_MS))).toCompletableFuture()));
    }

    private static <V> V await(CompletableFuture<V> read) {
        try {
            return read.get(BLOCK_MS + WATCHDOG_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("a stream read outlived its block time");
        }
    }

    /** @return whether there were entries */
    private boolean handle(Tracked t, Map<StreamMessageId, Map<String, String>> entries) {
        if (entries == null || entries.isEmpty()) {
            return false;
        }
        for (Map.Entry<StreamMessageId, Map<String, String>> e : entries.entrySet()) {
            Map<String, String> f = e.getValue();
            String event = f.get("event");
            if (("completed".equals(event) || "failed".equals(event)) && f.get("jobId") != null && !t.waiters.isEmpty()) {
                String[] ids = f.get("jobId").split(" ");
                for (String jobId : ids) {
                    if (!t.waiters.containsKey(jobId)) {
                        continue;
                    }
                    if ("completed".equals(event)) {
                        String v = f.get("returnValue:" + jobId);
                        v = v != null ? v : ids.length == 1 ? f.get("returnValue") : null;
                        awaiter.resolve(t, jobId, "completed", v == null ? "null" : v, false);
                    } else {
                        String reason = f.getOrDefault("failedReason", "");
                        awaiter.resolve(t, jobId, "failed", reason, "1".equals(f.get("cancelled")) || "true".equals(f.get("cancelled")));
                    }
                }
            }
            t.cursor = e.getKey().toString();
        }
        return true;
    }

    /**
     * Re-reads every pending job of every queue: finished ones complete, missing ones fail. All
     * that finished before the first call's newest event id is answered, so a queue's position
     * moves up to it: a stream trimmed past the position (a gap) or a backlog is skipped. Safe
     * because starts are taken only at the top of the loop: an await not in this snapshot sets
     * its queue's position back to its own id when its start is taken.
     */
    private void recheckAll() {
        for (Tracked t : awaiter.queues.values()) {
            List<String> ids = new ArrayList<>(t.waiters.keySet());
            String newest = null;
            for (int from = 0; from < ids.size(); from += RECHECK_BATCH) {
                String n = recheck(t, ids.subList(from, Math.min(ids.size(), from + RECHECK_BATCH)));
                newest = newest == null ? n : newest;
            }
            if (newest != null && t.cursor != null && compare(newest, t.cursor) > 0) {
                t.cursor = newest;
            }
        }
    }

    /** @return the events stream's newest id when awaitJob ran */
    private String recheck(Tracked t, List<String> ids) {
        AwaitScripts.Reply reply = await(t.scripts.awaitJob(t.keepMs, ids).toCompletableFuture());
        for (Answer a : reply.answers()) {
            if (!"pending".equals(a.status())) {
                awaiter.resolve(t, a.jobId(), a.status(), a.value(), false);
            }
        }
        return reply.newestEventId();
    }

    static StreamMessageId id(String id) {
        int dash = id.indexOf('-');
        return dash < 0 ? new StreamMessageId(Long.parseLong(id))
                : new StreamMessageId(Long.parseLong(id.substring(0, dash)), Long.parseLong(id.substring(dash + 1)));
    }

    /** Compares stream ids {@code ms-seq} numerically. */
    static int compare(String a, String b) {
        StreamMessageId x = id(a);
        StreamMessageId y = id(b);
        int c = Long.compare(x.getId0(), y.getId0());
        return c != 0 ? c : Long.compare(x.getId1(), y.getId1());
    }
}
