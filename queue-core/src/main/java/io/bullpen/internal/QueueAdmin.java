package io.bullpen.internal;

import static io.bullpen.internal.Futures.join;

import io.bullpen.JobState;
import io.bullpen.MetricsType;
import io.bullpen.QueueBusyException;
import io.bullpen.QueueMetrics;
import io.bullpen.internal.AdminScripts.CleanChunk;
import io.bullpen.internal.AdminScripts.DrainChunk;
import io.bullpen.internal.AdminScripts.MetricsReading;
import io.bullpen.internal.AdminScripts.MoveChunk;
import io.bullpen.internal.AdminScripts.ObliterateChunk;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntFunction;
import org.redisson.api.RedissonClient;

/**
 * Queue-wide administration behind {@code Queue}: each operation loops over its script in chunks
 * of at most {@link #DEFAULT_CHUNK} jobs, so no single call blocks Redis for long however big the
 * queue is (each chunk is atomic, the whole operation is not). Also metrics, logs and the
 * registry of queues. Not API.
 *
 * <ol>
 *   <li>clean: one cutoff ({@code now - grace}) for every chunk; a cursor carries the scan of
 *       delayed, prioritized and waiting over chunks.</li>
 *   <li>drain, obliterate: chunks until the script says nothing is left.</li>
 *   <li>retryJobs, promoteJobs: at most as many jobs as the source held at the start, so jobs that
 *       come back to it meanwhile (a retried job failing again) are not taken twice.</li>
 * </ol>
 */
public final class QueueAdmin {
    /** Jobs per script call. */
    public static final int DEFAULT_CHUNK = 1000;

    private static final long MINUTE_MS = 60_000;

    private final RedissonClient redisson;
    private final KeyScheme k;
    private final Scripts scripts;
    private final AdminScripts admin;
    private final int chunk;

    /**
     * @param redisson the client
     * @param keys the queue's keys
     * @param scripts the queue's scripts (for pause)
     */
    public QueueAdmin(RedissonClient redisson, KeyScheme keys, Scripts scripts) {
        this(redisson, keys, scripts, DEFAULT_CHUNK);
    }

    QueueAdmin(RedissonClient redisson, KeyScheme keys, Scripts scripts, int chunk) {
        this.redisson = redisson;
        this.k = keys;
        this.scripts = scripts;
        this.admin = new AdminScripts(redisson, keys);
        this.chunk = chunk;
    }

    /** Removes up to {@code limit} (0 = all) jobs of {@code state} older than {@code grace}; returns how many. */
    public long clean(long now, Duration grace, int limit, JobState state) {
        Objects.requireNonNull(grace, "grace");
        Objects.requireNonNull(state, "state");
        switch (state) {
            case COMPLETED, FAILED, DELAYED, PRIORITIZED, WAITING -> { }
            default -> throw new IllegalArgumentException("cannot clean jobs in state " + state
                    + ": only COMPLETED, FAILED, DELAYED, PRIORITIZED and WAITING can be cleaned");
        }
        if (grace.isNegative()) {
            throw new IllegalArgumentException("grace must be >= 0 but was " + grace.toMillis() + "ms");
        }
        if (limit < 0) {
            throw new IllegalArgumentException("limit must be >= 0 (0 = no limit) but was " + limit);
        }
        long remaining = limit == 0 ? -1 : limit;
        long total = 0;
        long cursor = 0;
        while (true) {
            CleanChunk c = join(admin.clean(state, now, grace.toMillis(), cursor, chunk, remaining, total));
            total += c.removed();
            if (remaining > 0) {
                remaining -= c.removed();
            }
            if (c.done()) {
                return total;
            }
            cursor = c.nextCursor();
        }
    }

    /** Removes every waiting and prioritized job, and the delayed ones when asked; returns how many. */
    public long drain(boolean includeDelayed) {
        long total = 0;
        while (true) {
            DrainChunk c = join(admin.drain(includeDelayed, chunk, total));
            total += c.removed();
            if (!c.more()) {
                return total;
            }
        }
    }

