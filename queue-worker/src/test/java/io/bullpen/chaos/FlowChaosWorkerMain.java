package io.bullpen.chaos;

import io.bullpen.worker.Worker;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.redisson.config.ReadMode;

/**
 * The worker JVM of {@link FlowClusterChaosTest}: a cluster client and one worker per queue of the
 * flows ({@link FlowChaosJobs}), killed with SIGKILL by the test. Prints {@code ready}, then the
 * processors' lines (System.out flushes each line, so a kill loses none). It halts when its parent
 * goes away (stdin closes) or after {@code maxLifetimeSeconds}.
 *
 * <p>Arguments: nodeUris (comma-separated) queues (comma-separated) workerName concurrency maxLifetimeSeconds.
 */
public final class FlowChaosWorkerMain {
    private FlowChaosWorkerMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: FlowChaosWorkerMain nodeUris queues workerName concurrency maxLifetimeSeconds");
            System.exit(2);
        }
        watchParent(Long.parseLong(args[4]));
        try {
            Config config = new Config();
            config.setNettyThreads(4);
            config.useClusterServers().addNodeAddress(args[0].split(",")).setReadMode(ReadMode.MASTER)
                    .setScanInterval(1000).setMasterConnectionMinimumIdleSize(1).setMasterConnectionPoolSize(8);
            RedissonClient redisson = Redisson.create(config);
            for (String queue : args[1].split(",")) {
                Worker<FlowChaosJobs.Step, String> w = FlowChaosJobs.worker(redisson, queue, args[2] + "-" + queue,
                        Integer.parseInt(args[3]), line -> System.out.println(line));
                w.start();
            }
            System.out.println("ready");
        } catch (Throwable t) {
            System.err.println("child: failed to start its workers");
            t.printStackTrace();
            System.err.flush();
            Runtime.getRuntime().halt(1);
        }
        new CountDownLatch(1).await(); // until killed
    }

    private static void watchParent(long maxLifetimeSeconds) {
        Thread stdin = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // the parent never writes; EOF means it closed the pipe or died
                }
            } catch (IOException ignored) {
                // same as EOF
            }
            Runtime.getRuntime().halt(3);
        }, "parent-stdin-watch");
        stdin.setDaemon(true);
        stdin.start();
        Thread lifetime = new Thread(() -> {
            try {
                TimeUnit.SECONDS.sleep(maxLifetimeSeconds);
            } catch (InterruptedException e) {
                return;
            }
            Runtime.getRuntime().halt(4);
        }, "max-lifetime");
        lifetime.setDaemon(true);
        lifetime.start();
    }
}
