package io.bullpen.examples;

import io.bullpen.Backoff;
import io.bullpen.JobOptions;
import io.bullpen.Queue;
import io.bullpen.QueueEvents;
import io.bullpen.Retention;
import io.bullpen.worker.JobContext;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Cross-process events: one process runs the jobs, another watches them through the queue's
 * event stream, sharing nothing but Redis and the queue's name.
 *
 * <ol>
 *   <li>The jobs part: every few seconds a report job is added; a worker renders it in four
 *       steps, reporting progress after each, and fails some attempts (one retry, 1 s later).</li>
 *   <li>The monitor part: a {@link QueueEvents} logs each event as it happens (added, started,
 *       progress, done with its result, retrying, failed). Its callbacks run on the listener's
 *       thread, in stream order, and only log: keep them short.</li>
 *   <li>When the monitor stops it logs its {@link QueueEvents#lastEventId()}: a monitor built
 *       with {@code .lastEventId(id)} would pick up exactly where this one left off.</li>
 * </ol>
 *
 * <p>By default both parts run in this JVM, each on its own Redis client. To watch from another
 * process, run the parts in two terminals against the same Redis (a local one on 6379, or
 * {@code --redis URL}; without either, each process would start an embedded Redis of its own):
 *
 * <pre>
 * java -cp examples/target/bullpen-demo.jar io.bullpen.examples.QueueEventsExample [--redis URL] [--duration SECONDS]
 *
 * java -Dbullpen.example.part=monitor -cp examples/target/bullpen-demo.jar io.bullpen.examples.QueueEventsExample --redis redis://127.0.0.1:6379
 * java -Dbullpen.example.part=jobs    -cp examples/target/bullpen-demo.jar io.bullpen.examples.QueueEventsExample --redis redis://127.0.0.1:6379
 * </pre>
 */
public final class QueueEventsExample extends Example {
    /**
     * The queue's name; "demo-" keeps the examples off a real application's queues. A queue of
     * its own: a worker takes every job of its queue, so two examples sharing one would run each
     * other's jobs with the wrong data type.
     */
    public static final String QUEUE = "demo-rendering";

    /** The system property that picks the part to run: all (default), jobs or monitor. */
    public static final String PART_PROPERTY = "bullpen.example.part";

    /** Which side of the example runs in this process. */
    public enum Part {
        /** Both, on separate Redis clients. */
        ALL,
        /** The producer and the worker. */
        JOBS,
        /** The events listener. */
        MONITOR;

        /**
         * @param value "all", "jobs" or "monitor", any case; null for the default
         * @return the part
         * @throws IllegalArgumentException naming the bad value
         */
        public static Part parse(String value) {
            if (value == null) {
                return ALL;
            }
            try {
                return valueOf(value.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        PART_PROPERTY + " must be all, jobs or monitor but was \"" + value + "\"", e);
            }
        }
    }

    /**
     * A report to render.
     *
     * @param title what it is about
     * @param pages how long it is
     */
    public record Report(String title, int pages) {
    }

    private final Part part;
    private final Duration reportEvery;
    private final Duration stepTime;
    private final double failureRate;
    private final AtomicInteger reports = new AtomicInteger();
    private final Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
    private RedissonClient monitorClient;
    private QueueEvents events;

    /** Both parts; a report every 3 s, 250 ms per rendering step, 30% of attempts failing. */
    public QueueEventsExample() {
        this(Part.ALL, Duration.ofSeconds(3), Duration.ofMillis(250), 0.3);
    }

    /**
     * @param part which side runs here
     * @param reportEvery how often a report job is added
     * @param stepTime how long each of the four rendering steps takes
     * @param failureRate the share of attempts that fail, 0 to 1
     */
    public QueueEventsExample(Part part, Duration reportEvery, Duration stepTime, double failureRate) {
        if (failureRate < 0 || failureRate > 1) {
            throw new IllegalArgumentException("failureRate must be between 0 and 1 but was " + failureRate);
        }
        this.part = part;
        this.reportEvery = reportEvery;
        this.stepTime = stepTime;
        this.failureRate = failureRate;
    }

    /**
     * Runs the example; {@code -Dbullpen.example.part=jobs|monitor} runs one side only.
     *
     * @param args {@code --redis URL}, {@code --duration SECONDS}
     */
    public static void main(String[] args) {
        Part part;
        try {
            part = Part.parse(System.getProperty(PART_PROPERTY));
        } catch (IllegalArgumentException e) {
            System.err.println("QueueEventsExample: " + e.getMessage());
            System.exit(2);
            return;
        }
        ExampleRunner.main("QueueEventsExample", new QueueEventsExample(part, Duration.ofSeconds(3),
                Duration.ofMillis(250), 0.3), args);
    }

    @Override
    protected void setUp() {
        if (part != Part.JOBS) {
            startMonitor();
        }
        if (part != Part.MONITOR) {
            startJobs();
        }
    }

    /** The watching side: nothing here touches the producer or the worker. */
    private void startMonitor() {
        // Alone, the monitor is its own process already; beside the jobs it gets a client of its
        // own, as it would have in another process.
        RedissonClient client = redisson();
        if (part == Part.ALL) {
            monitorClient = Redisson.create(new Config(redisson().getConfig()));
            client = monitorClient;
        }
        events = QueueEvents.builder(client, QUEUE).build()
                .onAdded(e -> log.info("[monitor] report {} added: {}", e.jobId(), e.name()))
                .onActive(e -> log.info("[monitor] report {} started", e.jobId()))
                .onProgress(e -> log.info("[monitor] report {} at {}%", e.jobId(), e.data(Integer.class)))
                .onCompleted(e -> log.info("[monitor] report {} done: {}", e.jobId(), e.returnValue(String.class)))
                .onRetrying(e -> log.info("[monitor] report {} attempt {} failed ({}); retry in {}", e.jobId(),
                        e.attemptsMade(), e.failedReason(), human(e.delay())))
                .onFailed(e -> log.warn("[monitor] report {} failed for good after {} attempts: {}", e.jobId(),
                        e.attemptsMade(), e.failedReason()))
                .onEvent(e -> seen.computeIfAbsent(e.eventName(), name -> new AtomicInteger()).incrementAndGet())
                .start();
        log.info("[monitor] listening to the events of queue {}", QUEUE);
    }

    /** The working side: a producer on a timer and a worker, as in any application. */
    private void startJobs() {
        Queue<Report> queue = queue(QUEUE, Report.class);
        startWorker(worker(queue, Report.class)
                .concurrency(2)
                .processor(this::render));
        every(reportEvery, "adding a report", () -> {
            int n = reports.incrementAndGet();
            queue.add("sales-report", new Report("Sales, week " + n, 4 + n % 7), JobOptions.builder()
                    .attempts(2)
                    .backoff(Backoff.fixed(Duration.ofSeconds(1)))
                    .removeOnComplete(Retention.keepLast(100))
                    .removeOnFail(Retention.keepLast(100))
                    .build());
        });
    }

    private String render(JobContext<Report> ctx) throws Exception {
        Report report = ctx.job().data();
        for (int step = 1; step <= 4; step++) {
            Thread.sleep(stepTime.toMillis());   // a quarter of the rendering
            ctx.updateProgress(step * 25);
        }
        if (ThreadLocalRandom.current().nextDouble() < failureRate) {
            throw new IllegalStateException("the chart service timed out");
        }
        return "report-" + ctx.job().id() + ".pdf: " + report.title() + ", " + report.pages() + " pages";
    }

    /**
     * How many events of a kind the monitor has seen.
     *
     * @param eventName an event name such as "completed"
     * @return the count so far (0 when the monitor does not run here)
     */
    public int seen(String eventName) {
        AtomicInteger n = seen.get(eventName);
        return n == null ? 0 : n.get();
    }

    /** @return the monitor's listener, or null when only the jobs run here */
    public QueueEvents events() {
        return events;
    }

    /**
     * Closes the producer and the worker (which finish their running jobs), then the monitor,
     * logging the id to resume from.
     */
    @Override
    public void close(Duration timeout) {
        super.close(timeout);
        if (events != null && events.isRunning()) {
            events.close();
            log.info("[monitor] stopped; a monitor built with .lastEventId(\"{}\") would resume here",
                    events.lastEventId());
        }
        if (monitorClient != null && !monitorClient.isShutdown()) {
            monitorClient.shutdown();
        }
    }
}
