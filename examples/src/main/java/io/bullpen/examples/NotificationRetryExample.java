package io.bullpen.examples;

import io.bullpen.Backoff;
import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.Queue;
import io.bullpen.Retention;
import io.bullpen.worker.WorkerListener;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * "Retry a failed notification on a schedule": 15 s, 3 min, 10 min, 30 min, 30 min, 1 h, 2 h,
 * 6 h, 15 h, then give up.
 *
 * <ol>
 *   <li>Each notification is a job with {@code Backoff.schedule(...)} and one attempt more than
 *       the schedule has steps (the first try, then one retry per step).</li>
 *   <li>The notifier is flaky: most attempts fail with an exception, which fails the attempt.</li>
 *   <li>The worker moves a failed attempt to delayed for the schedule's next step; a
 *       {@link WorkerListener} logs each retry and its delay. After the last attempt the job is
 *       failed for good (or completed, if one attempt got through).</li>
 * </ol>
 *
 * <p>The schedule is scaled down by {@code speedUp} (1,000 by default: seconds become
 * milliseconds, 15 h becomes 54 s) so that retries happen while you watch.
 *
 * <pre>
 * java -cp examples/target/bullpen-demo.jar io.bullpen.examples.NotificationRetryExample [--redis URL] [--duration SECONDS]
 * </pre>
 */
public final class NotificationRetryExample extends Example {
    /** The queue's name; "demo-" keeps the examples off a real application's queues. */
    public static final String QUEUE = "demo-notifications";

    /** The staged retry schedule, at real speed. */
    public static final List<Duration> SCHEDULE = List.of(
            Duration.ofSeconds(15), Duration.ofMinutes(3), Duration.ofMinutes(10), Duration.ofMinutes(30),
            Duration.ofMinutes(30), Duration.ofHours(1), Duration.ofHours(2), Duration.ofHours(6), Duration.ofHours(15));

    /**
     * A notification to send.
     *
     * @param to the recipient
     * @param text the message
     */
    public record Notification(String to, String text) {
    }

    private final double failureRate;
    private final Duration notifyEvery;
    private final Backoff backoff;
    private final AtomicInteger sent = new AtomicInteger();
    private Queue<Notification> notifications;

    /** 70% of attempts fail, the schedule runs 1,000 times faster, a notification every 4 s. */
    public NotificationRetryExample() {
        this(0.7, 1_000, Duration.ofSeconds(4));
    }

    /**
     * @param failureRate the share of attempts the flaky notifier fails, 0 to 1
     * @param speedUp how many times faster than {@link #SCHEDULE} retries happen
     * @param notifyEvery how often a new notification is sent
     */
    public NotificationRetryExample(double failureRate, long speedUp, Duration notifyEvery) {
        if (failureRate < 0 || failureRate > 1) {
            throw new IllegalArgumentException("failureRate must be between 0 and 1 but was " + failureRate);
        }
        if (speedUp < 1) {
            throw new IllegalArgumentException("speedUp must be >= 1 but was " + speedUp);
        }
        this.failureRate = failureRate;
        this.notifyEvery = notifyEvery;
        this.backoff = Backoff.schedule(SCHEDULE.stream().map(step -> step.dividedBy(speedUp)).toList());
    }

    /**
     * Runs the example.
     *
     * @param args {@code --redis URL}, {@code --duration SECONDS}
     */
    public static void main(String[] args) {
        ExampleRunner.main("NotificationRetryExample", new NotificationRetryExample(), args);
    }

    @Override
    protected void setUp() {
        notifications = queue(QUEUE, Notification.class);
        startWorker(worker(notifications, Notification.class)
                .processor(ctx -> deliver(ctx.job().data()))
                .concurrency(4)
                .listener(new RetryLogger()));
        every(notifyEvery, "sending a notification", this::send);
    }

    /**
     * Sends a notification: adds its job with the retry schedule.
     *
     * @return the job
     */
    public Job<Notification> send() {
        int n = sent.incrementAndGet();
        Notification sms = new Notification("customer-" + n, "Your parcel #" + n + " ships today");
        Job<Notification> job = notifications.add("sms", sms, JobOptions.builder()
                .attempts(SCHEDULE.size() + 1)     // the first try, then one retry per step
                .backoff(backoff)
                .removeOnComplete(Retention.keepLast(1_000))
                .removeOnFail(Retention.keepLast(1_000))
                .build());
        log.info("notification {} to {} queued", job.id(), sms.to());
        return job;
    }

    /** The flaky SMS gateway. Throwing fails the attempt; the job's backoff decides what follows. */
    private String deliver(Notification notification) throws IOException {
        if (ThreadLocalRandom.current().nextDouble() < failureRate) {
            throw new IOException("SMS gateway timed out");
        }
        return "delivered to " + notification.to();
    }

    /** Logs each outcome; the worker calls it on its own threads. */
    private final class RetryLogger implements WorkerListener<Notification, String> {
        @Override
        public void onCompleted(Job<Notification> job, String result) {
            log.info("notification {} {} on attempt {}", job.id(), result, job.attemptsMade());
        }

        @Override
        public void onFailed(Job<Notification> job, Throwable error, boolean finalFailure) {
            int attempt = job.attemptsMade();   // counts the attempt that just failed
            if (finalFailure) {
                log.warn("notification {} failed for good after {} attempts: {}", job.id(), attempt, error.getMessage());
                return;
            }
            Duration real = SCHEDULE.get(Math.min(attempt, SCHEDULE.size()) - 1);
            log.info("notification {} attempt {} failed ({}); retry {} of {} in {} ({} on the real schedule)",
                    job.id(), attempt, error.getMessage(), attempt, SCHEDULE.size(), human(backoff.delay(attempt)),
                    human(real));
        }
    }

    /** @return the retry schedule in use: {@link #SCHEDULE} sped up */
    public Backoff backoff() {
        return backoff;
    }

    /** @return the queue of notifications */
    public Queue<Notification> notifications() {
        return notifications;
    }
}
