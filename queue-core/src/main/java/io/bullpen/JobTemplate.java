package io.bullpen;

import java.util.Objects;

/**
 * What each job of a scheduler looks like: name, data and options. The scheduler decides when
 * jobs run and their ids, so the options may not set a delay or a custom job id.
 *
 * @param name the jobs' name
 * @param data the jobs' data
 * @param options the jobs' options (attempts, backoff, priority, retention, timeout)
 * @param <T> the type of the jobs' data
 */
public record JobTemplate<T>(String name, T data, JobOptions options) {
    /** Validates the template. */
    public JobTemplate {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(options, "options");
        if (!options.delay().isZero()) {
            throw new IllegalArgumentException("a job scheduler's template cannot set a delay (the schedule decides) but "
                    + "had " + io.bullpen.internal.Validation.millis(options.delay()));
        }
        if (options.jobId().isPresent()) {
            throw new IllegalArgumentException("a job scheduler's template cannot set a job id (iterations get "
                    + "deterministic ids) but had " + options.jobId().get());
        }
    }

    /** @return a template with default options */
    public static <T> JobTemplate<T> of(String name, T data) {
        return new JobTemplate<>(name, data, JobOptions.defaults());
    }

    /** @return a template with the given options */
    public static <T> JobTemplate<T> of(String name, T data, JobOptions options) {
        return new JobTemplate<>(name, data, options);
    }
}
