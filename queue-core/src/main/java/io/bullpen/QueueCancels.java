package io.bullpen;

import io.bullpen.internal.CancelScripts;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.RedisCalls;
import java.time.Clock;
import org.redisson.api.RedissonClient;

/**
 * The logic behind {@link Queue#cancel(String, String)}: validates, then one cancelJob call.
 * Package-private: {@code Queue} is the API.
 */
final class QueueCancels {
    private final String queue;
    private final CancelScripts scripts;
    private final Clock clock;

    QueueCancels(RedissonClient redisson, KeyScheme keys, Clock clock) {
        this.queue = keys.queue();
        this.scripts = new CancelScripts(redisson, keys);
        this.clock = clock;
    }

    CancelResult cancel(String jobId, String reason) {
        CancelScripts.validate(jobId, reason);
        return RedisCalls.join(queue, "cancel", scripts.cancelJob(clock.millis(), jobId, reason));
    }
}
