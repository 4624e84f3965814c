package io.bullpen.examples;

import io.bullpen.JobCounts;
import io.bullpen.Queue;
import java.time.Duration;
import java.util.Locale;

/**
 * The demo: every example at once, with producers and workers running continuously, and the job
 * counts of each queue logged every few seconds. Orders are placed, paid or cancelled,
 * notifications retried on their schedule, prioritized tasks run in priority order, API calls
 * made under a rate limit, and tenants' exports run fairly, one at a time per tenant.
 *
 * <pre>
 * mvn -q -DskipTests package &amp;&amp; java -jar examples/target/bullpen-demo.jar [--redis URL] [--duration SECONDS] [--port N]
 * </pre>
 *
 * <p>Without {@code --redis} it uses the Redis on 127.0.0.1:6379 when one answers, else an
 * embedded Redis it starts (and stops) itself, so it needs only a JDK. Without
 * {@code --duration} it runs until Ctrl-C. It serves the dashboard on {@code --port} (default
 * 8080, or any free port when 8080 is taken) and prints its URL and the token for actions. On a
 * Redis that outlives it (given with {@code --redis}, or the local one), it removes its queues
 * when it stops: {@value CancelUnpaidOrderExample#QUEUE}, {@value NotificationRetryExample#QUEUE},
 * {@value PriorityExample#QUEUE}, {@value NightlyReportExample#QUEUE},
 * {@value QueueEventsExample#QUEUE}, {@value RateLimitedApiExample#QUEUE} and
 * {@value MultiTenantExportExample#QUEUE}, one queue per example.
 */
public final class DemoMain extends Example {
    private final Duration countsEvery;

    /** The demo with job counts logged every 5 s. */
    public DemoMain() {
        this(Duration.ofSeconds(5));
    }

    /** @param countsEvery how often the job counts are logged */
    public DemoMain(Duration countsEvery) {
        this.countsEvery = countsEvery;
    }

    /**
     * Runs the demo; exits 0 at the end of {@code --duration}, with every worker closed.
     *
     * @param args {@code --redis URL}, {@code --duration SECONDS}, {@code --port N} (the dashboard's)
     */
    public static void main(String[] args) {
        ExampleRunner.main("bullpen-demo", new DemoMain(), args);
    }

    @Override
    protected void setUp() {
        include(new CancelUnpaidOrderExample(Duration.ofSeconds(5), Duration.ofSeconds(3)));
        include(new NotificationRetryExample(0.7, 1_000, Duration.ofSeconds(4)));
        include(new PriorityExample(Duration.ofSeconds(10), Duration.ofMillis(200)));
        include(new NightlyReportExample(Duration.ofSeconds(10)));
        include(new QueueEventsExample(QueueEventsExample.Part.ALL, Duration.ofSeconds(10), Duration.ofMillis(250), 0.3));
        include(new RateLimitedApiExample());
        include(new MultiTenantExportExample());
        every(countsEvery, countsEvery, "reading job counts", this::logCounts);
    }

    /** @return true: the demo leaves no queue, job or scheduler behind in a real Redis */
    @Override
    public boolean removesQueuesOnExit() {
        return true;
    }

    private void logCounts() {
        for (Queue<?> queue : queues()) {
            JobCounts c = queue.getJobCounts();   // one atomic read of all states
            log.info(String.format(Locale.ROOT,
                    "%-19s waiting %3d  prioritized %3d  delayed %3d  active %2d  completed %4d  failed %3d%s",
                    queue.name(), c.waiting(), c.prioritized(), c.delayed(), c.active(), c.completed(), c.failed(),
                    c.paused() ? "  (paused)" : ""));
        }
    }
}
