package io.bullpen.worker;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.redisson.config.ReadMode;

/**
 * The child JVM of {@link WorkerCrashTest}: one worker whose jobs run far longer than the test,
 * so it holds them when the test kills it with SIGKILL. Never meant to exit on its own, except
 * as a safety net when the parent JVM goes away (its stdin closes or its process ends) or after
 * {@code maxLifetimeSeconds}, so an orphan can never outlive a crashed test run.
 *
 * <p>Arguments: redisUri queue workerName lockMillis concurrency jobMillis maxLifetimeSeconds.
 */
public final class CrashWorkerMain {
    private CrashWorkerMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 7) {
            System.err.println("usage: CrashWorkerMain redisUri queue workerName lockMillis concurrency jobMillis "
                    + "maxLifetimeSeconds");
            System.exit(2);
        }
        String uri = args[0];
        String queue = args[1];
        String name = args[2];
        long lockMillis = Long.parseLong(args[3]);
        int concurrency = Integer.parseInt(args[4]);
        long jobMillis = Long.parseLong(args[5]);
        long maxLifetimeSeconds = Long.parseLong(args[6]);

        watchParent(maxLifetimeSeconds);
        try {
            run(uri, queue, name, lockMillis, concurrency, jobMillis);
        } catch (Throwable t) {
            // Redisson's threads are not daemons: without this a broken child would linger, alive
            // but useless, until the parent's timeout.
            System.err.println("child: failed to start its worker");
            t.printStackTrace();
            System.err.flush();
            Runtime.getRuntime().halt(1);
        }
    }

    private static void run(String uri, String queue, String name, long lockMillis, int concurrency, long jobMillis)
            throws InterruptedException {
        Config config = new Config();
        config.setNettyThreads(4);
        if (uri.contains(",")) {
            config.useClusterServers().addNodeAddress(uri.split(",")).setReadMode(ReadMode.MASTER)
                    .setMasterConnectionMinimumIdleSize(1).setMasterConnectionPoolSize(8);
        } else {
            config.useSingleServer().setAddress(uri).setConnectionMinimumIdleSize(1).setConnectionPoolSize(8);
        }
        RedissonClient redisson = Redisson.create(config);

        Worker<String, String> worker = Worker.builder(redisson, queue, String.class)
                .name(name)
                .concurrency(concurrency)
                .lockDuration(Duration.ofMillis(lockMillis))
                .stalledInterval(Duration.ofMillis(lockMillis))
                .processor(ctx -> {
                    System.out.println("child: started job " + ctx.job().id() + " fence " + ctx.fencingToken());
                    Thread.sleep(jobMillis); // "long work": the test kills this JVM long before it ends
                    return "finished by the child";
                })
                .build();
        worker.start();
        System.out.println("child: worker " + name + " started on queue " + queue);
        new CountDownLatch(1).await(); // run until killed
    }

    /** Halts this JVM when the parent goes away or the lifetime runs out (a crashed test leaves no orphan). */
    private static void watchParent(long maxLifetimeSeconds) {
        Thread stdin = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // the parent never writes; EOF means it closed the pipe or died
                }
            } catch (IOException ignored) {
                // same as EOF
            }
            System.err.println("child: parent went away (stdin closed); halting");
            Runtime.getRuntime().halt(3);
        }, "parent-stdin-watch");
        stdin.setDaemon(true);
        stdin.start();
        ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> {
            System.err.println("child: parent process ended; halting");
            Runtime.getRuntime().halt(3);
        }));
        Thread lifetime = new Thread(() -> {
            try {
                TimeUnit.SECONDS.sleep(maxLifetimeSeconds);
            } catch (InterruptedException e) {
                return;
            }
            System.err.println("child: max lifetime of " + maxLifetimeSeconds + " s reached; halting");
            Runtime.getRuntime().halt(4);
        }, "max-lifetime");
        lifetime.setDaemon(true);
        lifetime.start();
    }
}
