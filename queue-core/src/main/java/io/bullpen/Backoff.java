package io.bullpen;

import io.bullpen.internal.Validation;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * How long to wait before retrying a failed job: a pure function from the number of attempts
 * made to a delay, with no Redis involved.
 *
 * <p>Three shapes exist:
 * <ul>
 *   <li>{@link #fixed(Duration)}: the same delay before every retry;</li>
 *   <li>{@link #exponential(Duration)}: base, 2 x base, 4 x base, ..., optionally capped and
 *       jittered through {@link ExponentialBackoff};</li>
 *   <li>{@link #schedule(Duration...)}: an explicit list of delays, e.g. 15s, 3m, 10m, 30m, 1h,
 *       whose last step repeats for further attempts.</li>
 * </ul>
 *
 * <p>Delays have millisecond precision (finer parts are dropped when the backoff is created),
 * because the job's options are stored as JSON in milliseconds and every process must rebuild
 * the same backoff from them.
 * Instances are immutable and compare by value.
 */
public sealed interface Backoff permits FixedBackoff, ExponentialBackoff, ScheduleBackoff {

    /**
     * Waits the same delay before every retry.
     *
     * @param delay the delay, >= 0
     * @return the backoff
     * @throws NullPointerException if {@code delay} is null
     * @throws IllegalArgumentException if {@code delay} is negative
     */
    static Backoff fixed(Duration delay) {
        Validation.nonNegative("backoff delay", delay);
        return new FixedBackoff(delay.toMillis());
    }

    /**
     * Doubles the delay after every failed attempt, starting at {@code base}: the first retry
     * waits base, the second 2 x base, the n-th base x 2^(n-1). Use
     * {@link ExponentialBackoff#maxDelay(Duration)} to cap it and
     * {@link ExponentialBackoff#jitter(double)} to spread retries of many jobs that failed
     * together.
     *
     * @param base the first retry's delay, >= 0
     * @return the backoff, uncapped and without jitter
     * @throws NullPointerException if {@code base} is null
     * @throws IllegalArgumentException if {@code base} is negative
     */
    static ExponentialBackoff exponential(Duration base) {
        Validation.nonNegative("backoff base delay", base);
        return new ExponentialBackoff(base.toMillis(), ExponentialBackoff.NO_MAX, 0);
    }

    /**
     * Follows a staged retry schedule: the first retry waits {@code steps[0]}, the second
     * {@code steps[1]}, and attempts beyond the list reuse the last step. For example
     * {@code schedule(15s, 3m, 10m, 30m, 30m, 1h, 2h, 6h, 15h)}.
     *
     * @param steps the delays, at least one, each >= 0
     * @return the backoff
     * @throws NullPointerException if {@code steps} or a step is null
     * @throws IllegalArgumentException if there is no step or a step is negative
     */
    static Backoff schedule(Duration... steps) {
        Objects.requireNonNull(steps, "backoff schedule must not be null");
        return schedule(Arrays.asList(steps));
    }

    /**
     * Follows a staged retry schedule, as {@link #schedule(Duration...)}.
     *
     * @param steps the delays, at least one, each >= 0
     * @return the backoff
     * @throws NullPointerException if {@code steps} or a step is null
     * @throws IllegalArgumentException if there is no step or a step is negative
     */
    static Backoff schedule(List<Duration> steps) {
        Objects.requireNonNull(steps, "backoff schedule must not be null");
        if (steps.isEmpty()) {
            throw new IllegalArgumentException("backoff schedule must have at least one step");
        }
        long[] millis = new long[steps.size()];
        for (int i = 0; i < millis.length; i++) {
            Duration step = steps.get(i);
            Validation.nonNegative("backoff schedule step " + i, step);
            millis[i] = step.toMillis();
        }
        return new ScheduleBackoff(millis);
    }

    /**
     * The delay before the next retry, jittered with {@link ThreadLocalRandom} where the
     * backoff has jitter.
     *
     * @param attemptsMade attempts made so far including the one that just failed, >= 1
     *     (1 gives the first retry's delay)
     * @return the delay, never negative
     * @throws IllegalArgumentException if {@code attemptsMade < 1}
     */
    default Duration delay(int attemptsMade) {
        return delay(attemptsMade, () -> ThreadLocalRandom.current().nextDouble());
    }

    /**
     * The delay before the next retry, with an injectable source of randomness for jitter
     * (backoffs without jitter never call it).
     *
     * @param attemptsMade attempts made so far including the one that just failed, >= 1
     * @param random returns values in [0, 1)
     * @return the delay, never negative
     * @throws NullPointerException if {@code random} is null
     * @throws IllegalArgumentException if {@code attemptsMade < 1} or {@code random} returns a
     *     value outside [0, 1)
     */
    Duration delay(int attemptsMade, DoubleSupplier random);
}
