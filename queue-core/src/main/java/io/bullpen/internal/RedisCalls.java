package io.bullpen.internal;

import io.bullpen.BullpenException;
import io.bullpen.QueueUnavailableException;
import io.bullpen.RedisMemoryFullException;
import java.net.ConnectException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.redisson.api.options.MapOptions;
import org.redisson.api.options.PlainOptions;
import org.redisson.client.RedisConnectionException;
import org.redisson.client.RedisOutOfMemoryException;
import org.redisson.client.RedisTimeoutException;
import org.redisson.client.codec.StringCodec;

/**
 * The plain Redis reads and writes behind the {@code Queue} API, and how their failures reach the
 * caller. Objects come without Redisson's retries: with the server down, its defaults (4 retries,
 * 1-2 s apart) made each call wait about 5 s before failing, the first add on a new queue
 * included. A failure to reach Redis becomes a {@link QueueUnavailableException} naming the queue
 * and the operation, a write refused at {@code maxmemory} a {@link RedisMemoryFullException}; every
 * other failure passes through unchanged. Not API.
 */
public final class RedisCalls {
    private RedisCalls() {
    }

    /** @return options for a string-coded object of {@code key}, sent once */
    public static PlainOptions plain(String key) {
        return PlainOptions.name(key).codec(StringCodec.INSTANCE).retryAttempts(0);
    }

    /** @return options for a string-coded hash of {@code key}, sent once */
    public static MapOptions<String, String> map(String key) {
        return MapOptions.<String, String>name(key).codec(StringCodec.INSTANCE).retryAttempts(0);
    }

    /** Waits for {@code stage}; its failure is rethrown as {@link #translate} says. */
    public static <R> R join(String queue, String operation, CompletionStage<R> stage) {
        return call(queue, operation, () -> Futures.join(stage));
    }

    /** Runs a blocking call; its failure is rethrown as {@link #translate} says. */
    public static <R> R call(String queue, String operation, Supplier<R> body) {
        try {
            return body.get();
        } catch (RuntimeException e) {
            throw translate(queue, operation, e);
        }
    }

    /** @return a stage that fails as {@link #translate} says when {@code stage} fails */
    public static <R> CompletionStage<R> translated(String queue, String operation, CompletionStage<R> stage) {
        return stage.handle((result, error) -> {
            if (error != null) {
                throw new CompletionException(translate(queue, operation, error));
            }
            return result;
        });
    }

    /** The failure's own message, cut short: Redisson's can run to a dump of the connection. */
    private static String detail(Throwable t) {
        String m = t.getMessage();
        if (m == null || m.isBlank()) {
            return "";
        }
        m = m.strip().replaceAll("\\s+", " ");
        return " (" + (m.length() <= 160 ? m : m.substring(0, 160) + "...") + ")";
    }

    /**
     * @return a {@link QueueUnavailableException} when Redis could not be reached or did not answer
     *     in time, a {@link RedisMemoryFullException} when it refused a write at {@code maxmemory}; otherwise the failure itself (a checked one wrapped in a {@link BullpenException})
     */
    public static RuntimeException translate(String queue, String operation, Throwable error) {
        Throwable e = ScriptRunner.unwrap(error);
        if (e instanceof QueueUnavailableException q) {
            return q;
        }
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (isOutOfMemory(t)) {
                return new RedisMemoryFullException(queue, operation, e);
            }
            if (t instanceof RedisTimeoutException) {
                return new QueueUnavailableException(queue, operation, "Redis did not answer in time" + detail(t), e);
            }
            if (t instanceof RedisConnectionException || t instanceof ConnectException
                    || t instanceof ClosedChannelException) {
                return new QueueUnavailableException(queue, operation, "Redis unavailable" + detail(t), e);
            }
        }
        return e instanceof RuntimeException re ? re : new BullpenException(String.valueOf(e.getMessage()), e);
    }

    /**
     * Redis's OOM reply, as Redisson maps it or, from inside a script, as a script error whose
     * text starts with the command's "OOM command not allowed" (Redisson's form prefixes it).
     */
    static boolean isOutOfMemory(Throwable t) {
        if (t instanceof RedisOutOfMemoryException) {
            return true;
        }
        String m = t.getMessage();
        return m != null && (m.startsWith("OOM ") || m.contains("OOM command not allowed"));
    }
}
