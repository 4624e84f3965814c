package io.bullpen.examples;

import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobScheduler;
import io.bullpen.JobTemplate;
import io.bullpen.Queue;
import io.bullpen.Repeat;
import io.bullpen.Retention;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Repeating jobs: a sales report every night at 02:00 in Shanghai, and (so the demo shows
 * something within seconds) a heartbeat every 10 seconds.
 *
 * <ol>
 *   <li>{@code upsertJobScheduler} is called at every start: it is idempotent per id, so
 *       restarting producers never adds a second pending run.</li>
 *   <li>Each scheduler keeps exactly one pending job ({@code repeat-<id>-<due millis>}); when a
 *       worker takes it, the next one is created in the same script.</li>
 *   <li>The log shows each run and the schedulers' next runs, in UTC and in their zone.</li>
 * </ol>
 *
 * <pre>
 * java -cp examples/target/bullpen-demo.jar io.bullpen.examples.NightlyReportExample [--redis URL] [--duration SECONDS]
 * </pre>
 */
public final class NightlyReportExample extends Example {
    /** The queue's name; "demo-" keeps the examples off a real application's queues. */
    public static final String QUEUE = "demo-reports";
    /** Where the nightly report's 02:00 is read. */
    public static final ZoneId ZONE = ZoneId.of("Asia/Shanghai");

    /**
     * What a report job asks for.
     *
     * @param kind which report
     */
    public record ReportRequest(String kind) {
    }

    private final Duration heartbeat;
    private final List<String> runs = new CopyOnWriteArrayList<>();
    private Queue<ReportRequest> reports;

    /** A heartbeat every 10 s next to the nightly report. */
    public NightlyReportExample() {
        this(Duration.ofSeconds(10));
    }

    /** @param heartbeat how often the heartbeat scheduler runs */
    public NightlyReportExample(Duration heartbeat) {
        this.heartbeat = heartbeat;
    }

    /**
     * Runs the example.
     *
     * @param args {@code --redis URL}, {@code --duration SECONDS}
     */
    public static void main(String[] args) {
        ExampleRunner.main("NightlyReportExample", new NightlyReportExample(), args);
    }

    @Override
    protected void setUp() {
        reports = queue(QUEUE, ReportRequest.class);
        JobOptions keepLast = JobOptions.builder().removeOnComplete(Retention.keepLast(50)).build();
        reports.upsertJobScheduler("nightly-report", Repeat.cron("0 2 * * *", ZONE),
                JobTemplate.of("report", new ReportRequest("daily sales"), keepLast));
        reports.upsertJobScheduler("heartbeat", Repeat.every(heartbeat).immediately(true),
                JobTemplate.of("heartbeat", new ReportRequest("heartbeat"), keepLast));
        for (JobScheduler s : reports.getJobSchedulers()) {
            log.info("scheduler {}: {} next run {}", s.id(), s.repeat(), s.nextRun()
                    .map(t -> t + " (" + ZonedDateTime.ofInstant(t, ZONE).toLocalDateTime() + " in " + ZONE + ")")
                    .orElse("none"));
        }
        startWorker(worker(reports, ReportRequest.class).processor(ctx -> run(ctx.job())));
    }

    private String run(Job<ReportRequest> job) {
        runs.add(job.id());
        log.info("ran {} ({}), scheduler {}", job.data().kind(), job.id(), job.schedulerId().orElse("-"));
        return "report " + job.data().kind() + " done";
    }

    /** @return the ids of the jobs run so far */
    public List<String> runs() {
        return List.copyOf(runs);
    }

    /** @return the reports queue */
    public Queue<ReportRequest> reports() {
        return reports;
    }
}
