package io.bullpen.spring.boot.autoconfigure;

import io.bullpen.spring.BullpenWorker;
import io.bullpen.worker.JobBatchOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.env.PropertyResolver;

/**
 * The batch attributes of a {@link BullpenWorker} method taking a {@code JobBatch<T, R>}, resolved
 * and checked when the context starts (each null when the annotation leaves it empty), and the
 * {@link JobBatchOptions} they make with the queue's {@code bullpen.queues.<queue>.batch-*}
 * properties: an attribute the annotation sets wins over its property, as for concurrency; what
 * neither sets takes the default (size 10, minimum size 1, longest wait 1s, any groups).
 *
 * @param size the resolved {@code batchSize}, null when unset
 * @param minSize the resolved {@code batchMinSize}, null when unset
 * @param maxWait the resolved {@code batchMaxWait}, null when unset
 */
record WorkerBatch(Integer size, Integer minSize, Duration maxWait) {
    /** The batch size when neither the annotation nor the properties set one. */
    static final int DEFAULT_SIZE = 10;

    /**
     * @param a the annotation
     * @param env resolves placeholders
     * @return the batch attributes, each checked on its own (the minimum size against the size
     *     when both are set here)
     * @throws IllegalArgumentException naming the attribute and its bad value
     */
    static WorkerBatch read(BullpenWorker a, PropertyResolver env) {
        Integer size = number("batchSize", env.resolveRequiredPlaceholders(a.batchSize()).trim());
        Integer minSize = number("batchMinSize", env.resolveRequiredPlaceholders(a.batchMinSize()).trim());
        String wait = env.resolveRequiredPlaceholders(a.batchMaxWait()).trim();
        Duration maxWait = null;
        if (!wait.isEmpty()) {
            try {
                maxWait = DurationStyle.detectAndParse(wait);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("batchMaxWait must be a duration such as \"500ms\" or \"PT0.5S\" "
                        + "but was \"" + wait + "\"");
            }
            if (maxWait.isNegative()) {
                throw new IllegalArgumentException("batchMaxWait must be >= 0 but was \"" + wait + "\"");
            }
        }
        if (size != null && minSize != null && minSize > size) {
            throw new IllegalArgumentException("batchMinSize must be between 1 and batchSize " + size + " but was "
                    + minSize);
        }
        return new WorkerBatch(size, minSize, maxWait);
    }

    /**
     * @param a the annotation of a method that is not a batch worker
     * @return the batch attributes it sets (they apply to batch workers only), in declaration order
     */
    static List<String> attributesSet(BullpenWorker a) {
        List<String> set = new ArrayList<>();
        if (!a.batchSize().isBlank()) {
            set.add("batchSize = \"" + a.batchSize() + "\"");
        }
        if (!a.batchMinSize().isBlank()) {
            set.add("batchMinSize = \"" + a.batchMinSize() + "\"");
        }
        if (!a.batchMaxWait().isBlank()) {
            set.add("batchMaxWait = \"" + a.batchMaxWait() + "\"");
        }
        return set;
    }

    private static Integer number(String attribute, String text) {
        if (text.isEmpty()) {
            return null;
        }
        int n;
        try {
            n = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(attribute + " must be a number but was \"" + text + "\"");
        }
        if (n < 1) {
            throw new IllegalArgumentException(attribute + " must be >= 1 but was " + n);
        }
        return n;
    }

    /**
     * @param queue the queue, for the property names in messages
     * @param settings the queue's {@code bullpen.queues.<queue>.*}, null when none
     * @return the batch options: each attribute set here, else its property, else the default
     * @throws IllegalArgumentException naming the bad value and where it came from (attribute or property)
     */
    JobBatchOptions options(String queue, BullpenProperties.QueueSettings settings) {
        String property = "bullpen.queues." + queue + ".";
        boolean props = settings != null;
        int size;
        String sizeFrom;
        if (this.size != null) {
            size = this.size;
            sizeFrom = "batchSize";
        } else if (props && settings.getBatchSize() != null) {
            size = settings.getBatchSize();
            sizeFrom = property + "batch-size";
            if (size < 1) {
                throw new IllegalArgumentException(sizeFrom + " must be >= 1 but was " + size);
            }
        } else {
            size = DEFAULT_SIZE;
            sizeFrom = "the default";
        }
        int minSize = 1;
        String minFrom = null;
        if (this.minSize != null) {
            minSize = this.minSize;
            minFrom = "batchMinSize";
        } else if (props && settings.getBatchMinSize() != null) {
            minSize = settings.getBatchMinSize();
            minFrom = property + "batch-min-size";
        }
        if (minFrom != null && (minSize < 1 || minSize > size)) {
            throw new IllegalArgumentException(minFrom + " must be between 1 and the batch size " + size + " ("
                    + sizeFrom + ") but was " + minSize);
        }
        Duration wait = JobBatchOptions.DEFAULT_MAX_WAIT;
        if (this.maxWait != null) {
            wait = this.maxWait;
        } else if (props && settings.getBatchMaxWait() != null) {
            wait = settings.getBatchMaxWait();
            if (wait.isNegative()) {
                throw new IllegalArgumentException(property + "batch-max-wait must be >= 0 but was " + wait.toMillis() + "ms");
            }
        }
        boolean sameGroup = props && Boolean.TRUE.equals(settings.getBatchSameGroup());
        return JobBatchOptions.of(size).minSize(minSize).maxWait(wait).sameGroup(sameGroup);
    }
}
