package io.bullpen;

import com.fasterxml.jackson.databind.JavaType;
import io.bullpen.internal.WireFormat;
import java.util.Map;

/**
 * Gives {@link WireFormat} the package-private codec of this package's types; installed once, by
 * {@link JobOptions}'s class initialization. Not API.
 */
final class WireAccess implements WireFormat.Access {

    @Override
    public <T> Job<T> job(String id, Map<String, String> hash, JavaType dataType) {
        return Job.fromHash(id, hash, dataType);
    }

    @Override
    public <T> Job<T> withAttemptsMade(Job<T> job, int attemptsMade) {
        return job.withAttemptsMade(attemptsMade);
    }

    @Override
    public Map<String, String> fields(Job<?> job) {
        return job.rawFields();
    }

    @Override
    public Map<String, Object> describe(JobOptions options) {
        return options.describe();
    }

    @Override
    public JobOptions jobOptions(Map<String, ?> description) {
        return JobOptions.fromDescription(description);
    }

    @Override
    public Map<String, Object> describe(Backoff backoff) {
        return BackoffText.describe(backoff);
    }

    @Override
    public Backoff backoff(Map<String, ?> description) {
        return BackoffText.fromDescription(description);
    }

    @Override
    public Map<String, Object> describe(Retention retention) {
        return retention.describe();
    }

    @Override
    public Retention retention(Map<String, ?> description) {
        return Retention.fromDescription(description);
    }

    @Override
    public Map<String, Object> describe(Repeat repeat) {
        return repeat.describe();
    }

    @Override
    public Repeat repeat(Map<String, ?> description) {
        return Repeat.fromDescription(description);
    }

    @Override
    public JobOptions withDefaults(JobOptions defaults, JobOptions own) {
        return JobDefaults.of(defaults).apply(own, true);
    }
}
