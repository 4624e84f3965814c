package io.bullpen;

import io.bullpen.internal.JobChangeScripts;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.RedisCalls;
import io.bullpen.internal.Validation;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import org.redisson.api.RedissonClient;

/**
 * The job changes behind {@link Queue#changeDelay}, {@link Queue#changePriority} and
 * {@link Queue#updateData}: each validated as an add validates the same value (range, payload
 * size, data that serializes) before one script call (changeDelay, changePriority, updateData).
 * Package-private: {@code Queue} is the API.
 */
final class QueueJobChanges<T> {
    private final String queue;
    private final JobChangeScripts scripts;
    private final JobAdder<T> adder;
    private final Clock clock;

    QueueJobChanges(RedissonClient redisson, KeyScheme keys, JobAdder<T> adder, Clock clock) {
        this.queue = keys.queue();
        this.scripts = new JobChangeScripts(redisson, keys);
        this.adder = adder;
        this.clock = clock;
    }

    JobState changeDelay(String id, Duration delay) {
        String jobId = id(id);
        Validation.nonNegative("delay", delay);
        long delayMs = Validation.toMillis("delay", delay);
        return join("changeDelay", scripts.changeDelay(clock.millis(), jobId, delayMs));
    }

    JobState changePriority(String id, int priority) {
        String jobId = id(id);
        Validation.between("priority", priority, 0, JobOptions.MAX_PRIORITY);
        return join("changePriority", scripts.changePriority(jobId, priority));
    }

    void updateData(String id, T data) {
        String jobId = id(id);
        String json = adder.encodeData(null, data);
        join("updateData", scripts.updateData(jobId, json));
    }

    private static String id(String id) {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("job id must not be null or blank but was " + Validation.quote(id));
        }
        return id;
    }

    private <R> R join(String operation, CompletionStage<R> stage) {
        return RedisCalls.join(queue, operation, stage);
    }
}
