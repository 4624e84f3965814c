package io.bullpen.internal;

import io.bullpen.JobState;
import io.bullpen.MetricsType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.redisson.api.RScript.ReturnType;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * One method per queue-wide admin script (named after the script file): clean, drain,
 * obliterate, retryJobs, promoteJobs, and the getMetrics read. Each call is one bounded chunk;
 * {@link QueueAdmin} loops. KEYS are built from {@link KeyScheme} in header order. Not API.
 */
public final class AdminScripts {
    private final RedissonClient redisson;
    private final ScriptRunner runner;
    private final KeyScheme k;
    private final ScriptKeys scriptKeys;

    /** One chunk of clean: jobs removed, and the cursor of the next call ({@code -1} = done). */
    public record CleanChunk(long removed, long nextCursor) {
        /** @return whether the clean is finished */
        public boolean done() {
            return nextCursor < 0;
        }
    }

    /** One chunk of drain: jobs removed, and whether jobs to drain are left. */
    public record DrainChunk(long removed, boolean more) {
    }

    /** One chunk of obliterate: jobs deleted, and whether the queue is gone. */
    public record ObliterateChunk(long deleted, boolean done) {
    }

    /** One chunk of retryJobs or promoteJobs: jobs moved, and ids taken from the source (moved + dropped). */
    public record MoveChunk(long moved, long taken) {
    }

    /**
     * The stored metrics of one kind.
     *
     * @param minute the minute of the last finish counted (epoch ms / 60000), -1 when none yet
     * @param count that minute's count
     * @param older the counts of the minutes before it, newest first
     */
    public record MetricsReading(long minute, long count, List<Long> older) {
    }

    /**
     * @param redisson the client
     * @param keys the queue's keys
     */
    public AdminScripts(RedissonClient redisson, KeyScheme keys) {
        this.redisson = redisson;
        this.runner = new ScriptRunner(redisson);
        this.k = keys;
        this.scriptKeys = new ScriptKeys(keys);
    }

    /**
     * clean: removes old jobs of one state, one chunk.
     *
     * @param state COMPLETED, FAILED, DELAYED, PRIORITIZED or WAITING
     * @param now the caller's clock, epoch ms
     * @param graceMs jobs younger than this are kept
     * @param cursor 0, then the previous chunk's {@link CleanChunk#nextCursor()}
     * @param batch most ids examined
     * @param remaining most ids removed from here on (-1 = no limit)
     * @param total ids removed by the earlier chunks (for the final event)
     */
    public CompletionStage<CleanChunk> clean(JobState state, long now, long graceMs, long cursor, int batch,
                                             long remaining, long total) {
        List<Object> keys = scriptKeys.of("clean", "source", k.stateKey(state));
        return runner.<List<Object>>run("clean", ReturnType.LIST, keys, k.jobPrefix(),
                        state.label(), Long.toString(now), Long.toString(graceMs), Long.toString(cursor),
                        Integer.toString(batch), Long.toString(remaining), Long.toString(total))
                .thenApply(r -> new CleanChunk(ScriptReplies.num(r.get(0)), ScriptReplies.num(r.get(1))));
    }

    /**
     * drain: removes up to {@code limit} waiting and prioritized (and delayed) jobs.
     *
     * @param total jobs removed by the earlier chunks (for the final event)
     */
    public CompletionStage<DrainChunk> drain(boolean includeDelayed, int limit, long total) {
        List<Object> keys = scriptKeys.of("drain");
        return runner.<List<Object>>run("drain", ReturnType.LIST, keys, k.jobPrefix(),
                        includeDelayed ? "1" : "0", Integer.toString(limit), Long.toString(total))
                .thenApply(r -> new DrainChunk(ScriptReplies.num(r.get(0)), ScriptReplies.num(r.get(1)) == 1));
    }

    /**
     * obliterate: deletes up to {@code limit} jobs (and schedulers), and the queue's own keys once
     * nothing else is left.
     *
     * @throws io.bullpen.QueueBusyException (in the stage) when jobs are active and not forced
     */
    public CompletionStage<ObliterateChunk> obliterate(boolean force, int limit) {
        List<Object> keys = scriptKeys.of("obliterate");
        return runner.<Object>run("obliterate", ReturnType.LIST, keys, k.jobPrefix(),
                        k.schedulerPrefix(), force ? "1" : "0", Integer.toString(limit))
                .thenCompose(reply -> {
                    if (reply instanceof Number code) {
                        // The count is read afterwards, for the message only.
                        return redisson.getScoredSortedSet(k.leases(), StringCodec.INSTANCE).sizeAsync()
                                .thenApply(active -> {
                                    throw ErrorCode.toException(code.longValue(), k.queue(), null, "obliterate",
                                            Integer.toString(active));
                                });
                    }
                    List<?> r = (List<?>) reply;
                    return CompletableFuture.completedFuture(
                            new ObliterateChunk(ScriptReplies.num(r.get(0)), ScriptReplies.num(r.get(1)) == 1));
                });
    }

    /**
     * retryJobs: runs up to {@code limit} finished jobs again with fresh attempts, oldest finished first.
     *
     * @param from FAILED or COMPLETED
     */
    public CompletionStage<MoveChunk> retryJobs(JobState from, int limit) {
        List<Object> keys = scriptKeys.of("retryJobs", "source", k.stateKey(from));
        return runner.<List<Object>>run("retryJobs", ReturnType.LIST, keys, k.jobPrefix(),
                        from.label(), Integer.toString(limit))
                .thenApply(AdminScripts::moveChunk);
    }

    /** promoteJobs: runs up to {@code limit} delayed jobs now, earliest due first. */
    public CompletionStage<MoveChunk> promoteJobs(int limit) {
        List<Object> keys = scriptKeys.of("promoteJobs");
        return runner.<List<Object>>run("promoteJobs", ReturnType.LIST, keys, k.jobPrefix(),
                        Integer.toString(limit))
                .thenApply(AdminScripts::moveChunk);
    }

    /**
     * getMetrics: the stored per-minute counts of one kind, read atomically.
     *
     * @param older most counts read from before the last counted minute
     */
    public CompletionStage<MetricsReading> getMetrics(MetricsType type, int older) {
        List<Object> keys = scriptKeys.of("getMetrics", "metrics", k.metrics(type.label()));
        return runner.<List<Object>>run("getMetrics", ReturnType.LIST, keys, type.label(),
                        Integer.toString(older))
                .thenApply(r -> {
                    List<?> raw = (List<?>) r.get(2);
                    List<Long> counts = new ArrayList<>(raw.size());
                    for (Object o : raw) {
                        counts.add(ScriptReplies.num(o));
                    }
                    return new MetricsReading(ScriptReplies.num(r.get(0)), ScriptReplies.num(r.get(1)), counts);
                });
    }

    private static MoveChunk moveChunk(List<Object> r) {
        return new MoveChunk(ScriptReplies.num(r.get(0)), ScriptReplies.num(r.get(1)));
    }
}
