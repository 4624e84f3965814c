package io.bullpen;

import io.bullpen.internal.AwaitScripts;
import io.bullpen.internal.Completions;
import io.bullpen.internal.JsonCodec;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.redisson.api.RedissonClient;

/** {@link Queue}'s awaits of results: validation, the awaited add, and the shared {@link ResultAwaiter}. */
final class QueueAwaits<T> {
    private final String queue;
    private final AwaitScripts scripts;
    private final JobAdder<T> adder;
    private final ResultAwaiter awaiter;

    QueueAwaits(RedissonClient redisson, AwaitScripts scripts, JobAdder<T> adder) {
        this.queue = scripts.keys().queue();
        this.scripts = scripts;
        this.adder = adder;
        this.awaiter = ResultAwaiter.of(redisson);
    }

    <R> CompletableFuture<R> awaitResult(String jobId, Class<R> resultType, Duration timeout) {
        if (jobId == null || jobId.isBlank()) {
            throw new IllegalArgumentException("jobId must not be blank but was " + (jobId == null ? "null" : "\"" + jobId + "\""));
        }
        check(resultType, timeout);
        return awaiter.await(queue, scripts, jobId, JsonCodec.type(resultType), timeout);
    }

    <R> CompletableFuture<R> addAndAwait(String name, T data, JobOptions options, Class<R> resultType, Duration timeout) {
        Objects.requireNonNull(options, "options");
        check(resultType, timeout);
        // The add marks the job awaited: the worker sees it at take, its finish keeps the result.
        return adder.addAll("addAndAwait", List.of(new JobSpec<>(name, data, options)), keepMs(timeout),
                        Completions.executor())
                .toCompletableFuture()
                .thenCompose(jobs -> awaitResult(jobs.get(0).id(), resultType, timeout));
    }

    /** How long a finish keeps the result: at least the default, and longer than the await. */
    static long keepMs(Duration timeout) {
        return Math.max(ResultAwaiter.DEFAULT_KEEP_MS, timeout.toMillis() + 60_000);
    }

    private static void check(Class<?> resultType, Duration timeout) {
        Objects.requireNonNull(resultType, "resultType");
        if (timeout == null || timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must be > 0 but was " + timeout);
        }
    }
}
