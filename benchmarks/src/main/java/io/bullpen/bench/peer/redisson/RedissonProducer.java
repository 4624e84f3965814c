package io.bullpen.bench.peer.redisson;

import io.bullpen.bench.peer.DueTimes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.redisson.api.RDelayedQueue;
import org.redisson.api.RFuture;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/** The delayed workload's Redisson producer (run in its own JVM by DelayedProducerMain). */
@SuppressWarnings("deprecation") // RDelayedQueue: deprecated in Redisson 4, and the peer measured here
public final class RedissonProducer {
    private static final int IN_FLIGHT = 500;

    private RedissonProducer() {
    }

    /**
     * Offers messages due uniformly over {@code spreadMs}, the first {@code leadMs} from now.
     *
     * @param url the Redis URL
     * @param queue the destination queue
     * @param jobs how many
     * @param leadMs to the first due time
     * @param spreadMs span of the due times
     */
    public static void produce(String url, String queue, int jobs, long leadMs, long spreadMs) {
        RedissonClient redisson = RedissonClients.connect(url);
        try {
            RDelayedQueue<String> delayed = delayedQueue(redisson, queue);
            offerDueUniformly(delayed, jobs, leadMs, spreadMs);
            delayed.destroy();
        } finally {
            redisson.shutdown();
        }
    }

    static RDelayedQueue<String> delayedQueue(RedissonClient redisson, String queue) {
        return redisson.getDelayedQueue(redisson.<String>getBlockingQueue(queue, StringCodec.INSTANCE));
    }

    static void offerDueUniformly(RDelayedQueue<String> delayed, int jobs, long leadMs, long spreadMs) {
        DueTimes due = new DueTimes(jobs, leadMs, spreadMs);
        List<RFuture<Void>> pending = new ArrayList<>(IN_FLIGHT);
        for (int i = 0; i < jobs; i++) {
            pending.add(delayed.offerAsync(RedissonClients.message(i, due.due(i)), due.delayFromNow(i), TimeUnit.MILLISECONDS));
            if (pending.size() == IN_FLIGHT) {
                pending.forEach(f -> f.toCompletableFuture().join());
                pending.clear();
            }
        }
        pending.forEach(f -> f.toCompletableFuture().join());
    }
}
