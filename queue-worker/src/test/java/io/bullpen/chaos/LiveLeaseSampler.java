package io.bullpen.chaos;

import io.bullpen.internal.KeyScheme;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.redisson.api.RScoredSortedSet;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * Samples a queue's live leases (active jobs whose lock has not expired: what a global
 * concurrency counts) every 10 ms and keeps the maximum. A sample that fails (Redis restarting)
 * is skipped.
 */
final class LiveLeaseSampler implements AutoCloseable {
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final AtomicLong max = new AtomicLong();
    private final AtomicLong samples = new AtomicLong();

    private LiveLeaseSampler(RedissonClient client, String queue) {
        RScoredSortedSet<String> leases = client.getScoredSortedSet(new KeyScheme(KeyScheme.DEFAULT_PREFIX, queue).leases(),
                StringCodec.INSTANCE);
        timer.scheduleAtFixedRate(() -> {
            try {
                long live = leases.count(System.currentTimeMillis(), false, Double.POSITIVE_INFINITY, true);
                max.accumulateAndGet(live, Math::max);
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

    long samples() {
        return samples.get();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
