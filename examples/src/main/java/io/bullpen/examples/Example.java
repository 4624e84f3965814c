package io.bullpen.examples;

import io.bullpen.Queue;
import io.bullpen.worker.Worker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The small base every example stands on, so that each example shows only its feature. An
 * example is started on a Redis client, runs in the background (its producers on a timer, its
 * workers on their own threads) and is closed: producers first, then workers, which finish the
 * jobs they are running.
 *
 * <pre>{@code
 * new PriorityExample().run("redis://127.0.0.1:6379", Duration.ofSeconds(30));   // connects, runs, closes
 *
 * try (PriorityExample example = new PriorityExample()) {                        // or on your own client
 *     example.start(redisson);
 *     ...
 * }
 * }</pre>
 *
 * <p>Subclasses implement {@link #setUp()} with the helpers {@link #queue}, {@link #worker},
 * {@link #startWorker}, {@link #every} and {@link #later}.
 */
public abstract class Example implements AutoCloseable {
    /** The example's logger: what it prints is the point of running it. */
    protected final Logger log = LoggerFactory.getLogger(getClass());

    private final List<Queue<?>> queues = new CopyOnWriteArrayList<>();
    private final List<Worker<?, ?>> workers = new CopyOnWriteArrayList<>();
    private final List<Example> parts = new CopyOnWriteArrayList<>();
    private final Object lifecycle = new Object();
    private ScheduledThreadPoolExecutor timer;
    private RedissonClient redisson;
    private boolean started;
    private boolean closed;

    /**
     * Connects to Redis with settings sized for an example. No codec is set: Bullpen always
     * passes its own.
     *
     * @param redisUrl for example {@code redis://127.0.0.1:6379}
     * @return a client; shut it down when done
     */
    public static RedissonClient connect(String redisUrl) {
        Config config = new Config();
        config.useSingleServer()
                .setAddress(redisUrl)
                // Redisson opens 24 connections per client by default; an example needs a few.
                .setConnectionMinimumIdleSize(1)
                .setConnectionPoolSize(8);
        config.setNettyThreads(4);
        return Redisson.create(config);
    }

    /**
     * Starts the example on a client: creates its queues and workers and schedules its
     * producers. Returns at once.
     *
     * @param redisson the client; the example does not shut it down
     * @throws IllegalStateException when already started or closed
     */
    public final void start(RedissonClient redisson) {
        synchronized (lifecycle) {
            if (started || closed) {
                throw new IllegalStateException(getClass().getSimpleName() + " was already " + (closed ? "closed" : "started"));
            }
            started = true;
            this.redisson = Objects.requireNonNull(redisson, "redisson");
            timer = new ScheduledThreadPoolExecutor(1, r -> {
                Thread t = new Thread(r, getClass().getSimpleName() + "-timer");
                t.setDaemon(true);
                return t;
            });
            // On close, pending one-off tasks (a payment due later) are dropped, not run.
            timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
            setUp();
        }
    }

    /**
     * Connects to {@code redisUrl}, runs the example for {@code duration}, then closes it and the
     * client.
     *
     * @param redisUrl the Redis to use
     * @param duration how long to run
     * @throws InterruptedException when interrupted while running (the example is closed)
     */
    public void run(String redisUrl, Duration duration) throws InterruptedException {
        RedissonClient client = connect(redisUrl);
        try {
            start(client);
            TimeUnit.MILLISECONDS.sleep(duration.toMillis());
        } finally {
            close();
            client.shutdown();
        }
    }

    /**
     * Creates the example's queues and workers and schedules its producers. Called once, by
     * {@link #start(RedissonClient)}.
     */
    protected abstract void setUp();

    /** @return the client the example was started on */
    protected final RedissonClient redisson() {
        return redisson;
    }

    /**
     * Creates a queue with default settings and remembers it for {@link #queues()}.
     *
     * @param name the queue name
     * @param dataType the class of its jobs' data
     * @param <T> the type of its jobs' data
     * @return the queue
     */
    protected final <T> Queue<T> queue(String name, Class<T> dataType) {
        Queue<T> queue = Queue.builder(redisson, name, dataType).build();
        queues.add(queue);
        return queue;
    }

    /**
     * Starts building a worker for a queue of this example.
     *
     * @param queue the queue
     * @param dataType the class of its jobs' data
     * @param <T> the type of its jobs' data
     * @return a builder: set the processor, then pass it to {@link #startWorker}
     */
    protected final <T> Worker.Builder<T, Object> worker(Queue<T> queue, Class<T> dataType) {
        return Worker.builder(redisson, queue.name(), dataType);
    }

    /**
     * Builds and starts a worker; {@link #close()} closes it.
     *
     * @param builder the configured builder
     * @param <T> the type of the jobs' data
     * @param <R> the type of the processor's result
     * @return the running worker
     */
    protected final <T, R> Worker<T, R> startWorker(Worker.Builder<T, R> builder) {
        Worker<T, R> worker = builder.build();
        workers.add(worker);
        return worker.start();
    }

    /**
     * Runs {@code task} now and then every {@code period} until the example closes. A task that
     * throws is logged and runs again at its next turn (a plain scheduled task would silently
     * stop for good).
     *
     * @param period the time between runs
     * @param what what the task does, for the log
     * @param task the task
     */
    protected final void every(Duration period, String what, Runnable task) {
        every(Duration.ZERO, period, what, task);
    }

    /**
     * As {@link #every(Duration, String, Runnable)}, with the first run after {@code firstAfter}.
     *
     * @param firstAfter how long until the first run
     * @param period the time between runs
     * @param what what the task does, for the log
     * @param task the task
     */
    protected final void every(Duration firstAfter, Duration period, String what, Runnable task) {
        timer.scheduleAtFixedRate(guarded(what, task), firstAfter.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Runs {@code task} once after {@code delay}, unless the example closes first.
     *
     * @param delay how long from now
     * @param what what the task does, for the log
     * @param task the task
     */
    protected final void later(Duration delay, String what, Runnable task) {
        timer.schedule(guarded(what, task), delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Starts another example on this one's client and closes it with this one: the demo is made
     * of the feature examples this way.
     *
     * @param part the example to include, not yet started
     * @param <E> its type
     * @return the started example
     */
    protected final <E extends Example> E include(E part) {
        parts.add(part);
        part.start(redisson);
        return part;
    }

    /**
     * Whether {@link ExampleRunner} removes this example's queues (with their jobs and job
     * schedulers) when it stops, on a Redis that outlives the run. The feature examples keep
     * theirs, so that a second run shows what a restart finds; the demo removes its own.
     *
     * @return false here
     */
    public boolean removesQueuesOnExit() {
        return false;
    }

    /** @return the queues of this example and of the examples it includes */
    public List<Queue<?>> queues() {
        List<Queue<?>> all = new ArrayList<>(queues);
        parts.forEach(p -> all.addAll(p.queues()));
        return all;
    }

    /** @return the workers of this example and of the examples it includes */
    public List<Worker<?, ?>> workers() {
        List<Worker<?, ?>> all = new ArrayList<>(workers);
        parts.forEach(p -> all.addAll(p.workers()));
        return all;
    }

    /**
     * Stops the producers, then closes the workers gracefully: each finishes the jobs it is
     * running, waiting up to 10 s. Jobs still waiting or delayed stay in Redis for the next run.
     * Idempotent; does not shut down the client.
     */
    @Override
    public void close() {
        close(Duration.ofSeconds(10));
    }

    /**
     * As {@link #close()}, waiting up to {@code timeout} for each worker's running jobs; jobs
     * still running then are interrupted, and recovered later by a worker of the next run.
     *
     * @param timeout how long each worker waits for its running jobs
     */
    public void close(Duration timeout) {
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            if (!started) {
                return;
            }
        }
        timer.shutdown();
        try {
            // Let a producer that is talking to Redis right now finish its call.
            if (!timer.awaitTermination(5, TimeUnit.SECONDS)) {
                timer.shutdownNow();
            }
        } catch (InterruptedException e) {
            timer.shutdownNow();
            Thread.currentThread().interrupt();
        }
        parts.forEach(part -> part.close(timeout));
        workers.forEach(worker -> worker.close(timeout));
    }

    private Runnable guarded(String what, Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                log.warn("{} failed: {}", what, e.toString());
            }
        };
    }

    /**
     * Formats a duration the way people write them: {@code 180ms}, {@code 1.8s}, {@code 15s},
     * {@code 3m}, {@code 1h}, {@code 2h30m}.
     *
     * @param d a duration, >= 0
     * @return the text
     */
    public static String human(Duration d) {
        long ms = d.toMillis();
        if (ms < 1_000) {
            return ms + "ms";
        }
        if (ms % 1_000 != 0) {
            return ms < 60_000 ? String.format(Locale.ROOT, "%.1fs", ms / 1000.0) : d.toSeconds() + "s";
        }
        long h = d.toHours();
        long m = d.toMinutesPart();
        long s = d.toSecondsPart();
        StringBuilder out = new StringBuilder();
        if (h > 0) {
            out.append(h).append('h');
        }
        if (m > 0) {
            out.append(m).append('m');
        }
        if (s > 0) {
            out.append(s).append('s');
        }
        return out.toString();
    }
}
