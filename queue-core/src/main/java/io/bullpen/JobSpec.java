package io.bullpen;

import io.bullpen.internal.Validation;

import java.util.Objects;

/**
 * A job to add: its name (what kind of work, e.g. {@code "send-email"}), its data (serialized
 * to JSON) and its options.
 *
 * @param name the job name, at most {@value #MAX_NAME_LENGTH} characters
 * @param data the payload, may be null
 * @param options how the job is added and handled
 * @param <T> the payload type
 */
public record JobSpec<T>(String name, T data, JobOptions options) {

    /** Longest accepted job name. */
    public static final int MAX_NAME_LENGTH = 1024;

    /**
     * Checks the name and options.
     *
     * @param name the job name
     * @param data the payload, may be null
     * @param options the options
     * @throws NullPointerException if {@code name} or {@code options} is null
     * @throws IllegalArgumentException if {@code name} is longer than {@value #MAX_NAME_LENGTH}
     */
    public JobSpec {
        Objects.requireNonNull(name, "job name must not be null");
        Objects.requireNonNull(options, "job options must not be null");
        if (name.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException("job name must be at most " + MAX_NAME_LENGTH
                    + " characters but was " + Validation.quote(name));
        }
    }

    /**
     * A job with {@link JobOptions#defaults() default options}.
     *
     * @param name the job name
     * @param data the payload, may be null
     * @param <T> the payload type
     * @return the spec
     */
    public static <T> JobSpec<T> of(String name, T data) {
        return new JobSpec<>(name, data, JobOptions.defaults());
    }

    /**
     * A job with the given options.
     *
     * @param name the job name
     * @param data the payload, may be null
     * @param options the options
     * @param <T> the payload type
     * @return the spec
     */
    public static <T> JobSpec<T> of(String name, T data, JobOptions options) {
        return new JobSpec<>(name, data, options);
    }
}
