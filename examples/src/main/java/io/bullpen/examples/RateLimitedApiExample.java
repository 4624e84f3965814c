package io.bullpen.examples;

import io.bullpen.Job;
import io.bullpen.JobOptions;
import io.bullpen.JobSpec;
import io.bullpen.Queue;
import io.bullpen.RateLimit;
import io.bullpen.RateLimitedException;
import io.bullpen.Retention;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * "Call the partner's API at most 10 times a second, across all our workers": a rate-limited
 * queue.
 *
 * <ol>
 *   <li>The queue gets {@code setRateLimit(RateLimit.of(10, 1s))}: a setting stored in Redis, so
 *       every worker of the queue, in any process, shares the one limit. Starts are spaced
 *       100 ms apart (smooth, no burst at a window's edge).</li>
 *   <li>Two workers at concurrency 5 each take the calls; together they never start more than
 *       10 in any second. A worker held back sleeps until the exact moment the next call is
 *       allowed: no polling.</li>
 *   <li>The fake API answers {@code 429 Too Many Requests} now and then (every 25th call). The
 *       processor then throws {@link RateLimitedException} with the API's Retry-After: the call
 *       goes back to the front of the line without using an attempt, and the whole queue waits
 *       out the Retry-After (set in the same script).</li>
 * </ol>
 *
 * <pre>
 * java -cp examples/target/bullpen-demo.jar io.bullpen.examples.RateLimitedApiExample [--redis URL] [--duration SECONDS]
 * </pre>
 */
public final class RateLimitedApiExample extends Example {
    /** The queue's name; "demo-" keeps the examples off a real application's queues. */
    public static final String QUEUE = "demo-api-calls";

    /**
     * One call to make.
     *
     * @param n the call's number
     * @param customer whose data it sends
     */
    public record ApiCall(int n, String customer) {
    }

    /** A stand-in for a partner's HTTP API that answers 429 every {@code tooManyEvery}-th call. */
    static final class FakeApi {
        private final int tooManyEvery;
        private final AtomicInteger calls = new AtomicInteger();

        FakeApi(int tooManyEvery) {
            this.tooManyEvery = tooManyEvery;
        }

        /** @return the HTTP status: 200, or 429 Too Many Requests */
        int call(ApiCall call) {
            int n = calls.incrementAndGet();
            return tooManyEvery > 0 && n % tooManyEvery == 0 ? 429 : 200;
        }
    }

    private final int perSecond;
    private final int batchSize;
    private final Duration batchEvery;
    private final Duration retryAfter;
    private final FakeApi api;
    private final AtomicInteger added = new AtomicInteger();
    private final AtomicInteger succeeded = new AtomicInteger();
    private final AtomicInteger tooMany = new AtomicInteger();
    private final List<Instant> starts = new CopyOnWriteArrayList<>();
    private Queue<ApiCall> calls;

    /** 10 calls per second; 15 new calls every 2 s; a 429 every 25th call, with Retry-After 1 s. */
    public RateLimitedApiExample() {
        this(10, 15, Duration.ofSeconds(2), 25, Duration.ofSeconds(1));
    }

    /**
     * @param perSecond the queue's limit: calls started per second, across all workers
     * @param batchSize calls added at a time
     * @param batchEvery how often a batch is added
     * @param tooManyEvery the fake API answers 429 to every this-many-th call (0: never)
     * @param retryAfter what its 429 answers say to wait
     */
    public RateLimitedApiExample(int perSecond, int batchSize, Duration batchEvery, int tooManyEvery, Duration retryAfter) {
        this.perSecond = perSecond;
        this.batchSize = batchSize;
        this.batchEvery = batchEvery;
        this.retryAfter = retryAfter;
        this.api = new FakeApi(tooManyEvery);
    }

    /**
     * Runs the example.
     *
     * @param args {@code --redis URL}, {@code --duration SECONDS}
     */
    public static void main(String[] args) {
        ExampleRunner.main("RateLimitedApiExample", new RateLimitedApiExample(), args);
    }

    @Override
    protected void setUp() {
        calls = queue(QUEUE, ApiCall.class);
        // A queue setting in Redis: every worker of the queue, in any process, shares it.
        calls.setRateLimit(RateLimit.of(perSecond, Duration.ofSeconds(1)));
        for (int i = 0; i < 2; i++) {
            startWorker(worker(calls, ApiCall.class)
                    .concurrency(5)
                    .processor(ctx -> call(ctx.job())));
        }
        every(batchEvery, "adding API calls", this::addBatch);
    }

    /** Adds {@code batchSize} calls in one atomic call. */
    public void addBatch() {
        List<JobSpec<ApiCall>> batch = new ArrayList<>();
        JobOptions options = JobOptions.builder().removeOnComplete(Retention.keepLast(100)).build();
        for (int i = 0; i < batchSize; i++) {
            int n = added.incrementAndGet();
            batch.add(JobSpec.of("call", new ApiCall(n, "customer-" + (n % 7)), options));
        }
        calls.addBulk(batch);
    }

    private String call(Job<ApiCall> job) {
        ApiCall call = job.data();
        job.processedOn().ifPresent(starts::add);
        if (api.call(call) == 429) {
            tooMany.incrementAndGet();
            log.info("call {}: 429 Too Many Requests; the queue waits {} and the call goes back to the front",
                    call.n(), human(retryAfter));
            // Back to the front of the line without using an attempt; the queue takes no job for retryAfter.
            throw new RateLimitedException(retryAfter);
        }
        int ok = succeeded.incrementAndGet();
        if (ok % 10 == 0) {
            log.info("{} calls answered 200 OK so far ({} answered 429 and were retried); limit {}/s", ok, tooMany.get(),
                    perSecond);
        }
        return "200 OK";
    }

    /** @return the calls the API answered with 200 */
    public int succeeded() {
        return succeeded.get();
    }

    /** @return the calls the API answered with 429 (each was retried) */
    public int tooMany() {
        return tooMany.get();
    }

    /** @return when each call started, as the queue booked it (the job's processedOn) */
    public List<Instant> starts() {
        return List.copyOf(starts);
    }

    /** @return the queue of calls */
    public Queue<ApiCall> calls() {
        return calls;
    }
}
