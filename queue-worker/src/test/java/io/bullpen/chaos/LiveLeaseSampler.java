package io.bullpen.chaos;

import io.bullpen.internal.JobFields;
import io.bullpen.internal.KeyScheme;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.redisson.api.RScoredSortedSet;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * Samples a queue's live leases (active jobs whose lock has not expired: what a global
 * concurrency counts) every 10 ms and keeps the maximum, overall and per group (the live leases
 * of one read, by each job's group: a group's slot is given back no earlier than its lease goes).
 * A sample that fails (Redis restarting) is skipped.
 */
final class LiveLeaseSampler implements AutoCloseable {
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final AtomicLong max = new AtomicLong();
    private final AtomicLong samples = new AtomicLong();
    private final AtomicLong maxPerGroup = new AtomicLong();

    private LiveLeaseSampler(RedissonClient client, String queue) {
        KeyScheme keys = new KeyScheme(KeyScheme.DEFAULT_PREFIX, queue);
        RScoredSortedSet<String> leases = client.getScoredSortedSet(keys.leases(), StringCodec.INSTANCE);
        timer.scheduleAtFixedRate(() -> {
            try {
                Collection<String> live = leases.valueRange(System.currentTimeMillis(), false, Double.POSITIVE_INFINITY, true);
                max.accumulateAndGet(live.size(), Math::max);
                Map<String, Long> perGroup = new HashMap<>();
                for (String id : live) {
                    String group = client.<String, String>getMap(keys.job(id), StringCodec.INSTANCE).get(JobFields.GROUP);
                    if (group != null) {
                        perGroup.merge(group, 1L, Long::sum);
                    }
                }
                perGroup.values().forEach(n -> maxPerGroup.accumulateAndGet(n, Math::max));
                samples.incrementAndGet();
            } catch (RuntimeException e) {
                // Redis unreachable for a moment: no sample.
            }
        }, 0, 10, TimeUnit.MILLISECONDS);
    }

    /** Applies the limit, then starts sampling. */
    static LiveLeaseSampler start(RedissonClient client, String queue, Runnable setLimit) {
        setLimit.run();
        return new LiveLeaseSampler(client, queue);
    }

    long max() {
        return max.get();
    }

    /** @return the most live leases of one group in one sample */
    long maxPerGroup() {
        return maxPerGroup.get();
    }

    long samples() {
        return samples.get();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
