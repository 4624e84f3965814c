package io.bullpen.examples;

import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobSpec;
import io.bullpen.Queue;
import io.bullpen.Retention;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Priorities: a back-office queue where a fraud check (priority 1) runs before an invoice (2),
 * and the invoice before the nightly report (3).
 *
 * <ol>
 *   <li>Every few seconds a batch of five jobs is added in one atomic {@code addBulk} call, out
 *       of order: priority 3, plain, priority 1, plain, priority 2.</li>
 *   <li>One worker with concurrency 1 runs them one at a time, so the log shows the order:
 *       the two plain jobs first, in the order added, then priority 1, 2, 3.</li>
 * </ol>
 *
 * <p>Note the Bull rule: jobs without a priority run <em>before</em> prioritized ones. Give
 * every job of a queue a priority when you need one strict order.
 *
 * <pre>
 * java -cp examples/target/bullpen-demo.jar io.bullpen.examples.PriorityExample [--redis URL] [--duration SECONDS]
 * </pre>
 */
public final class PriorityExample extends Example {
    /** The queue's name; "demo-" keeps the examples off a real application's queues. */
    public static final String QUEUE = "demo-tasks";

    /**
     * A back-office task.
     *
     * @param batch the batch it was added with
     * @param title what it is
     */
    public record Task(int batch, String title) {
    }

    private final Duration batchEvery;
    private final Duration workTime;
    private final AtomicInteger batches = new AtomicInteger();
    private final Map<Integer, List<Integer>> runOrder = new ConcurrentHashMap<>();
    private Queue<Task> tasks;

    /** A batch every 10 s; each task takes 200 ms. */
    public PriorityExample() {
        this(Duration.ofSeconds(10), Duration.ofMillis(200));
    }

    /**
     * @param batchEvery how often a batch of five tasks is added
     * @param workTime how long each task takes
     */
    public PriorityExample(Duration batchEvery, Duration workTime) {
        this.batchEvery = batchEvery;
        this.workTime = workTime;
    }

    /**
     * Runs the example.
     *
     * @param args {@code --redis URL}, {@code --duration SECONDS}
     */
    public static void main(String[] args) {
        ExampleRunner.main("PriorityExample", new PriorityExample(), args);
    }

    @Override
    protected void setUp() {
        tasks = queue(QUEUE, Task.class);
        startWorker(worker(tasks, Task.class)
                .concurrency(1)                  // one at a time, so the run order is the queue's order
                .processor(ctx -> work(ctx.job())));
        every(batchEvery, "adding a batch", this::addBatch);
    }

    /**
     * Adds a batch of five tasks, deliberately out of order, in one atomic call: the worker
     * cannot start on the batch before all of it is in.
     *
     * @return the batch number
     */
    public int addBatch() {
        int b = batches.incrementAndGet();
        tasks.addBulk(List.of(
                JobSpec.of("report", new Task(b, "nightly sales report"), priority(3)),
                JobSpec.of("email", new Task(b, "welcome email"), plain()),
                JobSpec.of("fraud-check", new Task(b, "fraud check"), priority(1)),
                JobSpec.of("thumbnail", new Task(b, "thumbnail"), plain()),
                JobSpec.of("invoice", new Task(b, "invoice PDF"), priority(2))));
        log.info("batch {} added: priority 3, plain, priority 1, plain, priority 2", b);
        return b;
    }

    private static JobOptions priority(int priority) {
        return JobOptions.builder().priority(priority).removeOnComplete(Retention.keepLast(100)).build();
    }

    private static JobOptions plain() {
        return JobOptions.builder().removeOnComplete(Retention.keepLast(100)).build();
    }

    private String work(Job<Task> job) throws InterruptedException {
        Thread.sleep(workTime.toMillis());   // the task's real work would go here
        Task task = job.data();
        runOrder.computeIfAbsent(task.batch(), b -> new CopyOnWriteArrayList<>()).add(job.priority());
        log.info("batch {}: ran {} ({})", task.batch(), task.title(),
                job.priority() == 0 ? "no priority" : "priority " + job.priority());
        return "done";
    }

    /**
     * The priorities of a batch's tasks in the order they ran (0 for no priority).
     *
     * @param batch a batch number, from 1
     * @return the priorities so far
     */
    public List<Integer> runOrder(int batch) {
        return List.copyOf(runOrder.getOrDefault(batch, List.of()));
    }

    /** @return the queue of tasks */
    public Queue<Task> tasks() {
        return tasks;
    }
}
