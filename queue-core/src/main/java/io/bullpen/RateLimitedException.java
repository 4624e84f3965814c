package io.bullpen;

import java.time.Duration;
import java.util.Objects;

/**
 * Thrown by a processor to say "the service I call is limiting me": the job goes back to the
 * front of its line without using an attempt, and the queue (or, with {@link #group(Duration)},
 * the job's group) takes no job for {@code delay}, set in the same script that puts the job back.
 *
 * <pre>{@code
 * if (response.statusCode() == 429) {
 *     throw new RateLimitedException(Duration.ofSeconds(retryAfter));
 * }
 * }</pre>
 */
public class RateLimitedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final Duration delay;
    private final boolean group;

    /**
     * Limits the whole queue for {@code delay}.
     *
     * @param delay how long no job of the queue starts, at least 1 ms
     * @throws IllegalArgumentException for a delay under 1 ms or over 30 days
     */
    public RateLimitedException(Duration delay) {
        this(delay, false);
    }

    private RateLimitedException(Duration delay, boolean group) {
        super((group ? "group" : "queue") + " rate limited for " + Objects.requireNonNull(delay, "delay"), null, false, false);
        if (delay.toMillis() < 1 || delay.compareTo(RateLimit.MAX_PER) > 0) {
            throw new IllegalArgumentException("rate limited delay must be between 1ms and 30 days but was " + delay);
        }
        this.delay = delay;
        this.group = group;
    }

    /**
     * Limits only the group of the job being processed; for a job without a group it limits the
     * whole queue, as the constructor does.
     *
     * @param delay how long no job of the group starts, at least 1 ms
     * @return the exception to throw
     */
    public static RateLimitedException group(Duration delay) {
        return new RateLimitedException(delay, true);
    }

    /** @return how long the queue or group takes no job */
    public Duration delay() {
        return delay;
    }

    /** @return true when only the job's group is limited */
    public boolean isGroup() {
        return group;
    }
}
