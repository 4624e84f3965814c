package io.bullpen.examples;

import io.bullpen.Queue;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import io.bullpen.dashboard.Dashboard;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an example from the command line; every example's {@code main} is one call to it.
 * <ol>
 *   <li>Parses the flags ({@link CommandLine}); bad ones end with the usage and status 2.</li>
 *   <li>Picks the Redis ({@link RedisLauncher}): the {@code --redis} one, else the local one on
 *       6379 when it answers, else an embedded one.</li>
 *   <li>Connects and starts the example.</li>
 *   <li>Waits for the end of {@code --duration}, or for Ctrl-C: a shutdown hook wakes the runner
 *       and holds the JVM until step 5 is done.</li>
 *   <li>Closes the example (producers, then workers, which finish their running jobs); on a
 *       Redis that outlives the run (not the embedded one), removes the queues of an example that
 *       {@linkplain Example#removesQueuesOnExit() asks for it} (the demo); then closes the client
 *       and the embedded Redis. Nothing is left running, so the JVM ends with status 0.</li>
 * </ol>
 */
public final class ExampleRunner {
    private static final Logger log = LoggerFactory.getLogger(ExampleRunner.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);
    private static final int DEFAULT_DASHBOARD_PORT = 8080;

    private ExampleRunner() {
    }

    /**
     * Runs an example, and exits the JVM with the status when it is not 0.
     *
     * @param command the command's name, for the usage text
     * @param example the example, not yet started
     * @param args the command line arguments
     */
    public static void main(String command, Example example, String[] args) {
        int status = run(command, example, args);
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * Runs an example; see the class comment.
     *
     * @param command the command's name, for the usage text
     * @param example the example, not yet started
     * @param args the command line arguments
     * @return 0 when it ran, 1 when Redis could not be reached or started, 2 for bad arguments
     */
    public static int run(String command, Example example, String... args) {
        CommandLine cli;
        try {
            cli = CommandLine.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(command + ": " + e.getMessage());
            System.err.print(CommandLine.usage(command));
            return 2;
        }
        if (cli.help()) {
            System.out.print(CommandLine.usage(command));
            return 0;
        }
        try (StopSignal stop = StopSignal.install()) {
            return run(cli, example, stop);
        }
    }

    private static int run(CommandLine cli, Example example, StopSignal stop) {
        RedisLauncher redis;
        try {
            redis = cli.redisUrl().map(RedisLauncher::external).orElseGet(RedisLauncher::localOrEmbedded);
        } catch (RuntimeException e) {
            log.error("could not start an embedded Redis; start one and pass --redis URL", e);
            return 1;
        }
        try (redis) {
            log.info("Redis: {} ({})", RedisLauncher.redact(redis.url()), redis.description());
            RedissonClient redisson;
            try {
                redisson = Example.connect(redis.url());
            } catch (RuntimeException e) {
                log.error("cannot connect to Redis at {}: {}", RedisLauncher.redact(redis.url()), e.toString());
                return 1;
            }
            Duration closeTimeout = CLOSE_TIMEOUT;
            Dashboard dashboard = null;
            try {
                example.start(redisson);
                dashboard = startDashboard(cli, example, redisson);
                log.info(cli.duration().map(d -> "running for " + Example.human(d)).orElse("running until Ctrl-C"));
                if (stop.await(cli.duration()) && redis.isEmbedded()) {
                    // Ctrl-C reaches the embedded redis-server too (same process group): it is going
                    // away with its data, so a job finishing now could not record its result anyway.
                    closeTimeout = Duration.ofSeconds(1);
                }
                return 0;
            } catch (RuntimeException e) {
                log.error("the example failed", e);
                return 1;
            } finally {
                log.info("stopping: closing workers (running jobs get up to {} to finish)", Example.human(closeTimeout));
                if (dashboard != null) {
                    dashboard.close();
                }
                example.close(closeTimeout);
                if (example.removesQueuesOnExit() && !redis.isEmbedded()) {
                    removeQueues(example);
                }
                redisson.shutdown();
            }
        } finally {
            log.info("stopped");
        }
    }

    /**
     * Obliterates the example's queues (jobs, schedulers, events, metrics and the registry entry),
     * so that a run against a real Redis leaves nothing behind. Its workers are closed by now; a job
     * still active was interrupted by the close timeout and has no one to finish it, hence force.
     */
    private static void removeQueues(Example example) {
        Map<String, Queue<?>> byName = new LinkedHashMap<>();
        example.queues().forEach(q -> byName.putIfAbsent(q.name(), q));
        for (Queue<?> queue : byName.values()) {
            try {
                queue.obliterate(true);
            } catch (RuntimeException e) {
                log.warn("could not remove queue {}: {}", queue.name(), e.toString());
            }
        }
        log.info("removed the queues {} with their jobs and schedulers", byName.keySet());
    }

    /**
     * The demo always serves the dashboard (on {@code --port}, default 8080); other examples only
     * when {@code --port} is given. Actions need a token: {@code BULLPEN_DASHBOARD_TOKEN}, or a
     * random one printed here. A busy port falls back to a free one rather than failing the demo.
     */
    private static Dashboard startDashboard(CommandLine cli, Example example, RedissonClient redisson) {
        if (!(example instanceof DemoMain) && cli.port().isEmpty()) {
            return null;
        }
        String token = System.getenv("BULLPEN_DASHBOARD_TOKEN");
        boolean generated = token == null || token.isBlank();
        if (generated) {
            token = randomToken();
        }
        int port = cli.port().orElse(DEFAULT_DASHBOARD_PORT);
        Dashboard dashboard = Dashboard.builder(redisson).port(port).token(token).build();
        try {
            dashboard.start();
        } catch (RuntimeException e) {
            log.warn("dashboard port {} is not free ({}); using a free port instead", port, e.getMessage());
            dashboard = Dashboard.builder(redisson).port(0).token(token).build();
            dashboard.start();
        }
        log.info("Dashboard: {}  (token for actions: {})", dashboard.url(),
                generated ? token + ", generated; set BULLPEN_DASHBOARD_TOKEN to choose one" : "from BULLPEN_DASHBOARD_TOKEN");
        return dashboard;
    }

    /** @return 32 url-safe characters from 24 random bytes (192 bits): long enough for the dashboard's check */
    static String randomToken() {
        byte[] bytes = new byte[24];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /**
     * Ctrl-C (or SIGTERM) as a latch: the JVM's shutdown hook counts it down, then waits until
     * {@link #close()} says everything is closed, since the JVM halts as soon as its hooks return.
     */
    private static final class StopSignal implements AutoCloseable {
        private final CountDownLatch requested = new CountDownLatch(1);
        private final CountDownLatch done = new CountDownLatch(1);
        private final Thread hook = new Thread(this::onShutdown, "bullpen-shutdown");

        static StopSignal install() {
            StopSignal signal = new StopSignal();
            Runtime.getRuntime().addShutdownHook(signal.hook);
            return signal;
        }

        private void onShutdown() {
            requested.countDown();
            try {
                done.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** @return true when woken by Ctrl-C, false at the end of the duration */
        boolean await(Optional<Duration> duration) {
            try {
                if (duration.isEmpty()) {
                    requested.await();
                    return true;
                }
                return requested.await(duration.get().toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        @Override
        public void close() {
            done.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running: it returns now that everything is closed.
            }
        }
    }
}
