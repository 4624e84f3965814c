package io.bullpen.chaos;

import io.bullpen.worker.Worker;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * The child JVM of {@link WorkerKillChaosTest}: one worker with short jobs, killed with SIGKILL by
 * the test. It prints {@code ready}, then {@code start <id> <fence>} before each processor run
 * and {@code done <id> <fence> <epochMillis>} after it (System.out flushes each line, so the log
 * holds every start made before the kill). It halts itself when its parent goes away or after
 * {@code maxLifetimeSeconds}, so it can never outlive a crashed test run.
 *
 * <p>Arguments: redisUri queue workerName lockMillis concurrency jobMinMillis jobMaxMillis maxStalledCount
 * maxLifetimeSeconds.
 */
public final class ChaosWorkerMain {
    private ChaosWorkerMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 9) {
            System.err.println("usage: ChaosWorkerMain redisUri queue workerName lockMillis concurrency jobMinMillis "
                    + "jobMaxMillis maxStalledCount maxLifetimeSeconds");
            System.exit(2);
        }
        watchParent(Long.parseLong(args[8]));
        try {
            run(args[0], args[1], args[2], Long.parseLong(args[3]), Integer.parseInt(args[4]), Integer.parseInt(args[5]),
                    Integer.parseInt(args[6]), Integer.parseInt(args[7]));
        } catch (Throwable t) {
            System.err.println("child: failed to start its worker");
            t.printStackTrace();
            System.err.flush();
            Runtime.getRuntime().halt(1);
        }
    }

    private static void run(String uri, String queue, String name, long lockMillis, int concurrency, int jobMin,
            int jobMax, int maxStalled) throws InterruptedException {
        Config config = new Config();
        config.setNettyThreads(4);
        config.useSingleServer().setAddress(uri).setConnectionMinimumIdleSize(1).setConnectionPoolSize(8);
        RedissonClient redisson = Redisson.create(config);
        Worker<Long, String> worker = Worker.builder(redisson, queue, Long.class)
                .name(name)
                .concurrency(concurrency)
                .lockDuration(Duration.ofMillis(lockMillis))
                .stalledInterval(Duration.ofMillis(lockMillis))
                .maxStalledCount(maxStalled)
                .processor(ctx -> {
                    System.out.println("start " + ctx.job().id() + " " + ctx.fencingToken());
                    Thread.sleep(ThreadLocalRandom.current().nextInt(jobMin, jobMax + 1));
                    System.out.println("done " + ctx.job().id() + " " + ctx.fencingToken() + " " + System.currentTimeMillis());
                    return "ok";
                })
                .build();
        worker.start();
        System.out.println("ready");
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
        ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> Runtime.getRuntime().halt(3)));
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
