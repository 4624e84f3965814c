package io.bullpen.worker;

import io.bullpen.internal.Validation;
import java.time.Duration;
import java.util.Objects;

/**
 * How a batch worker ({@link Worker.Builder#batchProcessor}) groups the jobs it takes into
 * batches: at most {@link #size()} jobs per batch; a batch with fewer than {@link #minSize()} jobs
 * waits up to {@link #maxWait()} for more, then runs with what it has; with
 * {@link #sameGroup(boolean) sameGroup(true)} a batch holds jobs of one group only. Immutable: each
 * setter returns a copy.
 *
 * <pre>{@code
 * JobBatchOptions.of(100).minSize(10).maxWait(Duration.ofSeconds(2)).sameGroup(true)
 * }</pre>
 */
public final class JobBatchOptions {
    /** The {@link #maxWait()} of options that do not set one. */
    public static final Duration DEFAULT_MAX_WAIT = Duration.ofSeconds(1);

    private final int size;
    private final int minSize;
    private final Duration maxWait;
    private final boolean sameGroup;

    private JobBatchOptions(int size, int minSize, Duration maxWait, boolean sameGroup) {
        this.size = size;
        this.minSize = minSize;
        this.maxWait = maxWait;
        this.sameGroup = sameGroup;
    }

    /**
     * Batches of at most {@code size} jobs, run as soon as jobs are taken (a minimum size of 1),
     * of any groups.
     *
     * @param size the most jobs per batch, {@code >= 1}
     * @return the options
     * @throws IllegalArgumentException when {@code size} is below 1, naming it
     */
    public static JobBatchOptions of(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("batch size must be >= 1 but was " + size);
        }
        return new JobBatchOptions(size, 1, DEFAULT_MAX_WAIT, false);
    }

    /**
     * A batch with fewer jobs than this waits for more, at most {@link #maxWait()} from when its
     * first job was taken; then it runs with what it has (a lone job is never held longer).
     *
     * @param minSize between 1 and {@link #size()}
     * @return a copy with this minimum size
     * @throws IllegalArgumentException when {@code minSize} is below 1 or above the size, naming both
     */
    public JobBatchOptions minSize(int minSize) {
        if (minSize < 1 || minSize > size) {
            throw new IllegalArgumentException("batch minSize must be between 1 and the batch size " + size
                    + " but was " + minSize);
        }
        return new JobBatchOptions(size, minSize, maxWait, sameGroup);
    }

    /**
     * @param maxWait how long a batch below {@link #minSize()} waits for more jobs, {@code >= 0}
     *     (default {@link #DEFAULT_MAX_WAIT}); counted on the worker's clock
     * @return a copy with this wait
     * @throws IllegalArgumentException when {@code maxWait} is null or negative, naming it
     */
    public JobBatchOptions maxWait(Duration maxWait) {
        Validation.nonNegative("batch maxWait", maxWait);
        return new JobBatchOptions(size, minSize, maxWait, sameGroup);
    }

    /**
     * @param sameGroup true: a batch holds jobs of one group only (jobs without a group form
     *     batches of their own); false (default): jobs of any groups share a batch
     * @return a copy with this setting
     */
    public JobBatchOptions sameGroup(boolean sameGroup) {
        return new JobBatchOptions(size, minSize, maxWait, sameGroup);
    }

    /** @return the most jobs per batch */
    public int size() {
        return size;
    }

    /** @return the fewest jobs a batch waits for, up to {@link #maxWait()} */
    public int minSize() {
        return minSize;
    }

    /** @return how long a batch below {@link #minSize()} waits for more jobs */
    public Duration maxWait() {
        return maxWait;
    }

    /** @return whether a batch holds jobs of one group only */
    public boolean sameGroup() {
        return sameGroup;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JobBatchOptions other && size == other.size && minSize == other.minSize
                && maxWait.equals(other.maxWait) && sameGroup == other.sameGroup;
    }

    @Override
    public int hashCode() {
        return Objects.hash(size, minSize, maxWait, sameGroup);
    }

    @Override
    public String toString() {
        return "JobBatchOptions[size=" + size + ", minSize=" + minSize + ", maxWait=" + Validation.millis(maxWait)
                + ", sameGroup=" + sameGroup + "]";
    }
}
