package io.bullpen.bench.peer;

import io.bullpen.bench.peer.bullpen.BullpenProducer;
import io.bullpen.bench.peer.redisson.RedissonProducer;

/**
 * The delayed workload's producer for the Java peers, run in a JVM of its own so that adding
 * and consuming are different processes, as in production:
 * {@code DelayedProducerMain bullpen|redisson REDIS_URL QUEUE JOBS LEAD_MS SPREAD_MS}. It
 * connects, adds the jobs due uniformly over SPREAD_MS starting LEAD_MS after it connected,
 * prints {@code added N} and exits.
 */
public final class DelayedProducerMain {
    private DelayedProducerMain() {
    }

    /**
     * @param args peer, Redis URL, queue, jobs, lead and spread in milliseconds
     * @throws Exception when adding fails (the exit code is then non-zero)
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 6) {
            throw new IllegalArgumentException("usage: DelayedProducerMain bullpen|redisson REDIS_URL QUEUE JOBS LEAD_MS SPREAD_MS");
        }
        String url = args[1];
        String queue = args[2];
        int jobs = Integer.parseInt(args[3]);
        long leadMs = Long.parseLong(args[4]);
        long spreadMs = Long.parseLong(args[5]);
        switch (args[0]) {
            case "bullpen" -> BullpenProducer.produce(url, queue, jobs, leadMs, spreadMs);
            case "redisson" -> RedissonProducer.produce(url, queue, jobs, leadMs, spreadMs);
            default -> throw new IllegalArgumentException("unknown peer '" + args[0] + "'");
        }
        System.out.println("added " + jobs);
        System.exit(0);
    }
}
