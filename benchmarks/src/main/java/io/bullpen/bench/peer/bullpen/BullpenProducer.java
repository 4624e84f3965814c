package io.bullpen.bench.peer.bullpen;

import io.bullpen.JobOptions;
import io.bullpen.JobSpec;
import io.bullpen.Queue;
import io.bullpen.bench.peer.DueTimes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.redisson.api.RedissonClient;

/** The delayed workload's Bullpen producer (run in its own JVM by DelayedProducerMain). */
public final class BullpenProducer {
    private static final int CHUNK = 500;

    private BullpenProducer() {
    }

    /**
     * Adds jobs due uniformly over {@code spreadMs}, the first {@code leadMs} from now.
     *
     * @param url the Redis URL
     * @param queue the queue
     * @param jobs how many
     * @param leadMs to the first due time
     * @param spreadMs span of the due times
     */
    public static void produce(String url, String queue, int jobs, long leadMs, long spreadMs) {
        RedissonClient redisson = BullpenClients.connect(url);
        try {
            addDueUniformly(Queue.builder(redisson, queue, Payload.class).build(), jobs, leadMs, spreadMs);
        } finally {
            redisson.shutdown();
        }
    }

    static void addDueUniformly(Queue<Payload> queue, int jobs, long leadMs, long spreadMs) {
        DueTimes due = new DueTimes(jobs, leadMs, spreadMs);
        for (int i = 0; i < jobs; i += CHUNK) {
            List<JobSpec<Payload>> specs = new ArrayList<>(CHUNK);
            for (int j = i; j < Math.min(jobs, i + CHUNK); j++) {
                specs.add(JobSpec.of("noop", new Payload(j),
                        JobOptions.builder().delay(Duration.ofMillis(due.delayFromNow(j))).build()));
            }
            queue.addBulk(specs);
        }
    }
}
