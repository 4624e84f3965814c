package io.bullpen.internal;

import io.bullpen.internal.ScriptTypes.AddOutcome;
import io.bullpen.internal.ScriptTypes.NewJob;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.redisson.api.RedissonClient;

/**
 * Coalesces the single adds of one queue (per client, key prefix and queue, whichever
 * {@code Queue} object they come from) into as few script calls as possible, the producer-side
 * twin of a worker's take-ahead:
 * <ol>
 *   <li>an add joins the lane's queue of pending adds;</li>
 *   <li>when fewer than {@link #MAX_IN_FLIGHT} calls of the lane are in flight, that add's thread
 *       sends at once every add pending (up to {@link #MAX_JOBS} jobs or {@link #MAX_BYTES}) in
 *       one call: a lone add goes out alone and at once, there is no timer;</li>
 *   <li>adds that arrive while the lane's calls are in flight wait for one of them; when it
 *       answers, the next call takes all of them (sent from the thread the answer arrived on,
 *       before the answered callers are completed);</li>
 *   <li>each add gets its own outcome from the call (the script answers per job), or the call's
 *       failure.</li>
 * </ol>
 * Order: the queue is FIFO, and a call sent while another is in flight stops before the first add
 * of a thread that has an add in that call (that add waits for it). So one thread's adds run in
 * Redis in the order it made them, and two calls in flight at once only carry adds of different
 * threads made while none of them had returned: concurrent adds, which any order serves
 * (custom ids and deduplication behave as if the adds ran one after another). Two calls in flight
 * let a few producers overlap their round trips (each waits for its own), as a pipelining client
 * does; more would only split the jobs into more calls. Not API.
 */
public final class AddLane {
    /** Jobs per call at most: a call holds Redis for a few milliseconds at most. */
    static final int MAX_JOBS = 100;
    /** Bytes of job data, options and names per call at most (a bigger lone job goes alone). */
    static final long MAX_BYTES = 1 << 20;
    /** Calls of one lane in flight at once at most. */
    static final int MAX_IN_FLIGHT = 2;

    private static final Map<RedissonClient, Map<String, AddLane>> LANES = new WeakHashMap<>();

    private final ConcurrentLinkedQueue<Pending> pending = new ConcurrentLinkedQueue<>();
    /** Guards inFlight and threadsInFlight, and the taking of pending adds into a call. */
    private final Object sending = new Object();
    private int inFlight;
    /** Adds in flight per thread that made them. */
    private final Map<Long, Integer> threadsInFlight = new HashMap<>();

    AddLane() {
    }

    /** Sends one call: the adds' queue is reached through the sender of the call's first add. */
    public interface Sender {
        /** @return the time the call's jobs are added at (their timestamp), epoch ms */
        long now();

        /**
         * @param traceContexts each job's trace headers, null for none
         * @return one outcome per job, in order
         */
        CompletionStage<List<AddOutcome>> send(long now, List<NewJob> jobs, List<String> traceContexts);
    }

    /** An add's answer: its outcome and the time its call added it at. */
    public record Added(AddOutcome outcome, long now) {
    }

    private record Pending(NewJob job, String traceContext, Sender sender, long thread, CompletableFuture<Added> result) {
        long bytes() {
            return (long) job.data().length() + job.opts().length() + job.name().length()
                    + (traceContext == null ? 0 : traceContext.length());
        }
    }

    /**
     * The lane of a queue. It holds no reference to the client (pending adds do, until answered),
     * so a client that is no longer used takes its lanes with it.
     *
     * @param key the key prefix and queue, and anything else a call must share (durable adds)
     */
    public static AddLane of(RedissonClient client, String key) {
        synchronized (LANES) {
            return LANES.computeIfAbsent(client, c -> new ConcurrentHashMap<>()).computeIfAbsent(key, k -> new AddLane());
        }
    }

    /**
     * Adds one job, in a call of its own or with others pending at the same time.
     *
     * @param traceContext the job's trace headers, null for none
     * @return its outcome; completed on the thread that got Redis's answer (a Redisson I/O thread),
     *     so callers move their work off it
     */
    public CompletableFuture<Added> add(NewJob job, String traceContext, Sender sender) {
        Pending p = new Pending(job, traceContext, sender, Thread.currentThread().getId(), new CompletableFuture<>());
        pending.add(p);
        sendIfIdle();
        return p.result;
    }

    private void sendIfIdle() {
        // Every check is made holding the lock, and each call's end releases its place and then
        // comes here: an add that could not go (calls full, or its thread's add in flight) is
        // sent by the end of a call in flight.
        while (true) {
            List<Pending> batch;
            synchronized (sending) {
                if (inFlight >= MAX_IN_FLIGHT || pending.isEmpty()) {
                    return;
                }
                batch = take();
                if (batch.isEmpty()) {
                    return;
                }
                inFlight++;
                for (Pending p : batch) {
                    threadsInFlight.merge(p.thread(), 1, Integer::sum);
                }
            }
            send(batch);
        }
    }

    /** Called holding the lock, so peek-then-poll sees the same element. */
    private List<Pending> take() {
        List<Pending> batch = new ArrayList<>();
        long bytes = 0;
        for (Pending p = pending.peek(); p != null && batch.size() < MAX_JOBS; p = pending.peek()) {
            if (threadsInFlight.containsKey(p.thread())) {
                break;   // its thread's earlier add is in flight: it goes after that one's answer
            }
            long size = p.bytes();
            if (!batch.isEmpty() && bytes + size > MAX_BYTES) {
                break;
            }
            pending.poll();
            batch.add(p);
            bytes += size;
        }
        return batch;
    }

    private void release(List<Pending> batch) {
        synchronized (sending) {
            inFlight--;
            for (Pending p : batch) {
                threadsInFlight.computeIfPresent(p.thread(), (t, n) -> n == 1 ? null : n - 1);
            }
        }
    }

    private void send(List<Pending> batch) {
        Sender sender = batch.get(0).sender();
        List<NewJob> jobs = new ArrayList<>(batch.size());
        List<String> traceContexts = new ArrayList<>(batch.size());
        for (Pending p : batch) {
            jobs.add(p.job());
            traceContexts.add(p.traceContext());
        }
        long now;
        CompletionStage<List<AddOutcome>> call;
        try {
            now = sender.now();
            call = sender.send(now, jobs, traceContexts);
        } catch (RuntimeException e) {
            release(batch);
            batch.forEach(p -> p.result().completeExceptionally(e));
            sendIfIdle();
            return;
        }
        call.whenComplete((outcomes, error) -> {
            release(batch);
            sendIfIdle();
            answer(batch, outcomes, error, now);
        });
    }

    private static void answer(List<Pending> batch, List<AddOutcome> outcomes, Throwable error, long now) {
        if (error == null && outcomes.size() != batch.size()) {
            error = new IllegalStateException("addCoalesced answered " + outcomes.size() + " jobs of " + batch.size());
        }
        for (int i = 0; i < batch.size(); i++) {
            CompletableFuture<Added> result = batch.get(i).result();
            if (error != null) {
                result.completeExceptionally(error);
            } else {
                result.complete(new Added(outcomes.get(i), now));
            }
        }
    }
}