    /**
     * Pauses the queue, deletes all its keys chunk by chunk, then removes it from the registry.
     * Without force, active jobs refuse the call before anything is paused (no paused or resumed
     * event); a job taken between that check and the pause still refuses it, and then the pause
     * made here is undone.
     *
     * @return the number of jobs deleted
     */
    public long obliterate(boolean force) {
        if (!force) {
            long active = join(redisson.getScoredSortedSet(RedisCalls.plain(k.leases())).sizeAsync());
            if (active > 0) {
                throw new QueueBusyException(k.queue(), "obliterate", active);
            }
        }
        boolean pausedHere = join(scripts.pause(true));
        long deleted = 0;
        boolean first = true;
        while (true) {
            ObliterateChunk c;
            try {
                c = join(admin.obliterate(force, chunk));
            } catch (QueueBusyException e) {
                if (first && pausedHere) {
                    join(scripts.pause(false));
                }
                throw e;
            }
            first = false;
            deleted += c.deleted();
            if (c.done()) {
                break;
            }
        }
        join(redisson.getSet(RedisCalls.plain(k.registry())).removeAsync(k.queue()));
        return deleted;
    }

    /** Runs every FAILED (or COMPLETED) job again with fresh attempts; returns how many. */
    public long retryJobs(JobState state) {
        Objects.requireNonNull(state, "state");
        if (state != JobState.FAILED && state != JobState.COMPLETED) {
            throw new IllegalArgumentException("cannot retry jobs in state " + state + ": only FAILED and COMPLETED");
        }
        return moveAll(state, n -> join(admin.retryJobs(state, n)));
    }

    /** Runs every delayed job now; returns how many. */
    public long promoteJobs() {
        return moveAll(JobState.DELAYED, n -> join(admin.promoteJobs(n)));
    }

    private long moveAll(JobState source, IntFunction<MoveChunk> call) {
        long remaining = join(redisson.getScoredSortedSet(RedisCalls.plain(k.stateKey(source))).sizeAsync());
        long moved = 0;
        while (remaining > 0) {
            int n = (int) Math.min(chunk, remaining);
            MoveChunk c = call.apply(n);
            moved += c.moved();
            remaining -= c.taken();
            if (c.taken() < n) {
                break;
            }
        }
        return moved;
    }

    /**
     * The per-minute counts of the last {@code minutes} minutes, the current one first.
     *
     * @param now the reader's clock, epoch ms
     */
    public QueueMetrics metrics(long now, MetricsType type, int minutes) {
        Objects.requireNonNull(type, "type");
        if (minutes < 1 || minutes > QueueMetrics.MAX_MINUTES) {
            throw new IllegalArgumentException("minutes must be between 1 and " + QueueMetrics.MAX_MINUTES
                    + " but was " + minutes);
        }
        MetricsReading r = join(admin.getMetrics(type, minutes - 1));
        return place(type, Math.floorDiv(now, MINUTE_MS), minutes, r);
    }

    /** Places a reading on the minutes ending at the later of the reader's minute and the last counted one. */
    static QueueMetrics place(MetricsType type, long readerMinute, int minutes, MetricsReading r) {
        boolean counted = r.minute() >= 0;
        long current = counted ? Math.max(readerMinute, r.minute()) : readerMinute;
        long gap = current - r.minute(); // index of the last counted minute in the result
        List<Long> counts = new ArrayList<>(minutes);
        for (int i = 0; i < minutes; i++) {
            long count = 0;
            if (counted && i == gap) {
                count = r.count();
            } else if (counted && i > gap && i - gap - 1 < r.older().size()) {
                count = r.older().get((int) (i - gap - 1));
            }
            counts.add(count);
        }
        return new QueueMetrics(type, Instant.ofEpochMilli((current - minutes + 1) * MINUTE_MS), counts);
    }

    /** The job's log lines, oldest first; empty when it has none. */
    public List<String> jobLogs(String id) {
        Objects.requireNonNull(id, "id");
        return Collections.unmodifiableList(join(redisson.<String>getList(RedisCalls.plain(k.logs(id))).readAllAsync()));
    }

    /** The queue names in the registry of {@code prefix}, sorted. */
    public static Set<String> listQueues(RedissonClient redisson, String prefix) {
        Objects.requireNonNull(redisson, "redisson");
        // The registry key depends on the prefix only; any valid queue name forms it.
        String registry = new KeyScheme(Validation.prefix(prefix), "_").registry();
        return Collections.unmodifiableSet(new TreeSet<>(join(redisson.<String>getSet(RedisCalls.plain(registry)).readAllAsync())));
    }
}
